import type { JsonSchema } from '../../util/json-schema.js';

/** A reference to a shared schema of the OpenAPI document. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const string: JsonSchema = { type: 'string' };
export const time: JsonSchema = { type: 'string', format: 'date-time' };
export const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });
/** Any JSON value (a flow's input, result, node data). */
export const anyValue: JsonSchema = {};

/** The error document of every failure, and one of its problems. */
export const errorSchemas = {
  Error: {
    type: 'object',
    description: 'Every failure: a stable code, a message, for validation failures each problem in `details`, and what to do next in `hints`.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: string, message: string, details: anyValue, hints: { type: 'array', items: string } },
      },
    },
  },
  Problem: {
    type: 'object',
    description: 'One validation problem: where (`body.input`, `query.limit`, `nodes[1].type`) and what.',
    required: ['path', 'message'],
    properties: { path: string, message: string },
  },
} satisfies Record<string, JsonSchema>;
