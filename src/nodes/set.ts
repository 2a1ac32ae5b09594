import { defineNode, type Problem } from './define.js';
import { objectField } from './fields.js';

/** `{"values": {...}}`; data = `values` with expressions resolved. */
export const setNode = defineNode<{ values: Record<string, unknown> }>({
  type: 'set',
  docs: {
    summary: "Outputs a fixed object, its strings' {{ }} expressions resolved",
    output: 'The `values` object with its expressions resolved',
    example: { values: { greeting: 'Hello {{ $input.name }}', source: 'weir' } },
  },
  config: {
    type: 'object',
    properties: { values: { type: 'object', description: 'The data this node outputs; its strings may hold {{ }} expressions' } },
    required: ['values'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    objectField(config, 'values', problems, true);
    return problems;
  },
  run: (ctx) => ctx.config.values,
});
