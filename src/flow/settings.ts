import type { Problem } from '../types/problem.js';
import { validateSchema, type JsonSchema } from '../util/json-schema.js';
import { didYouMean } from '../util/nearest.js';
import { parseDuration } from '../waits/duration.js';

/**
 * A flow's `settings` (CONTRACT 15 and 20): what happens around its executions rather than in them. Each key
 * is optional; a `key` is a `{{ }}` expression over the trigger input (`$input`), evaluated when an execution
 * arrives, that splits the rule per value (one queue per tenant, say).
 */
export interface WorkflowSettings {
  /** The flow (name or id, its published copy, trigger `error_trigger`) run when an execution of this one ends in `error`. */
  errorFlow?: string;
  /** At most `limit` executions running at once (per `key` value); the rest wait `queued`, in arrival order. */
  concurrency?: { limit: number; key?: string };
  /** At most `limit` executions start per `period` (a duration) per key; the rest wait `queued`, in order. */
  rateLimit?: { limit: number; period: string; key?: string };
  /** Deliveries within `period` of the last one for a key collapse into one execution with the last input; `maxWait` bounds the delay. */
  debounce?: { period: string; key?: string; maxWait?: string };
  /** `true`: `weir serve` offers the published flow as a tool at `/mcp` (MCP streamable HTTP, behind the host token). */
  mcp?: boolean;
}

const DURATION = { type: 'string', pattern: '^[0-9]+(ms|s|m|h|d)$', description: 'A duration: 500ms, 30s, 5m, 2h, 7d' } as const;
const KEY = { type: 'string', description: 'A {{ }} expression over $input: the rule holds per value of it' } as const;
const LIMIT = { type: 'integer', minimum: 1 } as const;

/** The JSON schema of `settings`: in the workflow schema, and what save checks a config's `settings` against. */
export const SETTINGS_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'What happens around the executions of this flow: error flow, concurrency, rate limit, debounce, MCP tool',
  properties: {
    errorFlow: { type: 'string', description: 'The published flow (name or id, trigger error_trigger) run when an execution of this flow ends in error' },
    concurrency: {
      type: 'object',
      description: 'At most `limit` executions at once (per `key` value); the others wait queued, in arrival order',
      properties: { limit: { ...LIMIT, description: 'Executions running at once' }, key: KEY },
      required: ['limit'],
      additionalProperties: false,
    },
    rateLimit: {
      type: 'object',
      description: 'At most `limit` executions start per `period` (per `key` value); the others wait queued, in order',
      properties: { limit: { ...LIMIT, description: 'Starts per period' }, period: DURATION, key: KEY },
      required: ['limit', 'period'],
      additionalProperties: false,
    },
    debounce: {
      type: 'object',
      description: 'Deliveries within `period` of the last one (per `key` value) collapse into one execution with the last input',
      properties: { period: DURATION, key: KEY, maxWait: { ...DURATION, description: 'The longest a delivery waits for quiet: it runs then' } },
      required: ['period'],
      additionalProperties: false,
    },
    mcp: { type: 'boolean', description: 'true: `weir serve` offers the published flow as a tool at /mcp (MCP streamable HTTP, host token); its inputParams are the tool\'s input schema' },
  },
  additionalProperties: false,
};

const get = (value: unknown, path: string): unknown => path.split('.').reduce((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);

/** Save-time problems of a config's `settings` (paths under `settings`). */
export function settingsProblems(settings: unknown): Problem[] {
  const problems: Problem[] = validateSchema(settings, SETTINGS_SCHEMA, {
    unknownKey: (key, known) => `unknown key "${key}"${didYouMean(key, known) || `; the keys here are ${known.map((k) => `"${k}"`).join(', ')}`}`,
  }).map((p) => {
    const path = p.path ? `settings.${p.path}` : 'settings';
    // A duration's pattern is for editors; people are told what a duration looks like.
    const duration = /^(period|maxWait)$/.test(p.path.split('.').at(-1)!) && p.message.includes('does not match');
    return { path, message: `${path}: ${duration ? `${JSON.stringify(get(settings, p.path))} is not a duration (500ms, 30s, 5m, 2h, 7d)` : p.message}` };
  });
  if (problems.length) return problems;
  const s = settings as WorkflowSettings;
  for (const [rule, key] of [['concurrency', s.concurrency?.key], ['rateLimit', s.rateLimit?.key], ['debounce', s.debounce?.key]] as const) {
    if (key !== undefined && !key.includes('{{')) problems.push({ path: `settings.${rule}.key`, message: `settings.${rule}.key must be a {{ }} expression over $input, e.g. "{{ $input.body.tenant }}"` });
  }
  const { debounce } = s;
  if (debounce?.maxWait !== undefined && parseDuration(debounce.maxWait)! < parseDuration(debounce.period)!) {
    problems.push({ path: 'settings.debounce.maxWait', message: `settings.debounce.maxWait (${debounce.maxWait}) must be at least its period (${debounce.period})` });
  }
  return problems;
}
