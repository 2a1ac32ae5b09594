import type { Problem } from '../nodes/define.js';
import { isObject } from '../util/json.js';
import type { JsonSchema } from '../util/json-schema.js';

export const PARAM_TYPES = ['string', 'number', 'boolean', 'object', 'array'] as const;

/** One declared input of an interface-event or manual trigger. */
export interface InputParam {
  name: string;
  type: (typeof PARAM_TYPES)[number];
  required?: boolean;
}

/** The config of a trigger whose caller gives the input (`manual_trigger`, `interface_event_trigger`). */
export const INPUT_PARAMS_CONFIG: JsonSchema = {
  type: 'object',
  properties: {
    inputParams: {
      type: 'array',
      description: 'The inputs a caller must give; a call with one missing or of another type is refused before the flow runs',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The key in the input object' },
          type: { enum: [...PARAM_TYPES], description: `Its type: ${PARAM_TYPES.join(', ')}` },
          required: { type: 'boolean', description: 'true: a call without it is refused (default false)' },
        },
        required: ['name', 'type'],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

/** Save-time check of `inputParams` beyond {@link INPUT_PARAMS_CONFIG}: a name may not be missing or empty. */
export function validateInputParams(config: { inputParams?: unknown }): Problem[] {
  const params = config.inputParams;
  if (!Array.isArray(params)) return [];
  return params.flatMap((p, i) => (isObject(p) && (p.name === undefined || p.name === '') ? [{ path: `inputParams[${i}].name`, message: 'name is required' }] : []));
}

/**
 * The JSON schema of an input object that declared params accept: each param a property of its type, the
 * required ones `required`. Keys not declared are let through, as {@link checkInput} lets them through. This
 * is the schema a flow offers as a tool (`/mcp`, an agent node's `tools`).
 * @example
 * inputParamsSchema([{ name: 'email', type: 'string', required: true }])
 * // { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] }
 */
export function inputParamsSchema(params: InputParam[] | undefined): JsonSchema {
  const list = params ?? [];
  const required = list.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(list.map((p) => [p.name, { type: p.type }])),
    ...(required.length ? { required } : {}),
  };
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
