import { isUtf8 } from 'node:buffer';
import { WeirError } from '../errors.js';
import { jsonSyntaxProblem } from '../util/json-syntax.js';
import type { DecodedBody } from '../types/trigger.js';
import type { HostRequest } from './types.js';
import { mediaType, parseForm } from './body.js';
import { charsetOf, decoderFor, isUtf8Decoder, parseFormIn } from './charset.js';
import { DEFAULT_MAX_BODY, decodeContent } from './content-coding.js';
import { parseMultipart } from './multipart.js';

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');
const isText = (type: string) => type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml');

/**
 * Decodes a request body the way every webhook sender expects: `Content-Encoding` undone within `max` bytes,
 * text (JSON, forms, `text/*`, XML) decoded in its declared charset and parsed, `multipart/form-data` split
 * into fields and files, and any other body kept as its bytes (`{contentType, size, base64}`), never decoded
 * lossily. A body without a Content-Type is text when it is valid UTF-8. An empty body is `{}`. Only a
 * multipart body needs a promise, so JSON intake stays synchronous.
 * @example
 * decodeBody({ contentType: 'application/json', raw: Buffer.from('{"a":1}') }) // { value: { a: 1 }, raw: '{"a":1}', json: true }
 */
export function decodeBody(o: { contentType?: string; contentEncoding?: string; raw: Buffer; max?: number }): DecodedBody | Promise<DecodedBody> {
  const bytes = decodeContent(o.raw, o.contentEncoding, o.max ?? DEFAULT_MAX_BODY);
  if (bytes.length === 0) return { value: {}, raw: '', json: false };
  const type = mediaType(o.contentType);
  if (isJson(type)) {
    const text = decoderFor(charsetOf(o.contentType))(bytes);
    try {
      return { value: JSON.parse(text), raw: text, json: true };
    } catch (err) {
      throw new WeirError('INVALID_INPUT', `request body is not valid JSON: ${jsonSyntaxProblem(text, err)}`);
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    const decode = decoderFor(charsetOf(o.contentType));
    const text = decode(bytes);
    return { value: isUtf8Decoder(decode) ? parseForm(text) : parseFormIn(bytes, decode), raw: text, json: false };
  }
  if (isText(type) || (type === '' && isUtf8(bytes))) {
    const text = decoderFor(charsetOf(o.contentType))(bytes);
    return { value: text, raw: text, json: false };
  }
  if (type === 'multipart/form-data') return parseMultipart(o.contentType!, bytes).then((value) => ({ value, raw: null, json: false }));
  return { value: { contentType: type || 'application/octet-stream', size: bytes.length, base64: bytes.toString('base64') }, raw: null, json: false };
}

/**
 * {@link decodeBody} of a host request, within the host's body limit; `contentType` overrides the request's.
 * @example
 * const decoded = requestBody(req)
 * const body = decoded instanceof Promise ? await decoded : decoded
 */
export function requestBody(req: HostRequest, contentType = req.headers['content-type']): DecodedBody | Promise<DecodedBody> {
  return decodeBody({ contentType, contentEncoding: req.headers['content-encoding'], raw: req.rawBody, max: req.maxBody });
}
