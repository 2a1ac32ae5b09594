import type { WeirBus } from '../events.js';
import type { Expressions } from '../expr/index.js';
import type { NodeRegistry } from '../nodes/index.js';
import type { Executions } from '../resources/executions/index.js';
import type { ConfigCheck } from '../resources/workflows/validate.js';
import type { Executor } from '../types/executor.js';
import type { NodeServices } from '../types/node-services.js';
import { createExecutor } from './executor.js';
import { createHooks, persistenceHooks, respondHook } from './hooks.js';
import type { RunningExecutions } from './running.js';
import { secretHooks } from './secrets.js';

export * from './types.js';
export type { Executor } from '../types/executor.js';
export { createExecutor, type ExecutorOptions } from './executor.js';
export { createHooks, callHooks } from './hooks.js';
export { flowChecks } from './checks.js';
export { allowedEnv, currentMasker } from './secrets.js';
export { createMasker, type Masker } from './masking.js';
export { createRunningExecutions, type RunningExecutions } from './running.js';
export { createRun, workflowToRun } from './run.js';

/** What the executor of a weir instance is built from. */
export interface WeirExecutorOptions {
  nodes: NodeRegistry;
  expressions: Expressions;
  bus: WeirBus;
  /** `$env` before secrets (already filtered by `env.allow`). */
  env: Record<string, string | undefined>;
  /** Where every execution is recorded. */
  executions: Executions;
  /** The organization secrets of this run, added to `$env` and masked in records. */
  secrets(): Readonly<Record<string, string>> | Promise<Record<string, string>>;
  services: NodeServices;
  checks: ConfigCheck[];
  /** This process's runs, which a cancel reaches. */
  running: RunningExecutions;
  /** The URL that ends an execution's webhook wait (`$execution.resumeUrl`) or decides its approval wait (`kind: 'approval'`), made on first read. */
  resumeUrl?(execution: { id: string; workflowId: string }, kind?: 'approval'): string;
}

/**
 * The executor of a weir instance with its standard hooks: organization secrets into `$env` and masked,
 * every execution persisted in `executions`, the first Respond answer handed to `onRespond`, each run
 * registered in `running` while it goes.
 * @example
 * const executor = createWeirExecutor({ nodes, expressions, bus, env, executions, secrets: () => secrets.valuesNow(), services, checks, running })
 */
export function createWeirExecutor(options: WeirExecutorOptions): Executor {
  const { executions, secrets: values, running, ...rest } = options;
  const hooks = createHooks();
  const secrets = secretHooks(values);
  const persist = persistenceHooks(executions);
  hooks['execution:start'].push(running.start, secrets.start, persist.start);
  hooks.checkpoint.push(persist.checkpoint);
  hooks.respond.push(respondHook);
  // Persistence first: it stores a waiting run's real data, then masks the record every later reader gets.
  hooks['execution:end'].push(persist.end, secrets.end, running.end);
  return createExecutor({ ...rest, hooks });
}
