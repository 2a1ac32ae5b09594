import type { HostResponse } from './types.js';

/** A host response ready for a transport: a final status, clean headers, and the bytes or the stream. */
export interface EncodedResponse {
  status: number;
  headers: Record<string, string>;
  /** The payload, with `content-length` set in `headers`; absent when `stream` is given. */
  payload?: string | Buffer;
  stream?: NodeJS.ReadableStream;
}

const VALID_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// A header a flow sets must not split the response or override framing.
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection']);

/** A final status a flow asked for, or 500 when it is not one (a Respond node with status 42). */
const statusOf = (status: number) => (Number.isInteger(status) && status >= 200 && status <= 599 ? status : 500);

/**
 * Turns a host response into what every transport writes: objects as JSON, strings and Buffers as they are,
 * streams passed on. Headers set by a flow (Respond node) that are invalid or would change the message
 * framing are left out; names are lower case.
 * @example
 * encodeResponse({ status: 200, body: { ok: true } }) // { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '11' }, payload: '{"ok":true}' }
 */
export function encodeResponse(out: HostResponse, extraHeaders?: Record<string, string>): EncodedResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(out.headers ?? {})) {
    if (value === undefined || value === null || !VALID_NAME.test(name) || FRAMING.has(name.toLowerCase())) continue;
    const text = String(value);
    if (!/[\r\n\0]/.test(text)) headers[name.toLowerCase()] = text;
  }
  Object.assign(headers, extraHeaders);
  const status = statusOf(out.status);
  if (out.stream) return { status, headers, stream: out.stream };
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
  return { status, headers, payload };
}
