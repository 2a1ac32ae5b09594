import type { Executions } from '../resources/executions/index.js';
import type { ExecutorHooks, RespondAnswer, RunState } from './types.js';

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

/**
 * Persistence: a `running` record before the first node runs (so a crash leaves a trace and a replay can
 * reuse the id) and the final record at the end. Nothing is written per node; records are masked first.
 * @example
 * const persist = persistenceHooks(weir.executions)
 * hooks['execution:start'].push(persist.start)
 * hooks['execution:end'].push(persist.end)
 */
export function persistenceHooks(executions: Executions) {
  const keys = new WeakMap<RunState, string>();
  return {
    async start(run: RunState) {
      // A run reusing an id (a replayed delivery) overwrites its earlier record instead of adding one.
      const known = run.options.executionId ? await executions.keyOf(run.record.id) : null;
      const key = known ?? executions.keyFor(run.record);
      keys.set(run, key);
      await executions.save(key, run.mask(run.record), known !== null);
    },
    async end(run: RunState) {
      await executions.save(keys.get(run) ?? executions.keyFor(run.record), run.mask(run.record), keys.has(run));
      await executions.pruneIfDue(run.record.workflowId);
    },
  };
}

/** Respond: the first answer of a run goes to the caller's `onRespond`. */
export function respondHook(run: RunState, answer: RespondAnswer): void {
  run.options.onRespond?.(answer);
}
