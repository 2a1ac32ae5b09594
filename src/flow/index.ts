import { WeirError } from '../errors.js';
import type { Expressions } from '../expr/index.js';
import type { ConfigCheck } from '../resources/workflows/validate.js';
import type { Weir } from '../weir.js';
import { createExecutor, type Executor } from './executor.js';
import { createHooks, persistenceHooks, respondHook } from './hooks.js';
import { allowedEnv, secretHooks } from './secrets.js';
import type { ExecutionRecord, RunOptions } from './types.js';

export * from './types.js';
export { createExecutor, type Executor, type ExecutorOptions } from './executor.js';
export { createHooks, callHooks } from './hooks.js';
export { flowChecks } from './checks.js';
export { allowedEnv } from './secrets.js';
export { createMasker, type Masker } from './masking.js';

/** Options of `weir.run`: everything of `executor.run` but the workflow, which is looked up. */
export interface WeirRunOptions extends Partial<Omit<RunOptions, 'workflow' | 'input'>> {
  /** Run the published copy (else the local draft). */
  published?: boolean;
}

type WithSecrets = { secrets?: { valuesNow(): Readonly<Record<string, string>> | Promise<Record<string, string>> } };

/**
 * The executor of a weir instance with its standard hooks: organization secrets into `$env` and masked,
 * every execution persisted in `weir.executions`, the first Respond answer handed to `onRespond`.
 * @example
 * weir.executor = createWeirExecutor(weir, expressions, [flowChecks({ nodes: weir.nodes, expressions })])
 */
export function createWeirExecutor(weir: Weir, expressions: Expressions, checks: ConfigCheck[]): Executor {
  const hooks = createHooks();
  // Secrets are read per run from whatever manager is attached by then (the data subsystem's, if any).
  const secrets = secretHooks(() => (weir as WithSecrets).secrets?.valuesNow());
  const persist = persistenceHooks(weir.executions);
  hooks['execution:start'].push(secrets.start, persist.start);
  hooks.respond.push(respondHook);
  hooks['execution:end'].push(secrets.end, persist.end);
  return createExecutor({
    nodes: weir.nodes,
    expressions,
    bus: weir.bus,
    services: weir,
    env: allowedEnv(weir.env, weir.config.env?.allow),
    checks,
    hooks,
  });
}

/**
 * `weir.run`: finds a workflow by id or name (the published copy with `published`, else the local draft)
 * and runs it.
 * @example
 * const record = await weir.run('orders', { id: 42 }, { published: true })
 * if (record.status === 'success') console.log(record.result)
 */
export function createRunner(weir: Weir) {
  return async function run(ref: string, input: unknown = {}, options: WeirRunOptions = {}): Promise<ExecutionRecord> {
    const { published, trigger = 'manual', ...rest } = options;
    let workflow: RunOptions['workflow'];
    if (published) {
      const pub = await weir.workflows.findPublished(ref);
      if (!pub) {
        throw new WeirError('NOT_FOUND', `no published workflow "${ref}"`, { hints: ['publish it with `weir workflows publish <workflow-id>`'] });
      }
      workflow = { id: pub.id, name: pub.name, version: pub.version, config: pub.config, hash: pub.hash };
    } else {
      const wf = await weir.workflows.getLocal(ref);
      workflow = { id: wf.id, name: wf.name, version: wf.base?.version ?? null, config: wf.config };
    }
    return weir.executor.run({ ...rest, workflow, input, trigger });
  };
}
