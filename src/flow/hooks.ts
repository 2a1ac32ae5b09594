import type { Executions } from '../resources/executions/index.js';
import { readBack } from '../resources/executions/stored.js';
import type { ExecutionRecord, ExecutorHooks, Outcome, RunState } from './types.js';

/**
 * An empty hook map, for `createExecutor({ hooks })`.
 * @example
 * const hooks = createHooks()
 * hooks['execution:end'].push((run) => console.log(run.record.id, run.record.status))
 */
export const createHooks = (): ExecutorHooks => ({ 'execution:start': [], checkpoint: [], respond: [], 'execution:end': [] });

/**
 * Calls the hooks of one stage in order, each awaited; returns a promise only when a hook returned one, so a
 * stage of synchronous hooks costs no microtask.
 */
export function callHooks(list: Array<(run: RunState) => void | Promise<void>>, run: RunState, from = 0): void | Promise<void> {
  for (let i = from; i < list.length; i++) {
    const out = list[i](run);
    if (out && typeof out.then === 'function') return out.then(() => callHooks(list, run, i + 1));
  }
}

/** How long a run goes before it is stored as unfinished (shorter runs store only their final record). */
export const RUNNING_RECORD_AFTER_MS = 150;

/**
 * Persistence: the final record at the end, masked, among the execution records; an unfinished run's latest
 * record (a checkpoint after an asynchronous node that is not pure, or a run still going after
 * {@link RUNNING_RECORD_AFTER_MS}, or a run that ends `waiting`) among the open executions, which is what a
 * resumed run continues from. Records are stored masked; where a secret was masked, the real data is sealed
 * with them (an open entry's, and a failed or cancelled run's final record, which a retry continues from).
 * In this process `executions.get`/`list` see a running run at once.
 * Nothing is awaited before the first node runs, and a run of synchronous nodes writes only its final record.
 * @example
 * const persist = persistenceHooks(weir.executions)
 * hooks['execution:start'].push(persist.start)
 * hooks.checkpoint.push(persist.checkpoint)
 * hooks['execution:end'].push(persist.end)
 */
export function persistenceHooks(executions: Executions, runningAfterMs = RUNNING_RECORD_AFTER_MS) {
  // Runs in start order; one sweeper stores those past the threshold (a timer per run would cost more than
  // the rest of a short run's bookkeeping).
  const running = new Map<RunState, { view: () => ExecutionRecord; since: number; open: boolean }>();
  let sweeper: ReturnType<typeof setInterval> | null = null;
  // With the record, the config it runs: a resume may come after the flow was published again.
  const store = (run: RunState) => {
    const { workflow } = run.options;
    const config = workflow.hash ? executions.configs.save(workflow.id, workflow.hash, workflow.config) : undefined;
    const record = executions.open.put(run.record, run.options.restartedBy, run.mask);
    return config ? Promise.all([config, record]).then(() => {}) : record;
  };
  const sweep = () => {
    const due = performance.now() - runningAfterMs;
    for (const [run, p] of running) {
      if (p.since > due) break;
      if (p.open) continue;
      p.open = true;
      if (run.record.status === 'running') store(run).catch(() => {});
    }
    if (!running.size && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  };
  return {
    start(run: RunState) {
      // What a read of a running run gets: a copy, as if read back from storage.
      const view = () => readBack(run.mask.record(run.record));
      executions.track(run.record.id, run.record.workflowId, view);
      running.set(run, { view, since: performance.now(), open: !!run.options.resume && !run.options.retryOf });
      if (!sweeper) {
        sweeper = setInterval(sweep, Math.max(1, runningAfterMs / 3));
        sweeper.unref?.();
      }
    },
    checkpoint(run: RunState) {
      const p = running.get(run);
      if (p) p.open = true;
      return store(run);
    },
    async end(run: RunState) {
      const p = running.get(run);
      running.delete(run);
      try {
        // A waiting run's real data is stored sealed (its resumed run needs it); what is shown is masked.
        if (run.record.status === 'waiting') await store(run);
        const { status } = run.record;
        run.record = status === 'error' || status === 'cancelled' ? executions.open.masked(run.record, run.mask) : run.mask.record(run.record);
        if (run.record.status !== 'waiting') {
          const { workflow } = run.options;
          // A failed execution may be retried against the config it ran.
          if (run.record.status !== 'success' && workflow.hash) await executions.configs.save(workflow.id, workflow.hash, workflow.config);
          // An open entry (this run's own, or the `queued` one it started from) first takes the final record, so a
          // crash before it is removed leaves the truth there (readers see the open entry first), not a stale
          // `running` or `queued`; it goes before the run stops being shown here.
          const entry = p?.open || run.options.opened;
          if (entry) await executions.open.put(run.record, run.options.restartedBy);
          const nobodyWaits = run.options.background === true || (run.options.onRespond !== undefined && run.answer !== undefined);
          await executions.save(run.record, { linger: nobodyWaits });
          if (entry) await executions.open.remove(run.record.id);
        }
      } finally {
        if (p) executions.untrack(run.record.id, p.view);
      }
      await executions.pruneIfDue(run.record.workflowId);
    },
  };
}

/** Respond: the first answer of a run goes to the caller's `onRespond`. */
export function respondHook(run: RunState, answer: Outcome): void {
  run.options.onRespond?.(answer);
}
