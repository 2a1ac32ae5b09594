import { defineNode, type Problem } from '../../nodes/define.js';

/** An HTTP request to the flow's token URL (`/trigger/<token>`; the token never changes). */
export const webhookTrigger = defineNode({
  type: 'webhook_trigger',
  docs: {
    summary: 'Starts the flow on an HTTP request to its webhook URL (/trigger/<token>): answers at once with a status URL, or waits for a Respond node',
    output: '`{ body, headers, query, method, rawBody }` of the request',
    example: { respondImmediately: false, responseTimeoutMs: 10000 },
  },
  trigger: true,
  config: {
    type: 'object',
    properties: {
      respondImmediately: {
        type: 'boolean',
        description: 'true (default): answer 200 {executionId, statusUrl} at once; false: answer with the first respond node, or the result',
      },
      responseTimeoutMs: { type: 'number', description: 'With respondImmediately false: how long the caller waits in milliseconds (default 30000)' },
      idempotencyHeader: { type: 'string', description: 'The header whose repeated value runs a delivery once (default Idempotency-Key)' },
      dedupeWindowMs: { type: 'number', description: 'How long such a value is remembered in milliseconds (default 24 h)' },
    },
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    for (const key of ['responseTimeoutMs', 'dedupeWindowMs']) {
      const v = config[key];
      if (v !== undefined && !(typeof v === 'number' && v > 0)) problems.push({ path: key, message: `"${key}" must be a positive number` });
    }
    return problems;
  },
});
