import type { IncomingMessage } from 'node:http';
import { WeirError, mediaType, tooLarge } from '../../src/internal.js';

/** A body taken from what an app's body parser left on the request. */
export interface ParsedBody {
  rawBody: Buffer;
  /** False when the bytes were rebuilt from a parsed value (a signature over them will not match). */
  exact: boolean;
  /** The request's headers, fitted to `rawBody` (decoded, its own length and, when rebuilt as JSON, type). */
  headers: Record<string, string>;
}

/** The fields body parsers set: `body` (express.json/text/raw/urlencoded) and `rawBody` (a `verify` hook, many frameworks). */
type ParsedRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

const JSON_TYPE = /^application\/(.+\+)?json$/;

/**
 * The body of a request whose stream a body parser mounted before weir already read (`express.json()`,
 * `bodyParser`, ...), or null when the stream is still there to read. The exact bytes are used when the
 * app kept them (`req.rawBody`, or `req.body` as a Buffer from `express.raw()`); else `req.body` is
 * written back: text as is, a flat form as a form, any other object as JSON. Nothing usable left is an
 * INVALID_CONFIG error naming the fix: waiting on a consumed stream would never end.
 * @example
 * const parsed = bodyLeftByParser(req, flatHeaders(req), maxBody)
 * const rawBody = parsed ? parsed.rawBody : await readBody(req, maxBody)
 */
export function bodyLeftByParser(req: ParsedRequest, headers: Record<string, string>, max: number): ParsedBody | null {
  if (!req.readableEnded && !req.destroyed) return null;
  const { rawBody, body } = req;
  const type = mediaType(headers['content-type']);
  let raw: Buffer;
  let exact = true;
  let contentType = headers['content-type'];
  if (Buffer.isBuffer(rawBody) || typeof rawBody === 'string') raw = Buffer.from(rawBody);
  else if (Buffer.isBuffer(body)) raw = body;
  else if (typeof body === 'string') {
    raw = Buffer.from(body);
    exact = false;
  } else if (body !== null && typeof body === 'object') {
    exact = false;
    const form = type === 'application/x-www-form-urlencoded' ? formText(body) : null;
    raw = Buffer.from(form ?? JSON.stringify(body));
    if (form === null && !JSON_TYPE.test(type)) contentType = 'application/json; charset=utf-8';
  } else {
    throw new WeirError('INVALID_CONFIG', 'the request body was already read by a body parser mounted before weir (express.json(), bodyParser, ...), which left nothing weir can use in req.body or req.rawBody', {
      hints: ['mount weir before the body parser, or keep the bytes: express.json({ verify: (req, res, buf) => { req.rawBody = buf } })'],
    });
  }
  if (raw.length > max) throw tooLarge(max);
  // The parser decoded the content coding; the flow sees headers that describe the body it gets.
  const { 'content-encoding': _coding, ...rest } = headers;
  const fitted: Record<string, string> = { ...rest, 'content-length': String(raw.length) };
  if (contentType !== undefined) fitted['content-type'] = contentType;
  return { rawBody: raw, exact, headers: fitted };
}

/** A form body again, when every value is a string or a list of strings (not `qs`'s nested objects). */
function formText(body: object): string | null {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    const list: unknown[] = Array.isArray(value) ? value : [value];
    if (!list.every((v) => typeof v === 'string')) return null;
    for (const v of list as string[]) form.append(key, v);
  }
  return form.toString();
}
