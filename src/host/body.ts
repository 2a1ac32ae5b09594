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
  if (raw.length === 0) return {};
  const type = mediaType(contentType);
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch (err) {
      throw new WeirError('INVALID_INPUT', `request body is not valid JSON: ${(err as Error).message}`);
    }
  }
  if (type === 'application/x-www-form-urlencoded') return parseForm(raw.toString('utf8'));
  return raw.toString('utf8');
}

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
