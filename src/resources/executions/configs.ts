import type { WorkflowConfig } from '../../resources/workflows/types.js';
import type { KeyValueStorage } from '../../storage/index.js';

/** The config an execution ran, by workflow and hash: what a resume, a wake or a retry runs against. */
export interface ExecutionConfigs {
  /** Stores a config once per workflow and hash (later calls for a stored one cost nothing). */
  save(workflowId: string, hash: string, config: WorkflowConfig): Promise<void>;
  get(workflowId: string, hash: string): Promise<WorkflowConfig | null>;
}

const enc = encodeURIComponent;

/**
 * Config snapshots under `configs:<workflowId>:<hash>`, written when an execution is first stored unfinished
 * or ends in error: a published flow may change while one of its executions waits or awaits a retry, and
 * that execution goes on with the config it started with.
 * @example
 * const configs = createExecutionConfigs(storage.view('cloud', 'executions'))
 * await configs.save(record.workflowId, record.hash, config)
 */
export function createExecutionConfigs(store: KeyValueStorage): ExecutionConfigs {
  const saved = new Map<string, Promise<void>>();
  return {
    save(workflowId, hash, config) {
      const key = `configs:${enc(workflowId)}:${hash}`;
      let done = saved.get(key);
      if (!done) {
        done = store.hasItem(key).then((has) => (has ? undefined : store.setItem(key, config)));
        done.catch(() => saved.delete(key));
        saved.set(key, done);
      }
      return done;
    },
    async get(workflowId, hash) {
      return ((await store.getItem(`configs:${enc(workflowId)}:${hash}`)) as WorkflowConfig | null) ?? null;
    },
  };
}
