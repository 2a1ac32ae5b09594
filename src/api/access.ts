import { WeirError } from '../errors.js';
import { requireToken } from '../host/access.js';
import type { HostRequest } from '../types/http.js';

/**
 * Decides whether a request may use the management API, in place of the host access token: true lets it
 * through, false answers 403 FORBIDDEN. To answer 401 (no credentials at all), throw
 * `new WeirError('UNAUTHORIZED', ...)`; any other thrown error is a 500.
 * @example
 * createListener(weir, { authorize: (req) => req.headers['x-user'] === 'admin' })
 */
export type Authorize = (request: HostRequest) => boolean | Promise<boolean>;

/** How management requests are let in: the embedder's `authorize`, else the host access token. */
export interface ApiAccess {
  /** The host access token (`weir interface token`). */
  token(): Promise<string>;
  authorize?: Authorize;
}

/**
 * Lets a request through, or throws UNAUTHORIZED (401: no token) / FORBIDDEN (403: a wrong token, or
 * `authorize` said no). `what` names what is guarded, for the message.
 * @example
 * await checkAccess(req, { token: () => weir.interfaces.accessToken() })
 */
export async function checkAccess(req: HostRequest, access: ApiAccess, what = 'the management API'): Promise<void> {
  if (!access.authorize) return requireToken(req, await access.token(), what);
  if (await access.authorize(req)) return;
  throw new WeirError('FORBIDDEN', `this request is not authorized to use ${what}`, { hints: ["the app embedding weir decides who may (its `authorize` option)"] });
}
