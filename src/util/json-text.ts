/**
 * JSON texts that are known for values, so code that serializes such a value can reuse the text: a webhook
 * input whose body arrived as JSON is written into its execution record (and the journal) from the
 * request's own text instead of being serialized again. Weak: an entry lives as long as its value. The
 * text must parse to the value as it was when remembered (a value changed afterwards no longer matches).
 * @example
 * rememberJsonText(input, text)
 * jsonTextOf(input) // text
 */
const texts = new WeakMap<object, string>();

/** Remembers `text` as the JSON of `value`. */
export function rememberJsonText(value: object, text: string): void {
  texts.set(value, text);
}

/** The JSON text remembered for `value`, if any. */
export function jsonTextOf(value: unknown): string | undefined {
  return value !== null && typeof value === 'object' ? texts.get(value) : undefined;
}
