import { Suspend } from '../flow/suspend.js';
import { parseDuration } from '../waits/duration.js';
import { defineNode, type Problem } from './define.js';
import { isTemplate } from './fields.js';

/** The config of a wait node: exactly one of `for`, `until`, `webhook`. */
export interface WaitConfig {
  /** A duration: `500ms`, `30s`, `5m`, `2h`, `7d`. */
  for?: string;
  /** An ISO time, or an expression giving one. */
  until?: string;
  /** Wait for a call to `$execution.resumeUrl`. */
  webhook?: boolean;
  /** With `webhook`: fail with TIMEOUT when no call came within this duration. */
  timeout?: string;
}

const DURATION_HINT = 'a number and a unit: 500ms, 30s, 5m, 2h or 7d';
const KINDS = ['for', 'until', 'webhook'] as const;

function durationProblem(config: WaitConfig, key: 'for' | 'timeout', problems: Problem[]): void {
  const v = config[key];
  if (v !== undefined && !isTemplate(v) && parseDuration(v) === null) problems.push({ path: key, message: `"${key}" must be ${DURATION_HINT}, got ${JSON.stringify(v)}` });
}

function durationOf(config: WaitConfig, key: 'for' | 'timeout'): number {
  const ms = parseDuration(config[key]);
  if (ms === null) throw new TypeError(`wait: "${key}" must be ${DURATION_HINT}, got ${JSON.stringify(config[key])}`);
  return ms;
}

function timeOf(until: unknown): number {
  const at = until instanceof Date ? until.getTime() : typeof until === 'string' || typeof until === 'number' ? new Date(until).getTime() : NaN;
  if (Number.isNaN(at)) throw new TypeError(`wait: "until" must be an ISO time, got ${JSON.stringify(until)}`);
  return at;
}

/**
 * Makes the execution wait, stored rather than held in memory: `{"for": "5m"}`, `{"until": "<ISO time or
 * expression>"}`, or `{"webhook": true, "timeout": "2d"}` (until a call to `$execution.resumeUrl`; the
 * timeout fails the node with TIMEOUT). A time already past goes on at once. After a time wait the node's
 * data is its input; after a webhook wait it is the call's `{body, headers, query, method}`.
 * @example
 * { "id": "wait-1", "type": "wait", "config": { "webhook": true, "timeout": "2d" } }
 */
export const waitNode = defineNode<WaitConfig>({
  type: 'wait',
  docs: {
    summary: 'Makes the execution wait, stored rather than in memory: for a duration, until a time, or for a call to $execution.resumeUrl',
    output: "After a time wait its input; after a webhook wait the call's `{ body, headers, query, method }`",
    example: { webhook: true, timeout: '2d' },
  },
  config: {
    type: 'object',
    properties: {
      for: { type: 'string', description: `Wait this long: ${DURATION_HINT}` },
      until: { type: 'string', description: 'Wait until this ISO time (2026-12-01T09:00:00Z)' },
      webhook: { type: 'boolean', description: 'true: wait for a call to $execution.resumeUrl' },
      timeout: { type: 'string', description: `With webhook: fail with TIMEOUT when no call came within this long (${DURATION_HINT})` },
    },
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    const given = KINDS.filter((k) => config[k] !== undefined);
    if (given.length !== 1) {
      const message = given.length ? `give only one of "for", "until" and "webhook", got ${given.map((k) => `"${k}"`).join(' and ')}` : 'give one of "for", "until" or "webhook": true';
      problems.push({ path: given[1] ?? 'for', message });
      return problems;
    }
    durationProblem(config, 'for', problems);
    if (config.until !== undefined && !isTemplate(config.until) && (typeof config.until !== 'string' || Number.isNaN(Date.parse(config.until)))) {
      problems.push({ path: 'until', message: `"until" must be an ISO time (2026-12-01T09:00:00Z) or an expression, got ${JSON.stringify(config.until)}` });
    }
    if (config.webhook !== undefined && config.webhook !== true) problems.push({ path: 'webhook', message: '"webhook" must be true' });
    if (config.timeout !== undefined && config.webhook === undefined) problems.push({ path: 'timeout', message: '"timeout" goes with "webhook": true' });
    durationProblem(config, 'timeout', problems);
    return problems;
  },
  run(ctx) {
    const config = ctx.config;
    const now = Date.now();
    if (config.webhook) {
      const timeout = config.timeout === undefined ? undefined : durationOf(config, 'timeout');
      return new Suspend({ kind: 'webhook', ...(timeout === undefined ? {} : { timeoutAt: new Date(now + timeout).toISOString() }) });
    }
    const at = config.for !== undefined ? now + durationOf(config, 'for') : timeOf(config.until);
    if (at <= now) return ctx.input;
    return new Suspend({ kind: 'time', until: new Date(at).toISOString() });
  },
});
