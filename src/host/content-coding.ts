import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';
import { WeirError } from '../errors.js';

/** The request body limit when the host is given none: 1 MiB (`weir serve --max-body`). */
export const DEFAULT_MAX_BODY = 1024 * 1024;

type Inflate = (raw: Buffer, options: ZlibOptions) => Buffer;

// A zlib stream starts with a CMF byte whose low nibble is 8 (deflate); some senders send raw deflate.
const inflateAny: Inflate = (raw, options) => ((raw[0] & 0x0f) === 8 ? inflateSync(raw, options) : inflateRawSync(raw, options));

const DECODERS: Record<string, Inflate> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateAny,
  br: brotliDecompressSync,
};

/** The 413 of a body past the limit: as received by a transport, or once decoded (both count against it). */
export const tooLarge = (max: number) =>
  new WeirError('PAYLOAD_TOO_LARGE', `request body is larger than ${max} bytes`, { hints: ['the host limit is set with `weir serve --max-body BYTES` (`maxBody` when embedded)'] });

/**
 * Undoes a request's `Content-Encoding` (`gzip`, `deflate`, `br`, `identity`, applied in the order listed, so
 * undone in reverse). Decoding stops as soon as the output passes `max` bytes (413), so a small compressed
 * body cannot inflate past the host's body limit; an unknown coding is UNSUPPORTED_MEDIA_TYPE (415) and
 * data that does not decode is INVALID_INPUT (400).
 * @example
 * decodeContent(gzipSync('{"a":1}'), 'gzip', 1024 * 1024).toString() // '{"a":1}'
 */
export function decodeContent(raw: Buffer, contentEncoding: string | undefined, max: number): Buffer {
  if (!contentEncoding || raw.length === 0) return raw;
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  let out = raw;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) {
      throw new WeirError('UNSUPPORTED_MEDIA_TYPE', `request Content-Encoding "${coding}" is not supported`, {
        hints: ['send the body as is, or encoded with gzip, deflate or br'],
      });
    }
    out = inflateBounded(decode, out, coding, max);
  }
  return out;
}

function inflateBounded(decode: Inflate, raw: Buffer, coding: string, max: number): Buffer {
  try {
    return decode(raw, { maxOutputLength: max });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(max);
    throw new WeirError('INVALID_INPUT', `request body is not valid ${coding} data: ${(err as Error).message}`);
  }
}
