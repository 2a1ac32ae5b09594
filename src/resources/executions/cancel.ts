import { WeirError } from '../../errors.js';
import type { ExecutionRecord } from '../../flow/types.js';
import type { ExecutionQueue } from '../../queue/index.js';
import type { Executions } from '../../types/executions.js';
import type { CancelRequests } from './cancel-requests.js';
import { ownerIsGone } from './open.js';
import { sealedOf, withSealed } from './stored.js';
import { runAgainHint } from './again.js';

/** How long a cancel waits for the process running an execution to stop it. */
export const CANCEL_WAIT_MS = 10_000;
const POLL_MS = 100;
const FINISHED = new Set(['success', 'error', 'cancelled', 'debounced']);
const CANCELLED = { code: 'CANCELLED', message: 'execution cancelled' } as const;

/** What a cancel reaches: the stored records, this process's runs, other processes, the execution queue. */
export interface CancelDeps {
  executions: Pick<Executions, 'get' | 'save' | 'open'>;
  /** Cancels a run of this process; null when it does not run here. */
  cancelHere(id: string): Promise<ExecutionRecord> | null;
  requests: CancelRequests;
  /** The execution queue, which takes back a queued job no worker has started (queue mode only). */
  queue?: Pick<ExecutionQueue, 'cancel'> | null;
  /** Masks secrets in a record about to be shown or stored (open records stored by an older weir are unmasked). */
  mask(record: ExecutionRecord): ExecutionRecord | Promise<ExecutionRecord>;
  waitMs?: number;
}

/**
 * `cancel(id)`: a running, waiting or queued execution ends `cancelled`; resolves with its final record. A
 * run of this process is aborted; one of another process is asked through a cancel request, and waited for
 * (up to {@link CANCEL_WAIT_MS}); a waiting execution, or one whose process is gone, gets its final record
 * here; a queued job is taken back. Any other status is a CONFLICT; an unknown id is NOT_FOUND.
 * @example
 * const cancel = createCancel({ executions, cancelHere: running.cancel, requests, queue, mask })
 * const record = await cancel('exec_123') // record.status === 'cancelled'
 */
export function createCancel(deps: CancelDeps): (id: string) => Promise<ExecutionRecord> {
  const { executions, requests, waitMs = CANCEL_WAIT_MS } = deps;

  /** Stores the final `cancelled` record of an execution no process runs, and forgets its open entry. */
  async function finish(record: ExecutionRecord, message: string = CANCELLED.message): Promise<ExecutionRecord> {
    // The real data sealed with the open record goes on with the final one, for a retry.
    const { queuedFor: _queuedFor, ...rest } = record;
    const final = withSealed(await deps.mask({ ...rest, status: 'cancelled', error: { code: CANCELLED.code, message }, finishedAt: new Date().toISOString() }), sealedOf(record));
    await executions.save(final);
    await executions.open.remove(record.id);
    return final;
  }

  async function cancelQueued(id: string): Promise<ExecutionRecord | 'started' | null> {
    if (!deps.queue) return null;
    return deps.queue.cancel(id, ({ workflow, input, trigger }) => {
      const at = new Date().toISOString();
      return finish(
        { id, workflowId: workflow.id, workflowName: workflow.name, version: workflow.version ?? null, status: 'queued', trigger, input, nodes: {}, result: null, startedAt: at, finishedAt: null },
        'execution cancelled before it started',
      );
    });
  }

  /** Asks the owning process to cancel, then polls the record until it says how the execution ended. */
  async function cancelElsewhere(id: string): Promise<ExecutionRecord> {
    await requests.request(id);
    const deadline = Date.now() + waitMs;
    try {
      for (;;) {
        // A job a queue worker has just taken has no record until its run stores the first one.
        const record = await executions.get(id).catch((err) => {
          if (err instanceof WeirError && err.code === 'NOT_FOUND') return null;
          throw err;
        });
        if (record?.status === 'cancelled') return record;
        if (record && FINISHED.has(record.status)) {
          throw new WeirError('CONFLICT', `execution ${id} ended ${record.status} before the cancel reached it`);
        }
        if (Date.now() >= deadline) {
          throw new WeirError('TIMEOUT', `execution ${id} is still ${record?.status ?? 'starting'} ${Math.round(waitMs / 1000)} s after the cancel request`, {
            hints: ['the process running it may be busy or unreachable; try again, or check `weir workflows execution <id>`'],
          });
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } finally {
      await requests.withdraw(id).catch(() => {});
    }
  }

  return cancel;

  async function cancel(id: string): Promise<ExecutionRecord> {
    const here = deps.cancelHere(id);
    if (here) return here;
    let record: ExecutionRecord;
    try {
      record = await executions.get(id);
    } catch (err) {
      const queued = err instanceof WeirError && err.code === 'NOT_FOUND' ? await cancelQueued(id) : null;
      if (queued === 'started') return cancelElsewhere(id);
      if (queued) return queued;
      throw err;
    }
    if (FINISHED.has(record.status)) {
      throw new WeirError('CONFLICT', `execution ${id} has already ended (${record.status}); only a queued, running or waiting execution can be cancelled`, {
        hints: [runAgainHint(record)],
      });
    }
    const entry = await executions.open.get(id);
    // A waiting or queued execution is in no process (a queued one's holder, or its debounced burst, skips it
    // when its turn comes), nor is one whose process died.
    if (entry && (entry.record.status === 'waiting' || entry.record.status === 'queued' || ownerIsGone(entry.owner))) {
      const queued = entry.record.status === 'queued';
      // A job parked by its flow's rules on the queue is taken back at once (its place in line goes to the
      // next, its caller is answered); one a worker holds right now skips itself when it comes to run.
      const taken = queued && entry.by === 'queue' && deps.queue ? await deps.queue.cancel(id, () => finish(entry.record, 'execution cancelled before it started')) : null;
      if (taken && taken !== 'started') return taken;
      const final = await finish(entry.record, queued ? 'execution cancelled before it started' : undefined);
      await cancelAwaited(entry.record);
      return final;
    }
    return cancelElsewhere(id);
  }

  /** A waiting foreach's children that wait too are its own: they are cancelled with it (one that ended meanwhile is left). */
  async function cancelAwaited(record: ExecutionRecord): Promise<void> {
    const awaited = Object.values(record.nodes).flatMap((node) => (node.status === 'waiting' && node.wait?.kind === 'children' ? node.wait.executionIds : []));
    await Promise.all(awaited.map((child) => cancel(child).catch(() => {})));
  }
}
