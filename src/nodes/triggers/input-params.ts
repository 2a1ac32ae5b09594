import type { Problem } from '../define.js';

export const PARAM_TYPES = ['string', 'number', 'boolean', 'object', 'array'] as const;

/** One declared input of an interface-event or manual trigger. */
export interface InputParam {
  name: string;
  type: (typeof PARAM_TYPES)[number];
  required?: boolean;
}

/** Save-time check of `inputParams`. */
export function validateInputParams(config: { inputParams?: unknown }): Problem[] {
  const params = config.inputParams;
  if (params === undefined) return [];
  if (!Array.isArray(params)) return [{ path: 'inputParams', message: '"inputParams" must be an array' }];
  const problems: Problem[] = [];
  params.forEach((p, i) => {
    const at = `inputParams[${i}]`;
    if (!p || typeof p !== 'object') return problems.push({ path: at, message: 'must be an object' });
    if (typeof p.name !== 'string' || !p.name) problems.push({ path: `${at}.name`, message: 'name is required' });
    if (!PARAM_TYPES.includes(p.type)) {
      problems.push({ path: `${at}.type`, message: `type must be one of ${PARAM_TYPES.join(', ')}` });
    }
    if (p.required !== undefined && typeof p.required !== 'boolean') {
      problems.push({ path: `${at}.required`, message: 'required must be a boolean' });
    }
  });
  return problems;
}

/** Checks an input object against declared params; returns one message per problem. */
export function checkInput(params: InputParam[] | undefined, input: unknown): string[] {
  if (!params?.length) return [];
  const obj = (input && typeof input === 'object' && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  const problems: string[] = [];
  for (const p of params) {
    const v = obj[p.name];
    if (v === undefined || v === null) {
      if (p.required) problems.push(`"${p.name}" is required`);
      continue;
    }
    const actual = Array.isArray(v) ? 'array' : typeof v;
    if (actual !== p.type) problems.push(`"${p.name}" must be ${p.type === 'array' || p.type === 'object' ? 'an' : 'a'} ${p.type}, got ${actual}`);
  }
  return problems;
}
