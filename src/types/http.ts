import type { Outcome } from './trigger.js';

/**
 * A transport-free HTTP request: what an adapter (adapters/node-http) hands the core.
 * Header names are lower case. `rawBody` holds the bytes as received (bounded by the host's body limit).
 */
export interface HostRequest {
  method: string;
  /** Path without the query string, e.g. `/trigger/abc`. */
  path: string;
  /** The path an embedding app mounted weir under (`/weir`), already taken off `path`; absent at the root. */
  base?: string;
  query: Record<string, string | string[]>;
  /** The query string exactly as received, without the `?` (signatures are made over it, not over `query`). */
  rawQuery?: string;
  headers: Record<string, string>;
  rawBody: Buffer;
  /** The host's body limit in bytes, which a decoded (inflated) body must stay within too (default 1 MiB). */
  maxBody?: number;
  /** The URL the host is reachable at from outside (`--public-url`), without a trailing slash. */
  publicUrl?: string;
  /** Scheme, host and port the request was sent to (`https://hooks.example.com`), as the transport saw it. */
  origin?: string;
  remoteAddress?: string;
  /** Aborted when the client goes away or the host shuts down. */
  signal?: AbortSignal;
}

/** A transport-free HTTP answer: an {@link Outcome}, or a `stream` to pipe in place of the body. */
export interface HostResponse extends Outcome {
  stream?: NodeJS.ReadableStream;
}

/** Path parameters captured by a route pattern (`/trigger/:token` -> `{ token }`). */
export type RouteParams = Record<string, string>;

/** One HTTP route: a core route of the host (src/host/routes/) or a trigger's (declared by its defineTrigger). */
export interface Route {
  /** HTTP methods answered; omitted = any method. */
  methods?: string[];
  /** A path pattern with `:name` segments and an optional trailing `*` (captured as `params['*']`). */
  path: string;
  handle(req: HostRequest, params: RouteParams): Promise<HostResponse>;
}
