import type { ExecutionRecord, ExecutorHooks, RunOptions } from '../flow/types.js';

/**
 * Runs flows: checks and indexes a config once, walks it and records the execution. Persistence, secrets
 * and Respond plug in as lifecycle `hooks`.
 * @example
 * const record = await weir.executor.run({ workflow: { id, name, config }, input: { a: 1 }, trigger: 'manual' })
 * record.status // 'success'
 */
export interface Executor {
  /** Runs one execution to its end; a failed flow resolves with an `error` record, it does not reject. */
  run(options: RunOptions): Promise<ExecutionRecord>;
  /** Lifecycle hooks every run calls, in order of registration. */
  hooks: ExecutorHooks;
}
