import type { Evaluate, Expressions } from '../../expr/index.js';
import { toText } from '../../expr/index.js';
import type { WorkflowConfig } from '../../resources/workflows/types.js';
import { parseDuration } from '../../waits/duration.js';

/** Which setting holds an execution back: what a queued record's `queuedFor.rule` names. */
export type RuleName = 'concurrency' | 'rateLimit';

/** A flow's admission rule, ready to apply: its bound, its window (rate limit) and its compiled key. */
export interface Rule {
  name: RuleName;
  limit: number;
  /** The rate limit's period in ms (0 for concurrency). */
  periodMs: number;
  /** The key expression compiled; null when the rule holds for the flow as a whole. */
  key: Evaluate | null;
}

/** The rules of a config, in the order an execution passes them: concurrency, then rate limit. */
export type Rules = readonly Rule[];

const NONE: Rules = [];
// A key sees `$input` only: the nodes have not run, and `$env` is not the key's to read.
const NONE_NODE = Object.freeze({});
const NONE_ENV = Object.freeze({});

/**
 * The admission rules of flow configs, compiled once per config object (a published copy is one object
 * until it is published again), so a flow without them costs a property read and a map lookup.
 * @example
 * const rulesOf = createRules(expressions)
 * rulesOf(flow.config) // [{ name: 'concurrency', limit: 2, periodMs: 0, key: <compiled> }]
 */
export function createRules(expressions: Pick<Expressions, 'template'>): (config: WorkflowConfig) => Rules {
  const compiled = new WeakMap<WorkflowConfig, Rules>();
  const keyOf = (text: string | undefined) => (text === undefined ? null : expressions.template(text));
  return (config) => {
    const { settings } = config;
    if (!settings || (!settings.concurrency && !settings.rateLimit)) return NONE;
    let rules = compiled.get(config);
    if (rules) return rules;
    const list: Rule[] = [];
    const { concurrency, rateLimit } = settings;
    if (concurrency) list.push({ name: 'concurrency', limit: concurrency.limit, periodMs: 0, key: keyOf(concurrency.key) });
    if (rateLimit) list.push({ name: 'rateLimit', limit: rateLimit.limit, periodMs: parseDuration(rateLimit.period) ?? 0, key: keyOf(rateLimit.key) });
    rules = list;
    compiled.set(config, rules);
    return rules;
  };
}

/**
 * The value of a rule's key for an execution's trigger input, as text (null without a key). A key that
 * fails to evaluate, or comes out empty, is its own value: such executions share one line rather than
 * escaping the rule.
 */
export function keyValue(rule: Rule, input: unknown): string | null {
  if (!rule.key) return null;
  try {
    const value = rule.key({ input, node: NONE_NODE, env: NONE_ENV });
    return value === undefined || value === null ? '' : toText(value);
  } catch {
    return '';
  }
}
