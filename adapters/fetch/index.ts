import { DEFAULT_MAX_BODY, WeirError, createMount, errorResponse, splitUrl, type Host, type HostDeps, type HostOptions, type MountOptions } from '../../src/internal.js';
import { createLifecycle, shuttingDown, type HostLifecycle } from '../_shared/lifecycle.js';
import { headersOf, readRequestBody, toResponse } from './wire.js';

export { DEFAULT_MAX_BODY };
export { ROUTE_GROUPS, type RouteGroup, type MountOptions, type HostOptions } from '../../src/internal.js';

/** Options of {@link createFetchHandler}. */
export interface FetchHandlerOptions extends HostOptions, MountOptions {
  /** The URL weir's routes are reachable at from outside; default `publicUrl` of weir.config.json. */
  publicUrl?: string;
  /** Request body limit in bytes (default 1 MiB): larger bodies get 413, and reading stops there. */
  maxBody?: number;
  /** A host core made elsewhere (default: one made here with these options). */
  host?: Host;
}

/** A fetch-style handler with the host's lifecycle attached. */
export type FetchHandler = ((request: Request) => Promise<Response>) &
  HostLifecycle & {
    /** True when weir answers this request (inside `prefix`, a route of the chosen groups): pass the others on. */
    owns(request: Request): boolean;
  };

/**
 * The host as a fetch handler, `(Request) => Promise<Response>`, for Hono, Bun, Deno and other fetch-style
 * servers: the same routes, answers and limits as the node:http listener. A path outside `prefix` gets the
 * 404 JSON answer; use `owns` to pass such requests to the app instead.
 * @example
 * const weirFetch = createFetchHandler(weir, { prefix: '/weir' })
 * app.all('/weir/*', (c) => weirFetch(c.req.raw)) // Hono
 * Bun.serve({ fetch: weirFetch })
 */
export function createFetchHandler(weir: HostDeps, options: FetchHandlerOptions = {}): FetchHandler {
  const mount = createMount(options.prefix);
  const life = createLifecycle(weir, options);
  const { host } = life;
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const publicUrl = (options.publicUrl ?? weir.config.publicUrl)?.replace(/\/+$/, '');
  const base = mount.base || undefined;

  async function serveOne(request: Request, target: string, origin: string): Promise<Response> {
    let rawBody: Buffer;
    try {
      rawBody = await readRequestBody(request, maxBody, life.stopReading);
    } catch (err) {
      // The rest of a refused body is never read: the connection closes after this answer.
      return toResponse(errorResponse(err, options.onError), request.method, { connection: 'close' });
    }
    try {
      if (!life.started) await life.ready;
      const { path, query } = splitUrl(target);
      const out = await host.handle({ method: request.method, path, query, headers: headersOf(request), rawBody, publicUrl, origin, base, signal: request.signal });
      return toResponse(out, request.method, life.closing ? { connection: 'close' } : undefined);
    } catch (err) {
      return toResponse(errorResponse(err, options.onError), request.method);
    }
  }

  /** The request target weir routes (prefix taken off) and the origin it was sent to, or null when the path is the app's. */
  const targetOf = (request: Request): { target: string; origin: string } | null => {
    const url = new URL(request.url);
    const inner = mount.strip(url.pathname);
    return inner === null ? null : { target: inner + url.search, origin: url.origin };
  };

  const handler = (async (request: Request) => {
    const target = targetOf(request);
    if (target === null) return toResponse(errorResponse(new WeirError('NOT_FOUND', 'not found')), request.method);
    if (life.closing) return toResponse(shuttingDown(), request.method, { connection: 'close' });
    return life.track(serveOne(request, target.target, target.origin));
  }) as FetchHandler;

  handler.host = host;
  handler.ready = life.ready;
  handler.owns = (request) => {
    const target = targetOf(request);
    return target !== null && host.owns(request.method, splitUrl(target.target).path);
  };
  handler.close = life.close;
  return handler;
}
