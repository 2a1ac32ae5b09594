import { toNumber, toText } from './values.js';

/** The named functions of the expression grammar, with their arity. Nothing else is callable. */
export const FUNCTIONS = {
  /** JSON text of a value (`json($input)`); an optional indent. */
  json: { min: 1, max: 2, fn: (v: unknown, indent?: unknown) => JSON.stringify(v, null, typeof indent === 'number' ? indent : undefined) },
  lower: { min: 1, max: 1, fn: (v: unknown) => toText(v).toLowerCase() },
  upper: { min: 1, max: 1, fn: (v: unknown) => toText(v).toUpperCase() },
  trim: { min: 1, max: 1, fn: (v: unknown) => toText(v).trim() },
  /** Characters of a string, items of an array, keys of an object; 0 otherwise. */
  length: {
    min: 1,
    max: 1,
    fn: (v: unknown) => (typeof v === 'string' || Array.isArray(v) ? v.length : v && typeof v === 'object' ? Object.keys(v).length : 0),
  },
  string: { min: 1, max: 1, fn: (v: unknown) => toText(v) },
  /** A number (`number('42')` is 42); `''`, objects and undefined give NaN. */
  number: { min: 1, max: 1, fn: (v: unknown) => toNumber(v) },
} as const satisfies Record<string, { min: number; max: number; fn: (...args: any[]) => unknown }>;
