import type { WeirError } from '../errors.js';
import type { WeirBus } from '../events.js';
import type { ExecutionRecord } from '../flow/types.js';
import type { Executions } from '../resources/executions/index.js';

/** Where an awaited execution stops being awaited: it ended, or it waits (stored, for a time or a call). */
const SETTLED = new Set(['success', 'error', 'cancelled', 'waiting']);
/** How often an execution another process may run is read again, besides hearing of its end here. */
const RECHECK_MS = 1000;

/**
 * Resolves with an execution's record once it ended or waits; null when no record of it exists anywhere.
 * Aborting `signal` cancels the execution too (it is the awaiting one's child).
 */
export type AwaitExecution = (id: string, signal?: AbortSignal) => Promise<ExecutionRecord | null>;

/**
 * Waits for an execution started before a crash (a foreach item's sub-flow the host resumes on its own): its
 * record as soon as this process hears of its end, or reads it ended or waiting (it may run elsewhere); null at
 * once when nothing of it was stored, so its starter may run it again under the same id.
 * @example
 * const awaitExecution = createAwaitExecution({ bus, executions, cancel: (id) => weir.executions.cancel(id) })
 * const record = await awaitExecution('exec_2') // { status: 'success', result: ... }
 */
export function createAwaitExecution({ bus, executions, cancel }: { bus: WeirBus; executions: Pick<Executions, 'get'>; cancel(id: string): Promise<unknown> }): AwaitExecution {
  const read = (id: string) =>
    executions.get(id).catch((err) => {
      if ((err as WeirError).code === 'NOT_FOUND') return null;
      throw err;
    });
  return (id, signal) =>
    new Promise<ExecutionRecord | null>((resolve, reject) => {
      let settled = false;
      const done = (err: unknown, record?: ExecutionRecord | null) => {
        if (settled) return;
        settled = true;
        bus.off('execution:end', onEnd);
        clearInterval(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve(record ?? null);
      };
      const check = () =>
        read(id).then(
          (record) => {
            if (!record || SETTLED.has(record.status)) done(null, record);
          },
          (err) => done(err),
        );
      const onEnd = (event: unknown) => {
        if ((event as { executionId?: string }).executionId === id) void check();
      };
      const onAbort = () => {
        // A child that has ended meanwhile refuses the cancel: nothing to stop then.
        cancel(id).catch(() => {});
        done(signal!.reason);
      };
      // Heard before read: an end between the read and the subscription is not missed.
      bus.on('execution:end', onEnd);
      const timer = setInterval(check, RECHECK_MS);
      timer.unref?.();
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      void check();
    });
}
