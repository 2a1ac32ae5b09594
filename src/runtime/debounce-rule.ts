import { WeirError } from '../errors.js';
import { toText, type Expressions } from '../expr/index.js';
import type { WorkflowSettings } from '../flow/settings.js';
import type { ExecutionRecord } from '../flow/types.js';
import type { TriggerEvent } from '../types/trigger.js';
import { parseDuration } from '../waits/duration.js';
import type { Burst } from './debounce-log.js';

/** A flow's `settings.debounce`, if it has one. */
export const debounceOf = (flow: TriggerEvent['flow']) => (flow.config as { settings?: WorkflowSettings }).settings?.debounce;

/** Whether a delivery is debounced: its flow has `settings.debounce` and it is one (a resumed or refused run is past its delivery). */
export const isDebounced = (event: TriggerEvent & { resume?: unknown }) => !event.resume && !event.refuse && debounceOf(event.flow) !== undefined;

/**
 * The times of `settings.debounce` in ms, and the value of its `key` for a delivery's input (null without a
 * key): the same on one host (src/runtime/debounce.ts) and on the queue (src/runtime/debounce-queue.ts). A key
 * that fails on an input refuses the delivery (INVALID_INPUT), for its caller to see.
 * @example
 * const rule = createDebounceRule(expressions)
 * rule.of({ period: '1s', key: '{{ $input.body.tenant }}' }, input) // { periodMs: 1000, maxWaitMs: Infinity, key: 't1' }
 */
export function createDebounceRule(expressions: Pick<Expressions, 'template'>) {
  return {
    of(settings: NonNullable<WorkflowSettings['debounce']>, input: unknown): { periodMs: number; maxWaitMs: number; key: string | null } {
      const periodMs = parseDuration(settings.period)!;
      const maxWaitMs = settings.maxWait ? parseDuration(settings.maxWait)! : Infinity;
      if (!settings.key) return { periodMs, maxWaitMs, key: null };
      let value: unknown;
      try {
        value = expressions.template(settings.key)?.({ input, node: {}, env: {} });
      } catch (err) {
        throw new WeirError('INVALID_INPUT', `settings.debounce.key (${settings.key}) failed on this input: ${(err as Error).message}`);
      }
      return { periodMs, maxWaitMs, key: toText(value) };
    },
  };
}

/** Between a slot's flow id and its key's value. */
const KEYED = '\u0000';

/** The slot of a flow's deliveries with a key's value (null: the flow has no key): deliveries of one slot join one burst. */
export const slotOf = (flowId: string, key: string | null): string => (key === null ? flowId : `${flowId}${KEYED}${key}`);

/**
 * The `queued` record that stands for a burst's run until it starts: its id, the last delivery's input, and
 * the key it waits under.
 * @example
 * queuedRecord(burst).queuedFor // { rule: 'debounce', key: 't1' }
 */
export const queuedRecord = (b: Burst): ExecutionRecord => ({
  id: b.runId, workflowId: b.flow.id, workflowName: b.flow.name, version: b.flow.version, status: 'queued', trigger: b.trigger,
  input: b.input, nodes: {}, result: null, startedAt: b.startedAt, finishedAt: null, hash: b.flow.hash,
  queuedFor: { rule: 'debounce', key: b.slot.includes(KEYED) ? b.slot.slice(b.slot.indexOf(KEYED) + 1) : null },
});
