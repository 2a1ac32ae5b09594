import { WeirError } from '../errors.js';
import type { Scope } from '../expr/index.js';
import { check, defineNode, type NodeContext, type Problem } from './define.js';
import { service } from './resources/common.js';
import { runSubFlows } from './foreach-sub-flows.js';

/** More items than this fail the node before anything runs, unless its `maxItems` says otherwise. */
export const DEFAULT_MAX_ITEMS = 100_000;

/** The config of a foreach node: `items`, and either `map` or a sub-flow `flow` with its options. */
export interface ForeachConfig {
  /** An expression giving the array to go over. */
  items: unknown;
  /** A value with expressions over `$item` and `$index`, resolved once per item. */
  map?: unknown;
  /** The published flow (name or id) run per item with `{item, index}`. */
  flow?: string;
  /** Sub-flow runs at once (default 1). */
  parallelism?: number;
  /** Items per sub-flow run, given as `{items, index}` (default 1: one run per item). */
  batchSize?: number;
  /** A failed run: `stop` fails the node (default), `continue` puts `{error}` in its items' places. */
  onItemError?: 'stop' | 'continue';
  maxItems?: number;
}

const SUB_FLOW_KEYS = ['parallelism', 'batchSize', 'onItemError'] as const;
/** How many sub-flow runs one foreach may keep going at once. */
export const MAX_PARALLELISM = 256;

const integerAtLeast = (min: number, description: string) => ({ type: 'integer', minimum: min, description });

/**
 * `{"items": "{{ expr }}", "map": <value over $item and $index>}` or `{"items", "flow": "<published flow>",
 * "parallelism", "batchSize", "onItemError"}`: goes over the items of an array; data = one entry per item, in
 * item order. A sub-flow runs once per item with `{item, index}` (or per batch with `{items, index}`), each run
 * its own execution listed in this one's `children`; each run's result is a checkpoint, so after a crash the
 * items that ended are not run again. More than `maxItems` items (default 100,000) fail the node before
 * anything runs.
 * @example
 * { "id": "foreach-1", "type": "foreach", "config": { "items": "{{ $input.orders }}", "flow": "charge-order", "parallelism": 8, "onItemError": "continue" } }
 */
export const foreachNode = defineNode<ForeachConfig>({
  type: 'foreach',
  category: 'flow control',
  docs: {
    summary: 'Goes over the items of an array: maps each with expressions over $item and $index, or runs a published flow per item',
    output: "An array with one entry per item, in item order: what `map` made of it, or its sub-flow run's result (`{error}` for a failed one under onItemError continue)",
    example: { items: '{{ $input.orders }}', map: { id: '{{ $item.id }}', position: '{{ $index }}' } },
  },
  deferredKeys: ['map'],
  config: {
    type: 'object',
    properties: {
      items: { description: 'The array to go over: an expression such as "{{ $input.orders }}"' },
      map: { description: 'What each item becomes: a value with expressions over $item (the item) and $index (its position)' },
      flow: { type: 'string', description: 'Instead of map: the name or id of a published flow run once per item with input {item, index}' },
      parallelism: { ...integerAtLeast(1, 'With flow: how many runs go at once (default 1)'), maximum: MAX_PARALLELISM },
      batchSize: integerAtLeast(1, 'With flow: items per run, given as {items, index} (index of the first); its result must be an array of one entry per item (default 1)'),
      onItemError: { enum: ['stop', 'continue'], description: 'With flow: "stop" (default) fails the node when a run fails, starting no more; "continue" puts {error} in its items\' places' },
      maxItems: integerAtLeast(1, `More items than this fail the node before anything runs (default ${DEFAULT_MAX_ITEMS})`),
    },
    required: ['items'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    check.required(config as unknown as Record<string, unknown>, 'items', problems, 'any');
    if (config.map === undefined && config.flow === undefined) problems.push({ path: 'map', message: 'give "map" (what each item becomes, with $item and $index) or "flow" (a published flow run per item)' });
    if (config.map !== undefined && config.flow !== undefined) problems.push({ path: 'flow', message: 'give "map" or "flow", not both' });
    if (config.flow !== undefined && (typeof config.flow !== 'string' || !config.flow.trim())) problems.push({ path: 'flow', message: '"flow" must be the name or id of a published flow' });
    if (config.flow === undefined) {
      for (const key of SUB_FLOW_KEYS) if (config[key] !== undefined) problems.push({ path: key, message: `"${key}" goes with "flow"` });
    }
    return problems;
  },
  run(ctx) {
    const items = itemsOf(ctx);
    const { flow, parallelism = 1, batchSize = 1, onItemError = 'stop' } = ctx.config;
    if (flow === undefined) return mapItems(ctx, items);
    return runSubFlows(ctx, items, { flow, parallelism: whole(parallelism, 'parallelism', MAX_PARALLELISM), batchSize: whole(batchSize, 'batchSize'), onItemError: oneOf(onItemError) });
  },
});

/** The items the node goes over: an array of at most `maxItems`, else the node fails before anything runs. */
function itemsOf(ctx: NodeContext<ForeachConfig>): unknown[] {
  const { items, maxItems = DEFAULT_MAX_ITEMS } = ctx.config;
  if (!Array.isArray(items)) {
    const what = items === null ? 'null' : items === undefined ? 'undefined (does the expression name a missing field?)' : typeof items;
    throw new WeirError('INVALID_INPUT', `foreach: "items" must be an array, got ${what}`);
  }
  if (items.length > whole(maxItems, 'maxItems')) {
    throw new WeirError('RULE', `foreach: ${items.length} items are more than maxItems (${maxItems}); nothing ran`, { hints: ['raise "maxItems" on the node, or split the list'] });
  }
  return items;
}

/** A count from the config (an expression may give it): a whole number from 1 to `max`. */
function whole(value: unknown, key: string, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new WeirError('INVALID_INPUT', `foreach: "${key}" must be a whole number from 1${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function oneOf(onItemError: unknown): 'stop' | 'continue' {
  if (onItemError === 'stop' || onItemError === 'continue') return onItemError;
  throw new WeirError('INVALID_INPUT', `foreach: "onItemError" must be "stop" or "continue", got ${JSON.stringify(onItemError)}`);
}

/** Each item through `map`, its templates compiled once for the run and evaluated in one scope per item. */
function mapItems(ctx: NodeContext<ForeachConfig>, items: unknown[]): unknown[] {
  const { map } = ctx.config;
  const render = service(ctx, 'expressions').compileValue(map);
  if (!render) return items.map(() => map);
  const { execution } = ctx;
  // One scope, moved from item to item: a scope object per item would cost as much as the evaluation.
  const scope: Scope = { input: execution.input, node: execution.nodes, env: ctx.env, execution: execution.variables, item: undefined, index: 0 };
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) {
    scope.item = items[i];
    scope.index = i;
    out[i] = render(scope);
  }
  return out;
}
