import { errorResponse, WeirError } from '../errors.js';
import { compileRoutes } from './router.js';
import type { HostRequest, HostResponse, Route } from './types.js';

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  /** Told about unexpected errors (the caller only sees "internal error"); default: nothing. */
  onError?(err: unknown, req: HostRequest): void;
}

/** A transport-free request handler; `owns` tells an adapter whether a path is the host's before it reads a body. */
export type Handler = ((req: HostRequest) => Promise<HostResponse>) & { owns(method: string, path: string): boolean };

/** The answer to a path no route owns, mapped once like every error (returned without throwing: scanners hit it a lot). */
const NOT_FOUND = errorResponse(new WeirError('NOT_FOUND', 'not found'));
const notFound = (): HostResponse => ({ status: NOT_FOUND.status, body: { error: { ...NOT_FOUND.body.error } } });

/**
 * Builds the core request handler over a route list (compiled once): the matching route answers, unknown
 * paths get a 404 JSON body, and every thrown error goes through {@link errorResponse}.
 * @example
 * const handle = createHandler(routes, { onError: (e) => console.error(e) })
 * const res = await handle({ method: 'GET', path: '/healthz', query: {}, headers: {}, rawBody: Buffer.alloc(0) })
 */
export function createHandler(list: readonly Route[], options: HandlerOptions = {}): Handler {
  const router = compileRoutes(list);
  const handler = async (req: HostRequest): Promise<HostResponse> => {
    try {
      const found = router.match(req.method, req.path);
      if (!found) return notFound();
      return await found.route.handle(req, found.params);
    } catch (err) {
      return errorResponse(err, (e) => options.onError?.(e, req));
    }
  };
  return Object.assign(handler, { owns: (method: string, path: string) => router.match(method, path) !== null });
}
