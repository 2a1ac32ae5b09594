import type { IncomingMessage, ServerResponse } from 'node:http';
import { addValue } from '../../src/host/body.js';
import type { HostRequest, HostResponse } from '../../src/host/types.js';

/** Splits a request target into the path, its query object (a repeated key becomes an array) and the query text. */
export function splitUrl(url: string): { path: string; query: Record<string, string | string[]>; rawQuery: string } {
  const q = url.indexOf('?');
  if (q < 0) return { path: url, query: {}, rawQuery: '' };
  const query: Record<string, string | string[]> = {};
  const rawQuery = url.slice(q + 1);
  for (const [k, v] of new URLSearchParams(rawQuery)) addValue(query, k, v);
  return { path: url.slice(0, q), query, rawQuery };
}

/** Node's headers as one string per (lower-case) name: node already joins repeats, except `set-cookie`. */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers = req.headers;
  if (!Array.isArray(headers['set-cookie'])) return headers as Record<string, string>;
  return { ...headers, 'set-cookie': headers['set-cookie'].join(', ') } as Record<string, string>;
}

/**
 * The transport-free request of a node:http request whose body has been read. `signal` is made on first
 * use only (most routes never ask): it aborts when the client goes away before the answer. A class, so
 * the getter lives on the prototype instead of being made per request.
 */
class NodeHostRequest implements HostRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  rawQuery: string;
  headers: Record<string, string>;
  remoteAddress: string | undefined;
  #abort: AbortController | undefined;
  readonly #res: ServerResponse;

  constructor(
    url: string,
    res: ServerResponse,
    req: IncomingMessage,
    public rawBody: Buffer,
    public publicUrl: string | undefined,
  ) {
    const { path, query, rawQuery } = splitUrl(url);
    this.method = req.method ?? 'GET';
    this.path = path;
    this.query = query;
    this.rawQuery = rawQuery;
    this.headers = flatHeaders(req);
    this.remoteAddress = req.socket.remoteAddress;
    this.#res = res;
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

/** The transport-free request of a node:http request whose body has been read. */
export function toHostRequest(req: IncomingMessage, res: ServerResponse, rawBody: Buffer, publicUrl: string | undefined): HostRequest {
  return new NodeHostRequest(req.url ?? '/', res, req, rawBody, publicUrl);
}

const VALID_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// A header a flow sets must not split the response or override framing.
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection']);

/** A final status a flow asked for, or 500 when it is not one (a Respond node with status 42). */
const statusOf = (status: number) => (Number.isInteger(status) && status >= 200 && status <= 599 ? status : 500);

/**
 * Writes a host response: objects as JSON, strings and Buffers as they are, streams piped. Headers set by a
 * flow (Respond node) that are invalid or would change the message framing are left out.
 */
export function sendResponse(res: ServerResponse, out: HostResponse, extraHeaders?: Record<string, string>): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(out.headers ?? {})) {
    if (value === undefined || value === null || !VALID_NAME.test(name) || FRAMING.has(name.toLowerCase())) continue;
    const text = String(value);
    if (!/[\r\n\0]/.test(text)) headers[name.toLowerCase()] = text;
  }
  Object.assign(headers, extraHeaders);
  if (out.stream) {
    res.writeHead(statusOf(out.status), headers);
    out.stream.pipe(res);
    return;
  }
  let payload: string | Buffer;
  const body = out.body;
  if (body === undefined) payload = '';
  else if (typeof body === 'string' || Buffer.isBuffer(body)) {
    payload = body;
    headers['content-type'] ??= typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream';
  } else {
    payload = JSON.stringify(body) ?? 'null';
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(statusOf(out.status), headers);
  res.end(payload);
}
