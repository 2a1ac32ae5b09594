import type { FlowConfig } from '../workflows/types.js';
import type { KeyValueStorage } from '../../storage/index.js';

/** Configs that executions ran, by workflow and config hash: what a retry or a resume runs again. */
export interface ExecutionConfigs {
  /** Keeps `config` as the one of `hash` (once: a config of a hash never changes). */
  save(workflowId: string, hash: string, config: FlowConfig): Promise<void>;
  /** The config of `hash`, or null when none was kept. */
  get(workflowId: string, hash: string): Promise<FlowConfig | null>;
}

const enc = encodeURIComponent;

/**
 * Config snapshots in the cloud `executions` view, `configs:<workflowId>:<hash>`: an execution may resume
 * or be retried after its workflow was published again, and must then run the config it started with.
 * @example
 * const configs = createExecutionConfigs(storage.view('cloud', 'executions'))
 * await configs.save(record.workflowId, record.hash, config)
 */
export function createExecutionConfigs(store: KeyValueStorage): ExecutionConfigs {
  // Hashes known to be stored: a workflow that fails often writes its config once per process.
  const kept = new Set<string>();
  return {
    async save(workflowId, hash, config) {
      const key = `configs:${enc(workflowId)}:${enc(hash)}`;
      if (kept.has(key)) return;
      if (!(await store.hasItem(key))) await store.setItem(key, JSON.stringify(config));
      kept.add(key);
    },
    async get(workflowId, hash) {
      const value = await store.getItem(`configs:${enc(workflowId)}:${enc(hash)}`);
      if (value === null || value === undefined) return null;
      return (typeof value === 'string' ? JSON.parse(value) : value) as FlowConfig;
    },
  };
}
