import type { WeirBus } from '../../events.js';
import type { ExecutionRecord } from '../../flow/types.js';
import { ownerIsGone, type Executions } from '../../resources/executions/index.js';
import type { FlowRef } from '../../types/trigger.js';
import type { DispatchEvent } from './holds.js';

/** Options of {@link recoverQueued}. */
export interface RecoverOptions {
  executions: Pick<Executions, 'open' | 'endedAmong' | 'save'>;
  /** The flow a stored execution runs (its config snapshot); null when it is gone. */
  flowOf(record: ExecutionRecord): Promise<FlowRef | null>;
  /** Starts an execution again through the dispatcher (and so through admission, in arrival order). */
  run(event: DispatchEvent): Promise<{ status: string }>;
  bus: WeirBus;
}

const arrival = (a: ExecutionRecord, b: ExecutionRecord) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.id < b.id ? -1 : 1);

/**
 * Starts again the executions a dead process left `queued` by concurrency or rate limit (its places died with it): in arrival order,
 * through admission, so they queue again behind the rules. Those the intake journal restarts are left to it;
 * one whose run ended before the crash (its queued entry was not removed yet) is just forgotten; one whose
 * config is gone ends in `error`. Resolves with how many were started.
 * @example
 * await recoverQueued({ executions, flowOf: resumer.flowOf, run: (e) => dispatcher.run(e), bus })
 */
export async function recoverQueued({ executions, flowOf, run, bus }: RecoverOptions): Promise<number> {
  // A debounced burst's queued run is the debouncer's to start (src/runtime/debounce.ts).
  const entries = (await executions.open.list()).filter((e) => e.record.status === 'queued' && e.record.queuedFor?.rule !== 'debounce' && !e.by && ownerIsGone(e.owner));
  if (!entries.length) return 0;
  const records = entries.map((e) => e.record).sort(arrival);
  const ended = await executions.endedAmong(new Set(records.map((r) => r.id)), Date.parse(records[0].startedAt));
  const events: DispatchEvent[] = [];
  for (const record of records) {
    if (ended.has(record.id)) {
      await executions.open.remove(record.id);
      continue;
    }
    const flow = await flowOf(record);
    if (!flow) {
      const { queuedFor: _q, ...rest } = record;
      const error = { code: 'NOT_FOUND', message: 'the config this queued execution was to run is not stored' };
      await executions.save({ ...rest, status: 'error', error, finishedAt: new Date().toISOString() });
      await executions.open.remove(record.id);
      continue;
    }
    const real = await executions.open.real(record);
    events.push({ flow, trigger: real.trigger, input: real.input, executionId: real.id, background: true, opened: true });
  }
  // Handed over in order, all at once: admission lines them up as they come. The entry left by the dead
  // process is the run's to replace with its final record (`opened`), as a queued one's of this process is.
  for (const event of events) {
    run(event).catch((error) => bus.emit('execution:resume-error', { executionId: event.executionId, workflowId: event.flow.id, error }));
  }
  return events.length;
}
