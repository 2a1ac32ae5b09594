import type { Executions } from '../resources/executions/index.js';
import type { ExecutionRecord, ExecutorHooks, RespondAnswer, RunState } from './types.js';

/**
 * An empty hook map, for `createExecutor({ hooks })`.
 * @example
 * const hooks = createHooks()
 * hooks['execution:end'].push((run) => console.log(run.record.id, run.record.status))
 */
export const createHooks = (): ExecutorHooks => ({ 'execution:start': [], respond: [], 'execution:end': [] });

/** Calls the hooks of one stage in order, each awaited. */
export async function callHooks(list: Array<(run: RunState) => void | Promise<void>>, run: RunState): Promise<void> {
  for (const hook of list) await hook(run);
}

/** How long a run goes before its 'running' record is written to storage (shorter runs write only the final one). */
export const RUNNING_RECORD_AFTER_MS = 150;

/**
 * Persistence: the final record at the end, masked; nothing is written per node. A run still going after
 * {@link RUNNING_RECORD_AFTER_MS} also gets a `running` record (so a crash leaves a trace and other
 * processes see it); in this process `executions.get`/`list` see a running run at once. Nothing is awaited
 * before the first node runs. A replayed delivery's run (an `executionId` given and not `freshId`)
 * overwrites its earlier record instead of adding one.
 * @example
 * const persist = persistenceHooks(weir.executions)
 * hooks['execution:start'].push(persist.start)
 * hooks['execution:end'].push(persist.end)
 */
export function persistenceHooks(executions: Executions, runningAfterMs = RUNNING_RECORD_AFTER_MS) {
  interface Pending {
    key: string;
    /** Whether the key existed before this run (its id index is written). */
    indexed: boolean;
    /** The key lookup of a reused id, while it is pending. */
    lookup: Promise<void> | null;
    timer: ReturnType<typeof setTimeout> | null;
    /** The 'running' record write, once started. */
    early: Promise<void> | null;
  }
  const pending = new WeakMap<RunState, Pending>();
  return {
    start(run: RunState) {
      const p: Pending = { key: executions.keyFor(run.record), indexed: false, lookup: null, timer: null, early: null };
      pending.set(run, p);
      const id = run.record.id;
      // What a read of a running run gets: a copy, as if read back from storage.
      const view = () => JSON.parse(JSON.stringify(run.mask(run.record))) as ExecutionRecord;
      if (run.options.executionId && !run.options.freshId) {
        p.lookup = executions.keyOf(id).then(
          (known) => {
            if (known) Object.assign(p, { key: known, indexed: true });
            p.lookup = null;
            executions.track(id, p.key, view);
          },
          () => {
            p.lookup = null;
          },
        );
      } else executions.track(id, p.key, view);
      p.timer = setTimeout(() => {
        p.timer = null;
        p.early = (async () => {
          if (p.lookup) await p.lookup;
          if (run.record.status !== 'running') return;
          await executions.save(p.key, run.mask(run.record), p.indexed);
          p.indexed = true;
        })().catch(() => {});
      }, runningAfterMs);
      p.timer.unref?.();
    },
    async end(run: RunState) {
      const p = pending.get(run);
      if (!p) {
        await executions.save(executions.keyFor(run.record), run.mask(run.record));
      } else {
        if (p.timer) clearTimeout(p.timer);
        if (p.lookup) await p.lookup;
        // The final record must land after the 'running' one.
        if (p.early) await p.early;
        try {
          await executions.save(p.key, run.mask(run.record), p.indexed);
        } finally {
          executions.untrack(run.record.id);
        }
      }
      await executions.pruneIfDue(run.record.workflowId);
    },
  };
}

/** Respond: the first answer of a run goes to the caller's `onRespond`. */
export function respondHook(run: RunState, answer: RespondAnswer): void {
  run.options.onRespond?.(answer);
}
