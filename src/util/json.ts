import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so equal values give equal text. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]))
      : v,
  );
}

/** A short content hash of a JSON value (key order does not matter). */
export const hashJson = (value: unknown): string =>
  createHash('sha256').update(stableStringify(value)).digest('hex').slice(0, 16);

/** True for a plain object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
