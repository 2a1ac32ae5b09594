import { isObject } from '../util/json.js';
import type { Outcome } from '../flow/types.js';
import { defineNode, type Problem } from './define.js';
import { numberField, objectField } from './fields.js';

/**
 * `{"status": 200, "body": ..., "headers": {...}}`. Answers the waiting webhook caller or
 * interface call (the first Respond node to run wins) and makes `body` the flow's result.
 */
export const respondNode = defineNode<{ status?: number; body?: unknown; headers?: Record<string, unknown> }>({
  type: 'respond',
  docs: {
    summary: "Answers the waiting webhook or interface caller (the first Respond node wins) and sets the flow's result",
    output: "The answer `{ status, body, headers }`; its body is the flow's result",
    example: { status: 201, body: { ok: true, id: '{{ $execution.id }}' }, headers: { 'x-source': 'weir' } },
  },
  config: {
    type: 'object',
    properties: {
      status: { type: 'integer', minimum: 100, description: 'The HTTP status of the answer, 100 to 599 (default 200)' },
      body: { description: "The answer's body, and the flow's result" },
      headers: { type: 'object', description: 'Headers of the answer (names are sent in lower case)' },
    },
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    numberField(config, 'status', problems, { min: 100, max: 599, integer: true });
    objectField(config, 'headers', problems);
    return problems;
  },
  run(ctx) {
    const { status = 200, body = null, headers } = ctx.config;
    const code = Number(status);
    if (!Number.isInteger(code) || code < 100 || code > 599) throw new TypeError(`respond: "status" must be an HTTP status, got ${JSON.stringify(status)}`);
    const answer: Outcome = { status: code, body };
    if (isObject(headers)) answer.headers = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    ctx.execution.respond(answer);
    return answer;
  },
});
