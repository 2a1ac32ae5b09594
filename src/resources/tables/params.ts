import { WeirError } from '../../errors.js';
import { isObject } from '../../util/json.js';

/** Parameters as SQL can bind them: booleans as 1/0, objects as JSON text. */
export const bindable = (params: unknown): unknown[] | Record<string, unknown> => {
  const one = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v === undefined ? null : v !== null && typeof v === 'object' && !(v instanceof Uint8Array) ? JSON.stringify(v) : v);
  if (params === undefined || params === null) return [];
  if (Array.isArray(params)) return params.map(one);
  if (isObject(params)) return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, one(v)]));
  throw new WeirError('INVALID_INPUT', 'SQL parameters must be a JSON array (for ?) or object (for :name)');
};
