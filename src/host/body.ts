import { WeirError } from '../errors.js';

/**
 * A request body as a flow sees it (CONTRACT 5): JSON types parsed, form-urlencoded turned into an
 * object (a repeated key becomes an array), anything else kept as text, an empty body `{}`.
 * Invalid JSON is an INVALID_INPUT error (400) naming the problem.
 * @example
 * parseBody('application/json; charset=utf-8', Buffer.from('{"a":1}')) // { a: 1 }
 * parseBody('application/x-www-form-urlencoded', Buffer.from('a=1&a=2&b=x')) // { a: ['1', '2'], b: 'x' }
 */
export function parseBody(contentType: string | undefined, raw: Buffer): unknown {
  return parseBodyWithJson(contentType, raw).value;
}

/**
 * {@link parseBody}, with the body's JSON text when the request sent JSON: the request's own text, line
 * breaks (whitespace between tokens in valid JSON) turned into spaces, so a journal can store it on one line
 * without serializing the parsed value again.
 * @example
 * parseBodyWithJson('application/json', Buffer.from('{\n"a":1}')) // { value: { a: 1 }, json: '{ "a":1}' }
 */
export function parseBodyWithJson(contentType: string | undefined, raw: Buffer): { value: unknown; json?: string } {
  if (raw.length === 0) return { value: {}, json: '{}' };
  const type = mediaType(contentType);
  const text = raw.toString('utf8');
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return { value: JSON.parse(text), json: LINE_BREAK.test(text) ? text.replace(LINE_BREAKS, ' ') : text };
    } catch (err) {
      throw new WeirError('INVALID_INPUT', `request body is not valid JSON: ${(err as Error).message}`);
    }
  }
  if (type === 'application/x-www-form-urlencoded') return { value: parseForm(text) };
  return { value: text };
}

const LINE_BREAK = /[\r\n]/;
const LINE_BREAKS = /[\r\n]/g;

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  if (!contentType) return '';
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** `a=1&a=2&b=x` -> `{ a: ['1', '2'], b: 'x' }`. */
export function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) addValue(out, key, value);
  return { ...out };
}

/** Adds a value under a key, turning a repeated key into an array (query strings and forms alike). */
export function addValue(target: Record<string, string | string[]>, key: string, value: string): void {
  const prev = target[key];
  if (prev === undefined) target[key] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else target[key] = [prev, value];
}
