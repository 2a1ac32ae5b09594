import type { Cluster } from '../cluster/index.js';
import { WeirError } from '../errors.js';
import type { ExecutionRecord, Outcome } from './types.js';

/** A message from the worker that runs an execution to the host that enqueued it. */
export type Reply = { id: string; kind: 'respond'; answer: Outcome } | { id: string; kind: 'end'; record: ExecutionRecord };

interface Waiter {
  onRespond?(answer: Outcome): void;
  resolve(record: ExecutionRecord): void;
  reject(err: unknown): void;
  timer: NodeJS.Timeout;
}

/** How long a host waits for a queued execution's end by default before giving up on it (the job itself goes on). */
const WAIT_MS = 15 * 60 * 1000;

/**
 * The reply channel of one host: every host listens on `reply:<nodeId>`; a worker sends the Respond
 * answer and the finished record of a job there, so a caller waiting on any intake host is answered by
 * whichever worker ran its execution.
 * @example
 * const replies = createReplies(cluster)
 * const done = await replies.expect('ex_1', (answer) => send(answer))
 * await queue.add(...); const record = await done
 */
export function createReplies(cluster: Cluster) {
  const waiters = new Map<string, Waiter>();
  let listening: Promise<unknown> | undefined;

  const deliver = (reply: Reply) => {
    const w = waiters.get(reply?.id);
    if (!w) return;
    if (reply.kind === 'respond') {
      w.onRespond?.(reply.answer);
      return;
    }
    waiters.delete(reply.id);
    clearTimeout(w.timer);
    w.resolve(reply.record);
  };

  return {
    /** The channel workers answer this host on. */
    channel: `reply:${cluster.nodeId}`,

    /**
     * Registers interest in an execution before it is enqueued. The promise resolves with the finished
     * record; it is marked handled, so a caller that does not await it (answered at once) cannot crash the
     * process when it times out.
     */
    async expect(id: string, onRespond?: (answer: Outcome) => void, waitMs = WAIT_MS): Promise<{ done: Promise<ExecutionRecord>; cancel(): void }> {
      await (listening ??= cluster.subscribe(`reply:${cluster.nodeId}`, deliver));
      let settle!: Pick<Waiter, 'resolve' | 'reject'>;
      const done = new Promise<ExecutionRecord>((resolve, reject) => (settle = { resolve, reject }));
      done.catch(() => {});
      const timer = setTimeout(() => {
        waiters.delete(id);
        settle.reject(new WeirError('TIMEOUT', `execution ${id} did not finish within ${waitMs} ms`));
      }, waitMs).unref();
      waiters.set(id, { ...settle, onRespond, timer });
      return {
        done,
        cancel() {
          clearTimeout(timer);
          waiters.delete(id);
        },
      };
    },

    /** Sends a reply to the host listening on `channel` (no-op without one). */
    async send(channel: string | undefined, reply: Reply): Promise<void> {
      if (channel) await cluster.publish(channel, reply);
    },

    /** Fails every waiter (host shutting down). */
    close() {
      for (const [id, w] of waiters) {
        clearTimeout(w.timer);
        w.reject(new WeirError('CANCELLED', `stopped waiting for execution ${id}: the host is shutting down`));
      }
      waiters.clear();
    },
  };
}

export type Replies = ReturnType<typeof createReplies>;
