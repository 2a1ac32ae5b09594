import { WeirError } from '../errors.js';
import type { WeirConfig } from '../config.js';
import type { ExecutionRecord, RunOptions } from '../flow/types.js';
import type { ExecutionQueue } from './index.js';
import type { Executions } from '../types/executions.js';

/** What a `weir serve` process does in a cluster: `all` (the default), `intake` or `worker`. */
export type Role = 'all' | 'intake' | 'worker';
export const ROLES: readonly Role[] = ['all', 'intake', 'worker'];

/** A host's part in the execution queue, as started by {@link joinQueue}. */
export interface QueueRole {
  role: Role;
  /** Executions this process runs at once (0 for an intake host). */
  concurrency: number;
  /** Stops taking jobs, waits for the ones running here and closes the queue. */
  close(): Promise<void>;
}

/** What joining the queue uses of a weir instance. */
export interface QueueDeps {
  config: Pick<WeirConfig, 'queue' | 'intake'>;
  /** The runtime made the queue of `config.queue` (null without a cluster to carry it). */
  runtime: { queue: ExecutionQueue | null };
  executor: { run(request: RunOptions): Promise<ExecutionRecord> };
  executions: Pick<Executions, 'get' | 'open'>;
}

/**
 * Puts a host in the execution queue of `weir.config.json` `queue`: every role enqueues what its triggers
 * start (webhooks, interface events, schedules); `all` and `worker` also run jobs, `concurrency` at once.
 * Without `queue` a host runs executions itself, which only the `all` role may do (null is returned).
 * @example
 * const part = await joinQueue(weir, 'worker', (err) => console.error(err))
 * // ... SIGTERM ...
 * await part?.close()
 */
export async function joinQueue(weir: QueueDeps, role: Role, onError: (err: unknown) => void): Promise<QueueRole | null> {
  const settings = weir.config.queue;
  if (!settings) {
    if (role === 'all') return null;
    throw new WeirError('INVALID_CONFIG', `--role ${role} needs an execution queue shared by the hosts`, {
      hints: ['add "queue": {"driver": "bullmq", "url": "redis://127.0.0.1:6379"} to weir.config.json'],
    });
  }
  // The intake makes the queue when a Redis server carries it (queue.url or the cluster's).
  const queue = weir.runtime.queue;
  if (!queue) throw new WeirError('INVALID_CONFIG', 'queue.url must name the Redis server of the queue (redis://host:6379)');
  await queue.open();
  const concurrency = role === 'intake' ? 0 : queue.concurrency;
  if (concurrency) {
    await queue.work({
      run: (request) => weir.executor.run(request),
      finished: (id) => weir.executions.get(id).catch(() => null),
      unfinished: async (id) => {
        const entry = await weir.executions.open.get(id);
        return entry ? weir.executions.open.real(entry.record) : null;
      },
      onError,
      // The queue restarts its own jobs: the entry is marked so, and no host's recovery starts it again.
      async queued({ executionId, workflow, input, trigger }, queuedFor) {
        const at = new Date().toISOString();
        const record: ExecutionRecord = { id: executionId, workflowId: workflow.id, workflowName: workflow.name, version: workflow.version ?? null, status: 'queued', queuedFor, trigger, input, nodes: {}, result: null, startedAt: at, finishedAt: null, ...(workflow.hash ? { hash: workflow.hash } : {}) };
        await weir.executions.open.put(record, 'queue');
      },
      unqueued: (id) => weir.executions.open.remove(id),
      real: (record) => weir.executions.open.real(record),
    });
  }
  return {
    role,
    concurrency,
    close: () => queue.close(),
  };
}
