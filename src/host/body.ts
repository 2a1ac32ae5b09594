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
