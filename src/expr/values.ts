/** Names that lead to prototypes and constructors: refused as keys everywhere. */
export const FORBIDDEN_KEYS = new Set(['constructor', '__proto__', 'prototype']);

/**
 * Reads `key` of `value` the only way expressions can: own properties of objects and arrays, and the length
 * or a character of a string. Prototypes, getters inherited from them and functions are never reached.
 */
export function getKey(value: unknown, key: string | number): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'object') return Object.hasOwn(value, key) ? (value as Record<string | number, unknown>)[key] : undefined;
  if (typeof value === 'string') {
    if (key === 'length') return value.length;
    const i = typeof key === 'number' ? key : /^\d+$/.test(key) ? Number(key) : -1;
    return i >= 0 && i < value.length ? value[i] : undefined;
  }
  return undefined;
}

/** A computed key (`list[$input.i]`): only strings and numbers, and never a forbidden name. */
export function getDynamicKey(value: unknown, key: unknown): unknown {
  if (typeof key === 'number') return getKey(value, key);
  if (typeof key !== 'string' || FORBIDDEN_KEYS.has(key)) return undefined;
  return getKey(value, key);
}

/** How a value reads inside text: strings as is, nothing for undefined/null, objects as JSON. */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value) ?? '';
  return String(value);
}

/** A number without calling anything on the value (no valueOf/toString of objects). */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.trim() === '' ? NaN : Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value === null ? 0 : NaN;
}
