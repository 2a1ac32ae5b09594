import type { ExecutionRecord, RunState } from './types.js';

/** The executions running in this process, by id: what a cancel of one of them reaches. */
export interface RunningExecutions {
  /** `execution:start` hook: registers the run. */
  start(run: RunState): void;
  /** `execution:end` hook (after persistence): forgets the run and tells those who cancelled it. */
  end(run: RunState): void;
  /** Cancels a run of this process; resolves with its final record once stored, or null when none runs here. */
  cancel(id: string): Promise<ExecutionRecord> | null;
}

/**
 * A registry of this process's runs. `onBusy(true)` is called when the first run starts and `onBusy(false)`
 * when the last one ends, so a watch for cancel requests runs only while there is something to cancel.
 * @example
 * const running = createRunningExecutions({ onBusy: (busy) => watch.busy(busy) })
 * hooks['execution:start'].push(running.start)
 * hooks['execution:end'].push(running.end)
 */
export function createRunningExecutions({ onBusy }: { onBusy?(busy: boolean): void } = {}): RunningExecutions {
  const runs = new Map<string, { run: RunState; ended?: Promise<ExecutionRecord>; tell?: (r: ExecutionRecord) => void }>();
  return {
    start(run) {
      runs.set(run.record.id, { run });
      if (runs.size === 1) onBusy?.(true);
    },
    end(run) {
      const entry = runs.get(run.record.id);
      if (entry?.run !== run) return;
      runs.delete(run.record.id);
      entry.tell?.(run.record);
      if (!runs.size) onBusy?.(false);
    },
    cancel(id) {
      const entry = runs.get(id);
      if (!entry) return null;
      entry.ended ??= new Promise<ExecutionRecord>((resolve) => (entry.tell = resolve));
      entry.run.cancel();
      return entry.ended;
    },
  };
}
