/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  if (!contentType) return '';
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** `a=1&a=2&b=x` -> `{ a: ['1', '2'], b: 'x' }`, an object without a prototype (see {@link addValue}). */
export function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [key, value] of new URLSearchParams(text)) addValue(out, key, value);
  return out;
}

/**
 * Adds a value under a key, turning a repeated key into an array (query strings, forms and multipart fields
 * alike). `target` has no prototype (`Object.create(null)`): on an ordinary object `constructor` would read
 * as a function and `__proto__` would replace the prototype instead of holding the value.
 */
export function addValue<V>(target: Record<string, V | V[]>, key: string, value: V): void {
  const prev = target[key];
  if (prev === undefined) target[key] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else target[key] = [prev, value];
}

/**
 * Splits a request target into the path, its query object (a repeated key becomes an array) and the query text.
 * @example
 * splitUrl('/trigger/t?a=1&a=2') // { path: '/trigger/t', query: { a: ['1', '2'] }, rawQuery: 'a=1&a=2' }
 */
export function splitUrl(url: string): { path: string; query: Record<string, string | string[]>; rawQuery: string } {
  const q = url.indexOf('?');
  // Without a prototype, keys such as `constructor` or `__proto__` are plain keys like any other.
  const query: Record<string, string | string[]> = Object.create(null);
  if (q < 0) return { path: url, query, rawQuery: '' };
  const rawQuery = url.slice(q + 1);
  for (const [k, v] of new URLSearchParams(rawQuery)) addValue(query, k, v);
  return { path: url.slice(0, q), query, rawQuery };
}
