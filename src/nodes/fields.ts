import type { Problem } from './define.js';

/** True for a string holding a `{{ }}` template: its type is only known when the node runs. */
export const isTemplate = (v: unknown): v is string => typeof v === 'string' && v.includes('{{');

/**
 * Save-time check of a numeric field that may also be a template; `required` refuses a missing value.
 * @example
 * numberField(config, 'ms', problems, { min: 0, required: true })
 */
export function numberField(
  config: Record<string, unknown>,
  key: string,
  problems: Problem[],
  { min = -Infinity, max = Infinity, integer = false, required = false } = {},
): void {
  const v = config[key];
  if (v === undefined) {
    if (required) problems.push({ path: key, message: `"${key}" is required` });
    return;
  }
  if (isTemplate(v)) return;
  if (typeof v !== 'number' || Number.isNaN(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
    const range = max === Infinity ? `>= ${min}` : `from ${min} to ${max}`;
    problems.push({ path: key, message: `"${key}" must be ${integer ? 'a whole number' : 'a number'} ${range}` });
  }
}

/** Save-time check of an object field (or a template giving one). */
export function objectField(config: Record<string, unknown>, key: string, problems: Problem[], required = false): void {
  const v = config[key];
  if (v === undefined) {
    if (required) problems.push({ path: key, message: `"${key}" is required` });
  } else if (!isTemplate(v) && (v === null || typeof v !== 'object' || Array.isArray(v))) {
    problems.push({ path: key, message: `"${key}" must be an object` });
  }
}
