import type { Expressions } from '../expr/index.js';
import type { ExecutionRecord, Masker } from '../flow/types.js';
import type { ExecutionQueue } from '../queue/index.js';
import { WeirError } from '../errors.js';
import { newExecutionId, startTimeOf } from '../resources/executions/ids.js';
import type { Executions } from '../resources/executions/index.js';
import { sealedOf, withSealed } from '../resources/executions/stored.js';
import type { Debouncer } from './debounce.js';
import { createDebounceRule, debounceOf, isDebounced } from './debounce-rule.js';

/** Options of {@link createQueueDebouncer}. */
export interface QueueDebouncerOptions {
  queue: Pick<ExecutionQueue, 'debounce'>;
  executions: Pick<Executions, 'open' | 'save' | 'get'>;
  /** Masks the secrets in what a delivery stores (its record, and the input its burst may run with). */
  masker(): Promise<Masker>;
  expressions: Pick<Expressions, 'template'>;
}

/**
 * `settings.debounce` (CONTRACT 20) on a host of the execution queue (section 13): the burst of a flow's key
 * is one for every host, in Redis (src/queue/bursts.ts), and its run a delayed job any worker takes once the
 * burst is quiet for `period` (or `maxWait` passed). Nothing is held in this process: a host killed with a
 * burst pending loses none of it. The records are those of one host's bursts: the run, stored `queued` by
 * its first delivery (listed and cancelled from any host), and a `debounced` record, linked to the run, for
 * every other delivery. What a delivery stores is masked; the input its run may take rides in the burst
 * masked too, its real value sealed beside it, and is unsealed by the worker that runs it.
 * @example
 * const debouncer = createQueueDebouncer({ queue, executions, masker, expressions })
 * await debouncer.deliver({ flow, trigger: 'webhook', input }) // { id: 'exec_…', status: 'queued' }
 */
export function createQueueDebouncer(options: QueueDebouncerOptions): Debouncer {
  const { queue, executions } = options;
  const rule = createDebounceRule(options.expressions);
  return {
    applies: isDebounced,

    async deliver(event) {
      const { periodMs, maxWaitMs, key } = rule.of(debounceOf(event.flow)!, event.input);
      // An id made elsewhere (an idempotency key's) may come again, to another host: once delivered, it stays
      // what it became rather than join the burst a second time with an older input.
      if (event.executionId && startTimeOf(event.executionId) === null) {
        const seen = await executions.get(event.executionId).catch((err) => (err instanceof WeirError && err.code === 'NOT_FOUND' ? null : Promise.reject(err)));
        if (seen) return { id: seen.id, status: seen.status, ...(seen.debouncedInto ? { debouncedInto: seen.debouncedInto } : {}) };
      }
      const { flow } = event;
      const at = new Date().toISOString();
      const record: ExecutionRecord = {
        id: event.executionId ?? newExecutionId(), workflowId: flow.id, workflowName: flow.name, version: flow.version ?? null, status: 'queued',
        queuedFor: { rule: 'debounce', key }, trigger: event.trigger, input: event.input, nodes: {}, result: null, startedAt: at, finishedAt: null,
        ...(flow.hash ? { hash: flow.hash } : {}),
      };
      // Masked once: the stored record and the burst's data share the masked input and its sealed real value.
      const shown = executions.open.masked(record, await options.masker());
      const sealed = sealedOf(shown);
      const workflow = { id: flow.id, name: flow.name, version: flow.version, config: flow.config, hash: flow.hash };
      const delivery = { record: shown, sealed, workflow, key, periodMs, maxWaitMs: Number.isFinite(maxWaitMs) ? maxWaitMs : -1 };
      const { runId, lead } = await queue.debounce(delivery, async ({ runId, lead }) => {
        // The run's record says where it stands (the queue restarts it, no host's recovery); the others are done.
        if (lead) return executions.open.put(withSealed({ ...shown }, sealed), 'queue');
        const { queuedFor: _queuedFor, ...rest } = shown;
        await executions.save(withSealed({ ...rest, status: 'debounced', finishedAt: at, debouncedInto: runId }, sealed), { linger: true });
      });
      return lead ? { id: record.id, status: 'queued' } : { id: record.id, status: 'debounced', debouncedInto: runId };
    },

    start: async () => 0,
    stop: async () => {},
  };
}
