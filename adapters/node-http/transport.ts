import type { IncomingMessage, ServerResponse } from 'node:http';
import { encodeResponse, splitUrl, type HostRequest, type HostResponse } from '../../src/internal.js';

/** Node's headers as one string per (lower-case) name: node already joins repeats, except `set-cookie`. */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers = req.headers;
  if (!Array.isArray(headers['set-cookie'])) return headers as Record<string, string>;
  return { ...headers, 'set-cookie': headers['set-cookie'].join(', ') } as Record<string, string>;
}

/**
 * The transport-free request of a node:http request whose body has been read. `signal` and `origin` are made
 * on first use only (most routes never ask): `signal` aborts when the client goes away before the answer. A
 * class, so the getters live on the prototype instead of being made per request.
 */
class NodeHostRequest implements HostRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  rawQuery: string;
  headers: Record<string, string>;
  rawBody: Buffer;
  publicUrl: string | undefined;
  base: string | undefined;
  remoteAddress: string | undefined;
  #abort: AbortController | undefined;
  readonly #res: ServerResponse;

  constructor(req: IncomingMessage, res: ServerResponse, parts: RequestParts) {
    const { path, query, rawQuery } = splitUrl(parts.url);
    this.method = req.method ?? 'GET';
    this.path = path;
    this.query = query;
    this.rawQuery = rawQuery;
    this.headers = parts.headers;
    this.rawBody = parts.rawBody;
    this.publicUrl = parts.publicUrl;
    this.base = parts.base;
    this.remoteAddress = req.socket.remoteAddress;
    this.#res = res;
  }

  /** Made on first use (only a `respondImmediately` answer asks): the scheme of the connection and `Host`. */
  get origin(): string {
    const socket = this.#res.req.socket as { encrypted?: boolean; localAddress?: string; localPort?: number };
    const host = this.headers.host ?? `${socket.localAddress}:${socket.localPort}`;
    return `${socket.encrypted ? 'https' : 'http'}://${host}`;
  }

  get signal(): AbortSignal {
    if (!this.#abort) {
      const controller = (this.#abort = new AbortController());
      const res = this.#res;
      if (res.destroyed && !res.writableFinished) controller.abort();
      else res.once('close', () => res.writableFinished || controller.abort());
    }
    return this.#abort.signal;
  }
}

/** What the adapter knows about a request beyond node's own fields. */
export interface RequestParts {
  /** The request target weir routes (a mount prefix taken off). */
  url: string;
  rawBody: Buffer;
  publicUrl: string | undefined;
  /** The mount path taken off `url`. */
  base?: string;
  /** The request's headers ({@link flatHeaders}), or those fitted to a body a body parser left. */
  headers: Record<string, string>;
}

/** The transport-free request of a node:http request whose body has been read. */
export function toHostRequest(req: IncomingMessage, res: ServerResponse, parts: RequestParts): HostRequest {
  return new NodeHostRequest(req, res, parts);
}

/**
 * Writes a host response: objects as JSON, strings and Buffers as they are, streams piped. Headers set by a
 * flow (Respond node) that are invalid or would change the message framing are left out.
 */
export function sendResponse(res: ServerResponse, out: HostResponse, extraHeaders?: Record<string, string>): void {
  const { status, headers, payload, stream } = encodeResponse(out, extraHeaders);
  res.writeHead(status, headers);
  if (stream) stream.pipe(res);
  else res.end(payload);
}
