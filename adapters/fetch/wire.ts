import { Readable } from 'node:stream';
import { WeirError, encodeResponse, onAbort, tooLarge, type HostResponse } from '../../src/internal.js';

/**
 * Reads a fetch Request's body, at most `max` bytes: a Content-Length above the limit fails before a byte
 * is read, a streamed body as soon as it passes the limit (the stream is cancelled there). A body the app
 * already read, or one still arriving when `signal` aborts (the host shutting down), fails at once.
 * @example
 * const raw = await readRequestBody(request, 1024 * 1024, AbortSignal.timeout(30_000))
 */
export async function readRequestBody(request: Request, max: number, signal: AbortSignal): Promise<Buffer> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > max) throw tooLarge(max);
  if (request.bodyUsed) {
    throw new WeirError('INVALID_CONFIG', 'the request body was already read before it reached weir (c.req.json(), request.text(), ...)', {
      hints: ['hand weir the request before reading its body, or a clone: request.clone()'],
    });
  }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  const forget = onAbort(signal, stop);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw new WeirError('UNAVAILABLE', 'the host is shutting down');
      if (done) return Buffer.concat(chunks, size);
      size += value.byteLength;
      if (size > max) {
        stop();
        throw tooLarge(max);
      }
      chunks.push(value);
    }
  } finally {
    forget();
  }
}

/** Statuses whose response has no body (a Response with one throws). */
const NO_BODY = new Set([204, 205, 304]);

/**
 * A fetch Response of a host response: the same status, headers and bytes the node adapter writes; a
 * stream becomes a web stream; HEAD and 204/205/304 answers have no body.
 * @example
 * return toResponse({ status: 200, body: { ok: true } }, request.method)
 */
export function toResponse(out: HostResponse, method: string, extraHeaders?: Record<string, string>): Response {
  const { status, headers, payload, stream } = encodeResponse(out, extraHeaders);
  if (method === 'HEAD' || NO_BODY.has(status)) return new Response(null, { status, headers });
  const body = stream ? (Readable.toWeb(stream as Readable) as ReadableStream<Uint8Array<ArrayBuffer>>) : typeof payload === 'string' ? payload : new Uint8Array(payload!.buffer as ArrayBuffer, payload!.byteOffset, payload!.byteLength);
  return new Response(body, { status, headers });
}

/** A Request's headers as one string per (lower-case) name, as the host core takes them. */
export function headersOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
