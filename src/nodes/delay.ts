import { sleep } from '../flow/policy.js';
import { defineNode, type Problem } from './define.js';
import { numberField } from './fields.js';

/** `{"ms": N}`; waits (cancellable), then passes its input on. */
export const delayNode = defineNode<{ ms: number }>({
  type: 'delay',
  docs: {
    summary: 'Waits in memory for a number of milliseconds (cancellable), then goes on',
    output: 'Its input, unchanged',
    example: { ms: 500 },
  },
  pure: true,
  config: {
    type: 'object',
    properties: { ms: { type: 'number', minimum: 0, description: 'How long to wait in milliseconds' } },
    required: ['ms'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    numberField(config, 'ms', problems, { min: 0, required: true });
    return problems;
  },
  async run(ctx) {
    const ms = Number(ctx.config.ms);
    if (!(ms >= 0)) throw new TypeError(`delay: "ms" must be a number >= 0, got ${JSON.stringify(ctx.config.ms)}`);
    await sleep(ms, ctx.signal);
    return ctx.input;
  },
});
