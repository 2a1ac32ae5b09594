import { timingSafeEqual } from 'node:crypto';
import { WeirError } from '../errors.js';
import type { HostRequest } from '../types/http.js';

/** The cookie a `?token=` visit sets, so a page's own requests carry the token without it in every URL. */
export const TOKEN_COOKIE = 'weir_token';

/** Compares two tokens in time that does not depend on where they differ. */
export const sameToken = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The token a request carries: `Authorization: Bearer`, `?token=`, or the cookie set by an earlier `?token=`. */
export function tokenOf(req: Pick<HostRequest, 'headers' | 'query'>): { token?: string; fromQuery: boolean; fromCookie: boolean } {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer) return { token: bearer, fromQuery: false, fromCookie: false };
  const query = first(req.query.token);
  if (query) return { token: query, fromQuery: true, fromCookie: false };
  const cookie = (req.headers.cookie ?? '').split(/;\s*/).find((c) => c.startsWith(`${TOKEN_COOKIE}=`));
  return { token: cookie ? decodeURIComponent(cookie.slice(TOKEN_COOKIE.length + 1)) : undefined, fromQuery: false, fromCookie: cookie !== undefined };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A browser sends the token cookie with requests other sites make it send, so a state-changing request the
 * cookie authenticates must come from a page of this host: its `Origin` (else `Referer`) names the host the
 * request was sent to. A request without either is refused too (every browser sends one on such requests).
 */
function requireSameOrigin(req: Pick<HostRequest, 'method' | 'headers'>): void {
  const from = req.headers.origin ?? req.headers.referer;
  let host: string | undefined;
  try {
    host = from ? new URL(from).host : undefined;
  } catch {
    host = undefined;
  }
  if (host !== undefined && host === req.headers.host) return;
  throw new WeirError('FORBIDDEN', `a ${req.method} authenticated by the Studio's cookie must come from a page of this host (Origin ${from ?? 'missing'})`, {
    hints: ['scripts and other hosts send the token as `Authorization: Bearer <token>`'],
  });
}

/**
 * Lets a request through only with the host access token: none is UNAUTHORIZED (401), a wrong one FORBIDDEN (403).
 * `what` names what is guarded, for the message.
 * @example
 * await requireToken(req, await interfaces.accessToken(), 'the management API')
 */
export function requireToken(req: Pick<HostRequest, 'method' | 'headers' | 'query'>, expected: string, what: string): void {
  const { token, fromCookie } = tokenOf(req);
  const hints = ['`weir interface token` prints the host access token; send it as `Authorization: Bearer <token>`'];
  if (!token) throw new WeirError('UNAUTHORIZED', `${what} needs the host access token`, { hints });
  if (!sameToken(token, expected)) throw new WeirError('FORBIDDEN', `the token sent is not this host's access token`, { hints });
  if (fromCookie && !SAFE_METHODS.has(req.method)) requireSameOrigin(req);
}
