import type { Expressions } from '../expr/index.js';
import { createRules, keyValue } from '../runtime/admission/rules.js';
import type { RunJob } from './types.js';
import type { LaneRef, LetIn, RedisLanes } from './lanes.js';

/** Where a job stands after asking its flow's lanes for places. */
export type Entry =
  | { kind: 'free' }
  | { kind: 'run'; lanes: LaneRef[] }
  | { kind: 'park'; rule: LaneRef['rule']; key: string | null; delayMs: number; lanes: LaneRef[] };

/** Options of {@link createGate}. */
export interface GateOptions {
  lanes: RedisLanes;
  expressions: Pick<Expressions, 'template'>;
  /** Moves the parked job of an execution that got a place to the waiting jobs (a no-op for one that is not parked). */
  promote(executionId: string): Promise<void>;
  /** Where executions waiting in this process hear that a lane let them in. */
  letIn: LetIn;
}

/**
 * The worker side of `settings.concurrency` and `settings.rateLimit` on the execution queue (CONTRACT 15, 20):
 * the same rules and key values as on one host (src/runtime/admission/rules.ts), with the lanes in Redis so
 * every worker counts the same places. A job whose lane is full is parked (a delayed BullMQ job, holding no
 * worker slot) and promoted when a place is handed to it; its delay is only a fallback, for a promotion
 * lost with the worker that was to make it, and to look at expired leases of a lane nobody else touches.
 * @example
 * const gate = createGate({ lanes, expressions, promote: (id) => queue.getJob(id).then((j) => j?.promote()), letIn })
 * const entry = await gate.enter(job.data)
 * if (entry.kind === 'park') await park(entry.delayMs)
 * else try { await run() } finally { await gate.leave(job.data.executionId, entry) }
 */
export function createGate(options: GateOptions) {
  const { lanes, promote, letIn } = options;
  const rulesOf = createRules(options.expressions);
  const { leaseMs } = lanes;

  const promoteAll = (ids: string[]) => Promise.all(ids.map((id) => promote(id).catch(() => {})));

  /** The lanes of a job's flow, in the order an execution passes them. */
  function lanesOf(job: Pick<RunJob, 'workflow' | 'input'>): LaneRef[] {
    return rulesOf(job.workflow.config).map((rule) => ({ rule: rule.name, flowId: job.workflow.id, key: keyValue(rule, job.input), limit: rule.limit, periodMs: rule.periodMs }));
  }

  /** How long a parked job sleeps before it looks again by itself: soon when it is next, later further back. */
  function parkFor(lane: LaneRef, position: number, opensInMs: number): number {
    const rounds = Math.floor(Math.max(0, position) / Math.max(1, lane.limit));
    if (lane.rule === 'rateLimit') return opensInMs + rounds * lane.periodMs + 5;
    return rounds === 0 ? leaseMs * 2 : leaseMs * 10;
  }

  const gate = {
    /** Whether a job's flow has rules (those without skip the gate at the cost of a property read). */
    applies: (job: Pick<RunJob, 'workflow'>) => rulesOf(job.workflow.config).length > 0,

    /** Lines an execution up in its flow's first lane as it is enqueued: the lane's order is that of arrival. */
    async arrive(job: Pick<RunJob, 'workflow' | 'input' | 'executionId'>): Promise<void> {
      const [first] = lanesOf(job);
      if (first) await lanes.arrive(first, job.executionId);
    },

    /** Takes the job's places lane by lane; the first full lane parks it (the places before it stay its own). */
    async enter(job: Pick<RunJob, 'workflow' | 'input' | 'executionId'>): Promise<Entry> {
      const all = lanesOf(job);
      if (!all.length) return { kind: 'free' };
      const taken: LaneRef[] = [];
      for (const lane of all) {
        const answer = await lanes.take(lane, job.executionId);
        await promoteAll(answer.letIn);
        if (!answer.ok) {
          const delayMs = parkFor(lane, answer.position, answer.opensInMs);
          // A slot held while waiting for a rate window outlives the park.
          await Promise.all(taken.map((held) => (held.rule === 'concurrency' ? lanes.renew(held, job.executionId, delayMs + leaseMs) : null)));
          return { kind: 'park', rule: lane.rule, key: lane.key, delayMs, lanes: all };
        }
        taken.push(lane);
      }
      return { kind: 'run', lanes: taken };
    },

    /** Renews the job's concurrency leases while it runs; returns the stop. */
    hold(executionId: string, taken: LaneRef[]): () => void {
      const slots = taken.filter((lane) => lane.rule === 'concurrency');
      if (!slots.length) return () => {};
      const timer = setInterval(() => void Promise.all(slots.map((lane) => lanes.renew(lane, executionId))).catch(() => {}), Math.max(100, Math.floor(leaseMs / 3)));
      timer.unref();
      return () => clearInterval(timer);
    },

    /** Gives back every place (or place in line) the execution has in its flow's lanes, and promotes those let in. */
    async leave(job: Pick<RunJob, 'workflow' | 'input' | 'executionId'>): Promise<void> {
      for (const lane of lanesOf(job)) await promoteAll(await lanes.release(lane, job.executionId));
    },

    /**
     * Runs an execution of this process (a woken one) once the lanes give it places, as {@link enter} does for
     * a job, but waiting here: until told it was let in, or its park delay passed, then it asks again.
     * `onPark` is called each time it is parked, before it waits.
     */
    async admit<T>(job: Pick<RunJob, 'workflow' | 'input' | 'executionId'>, run: () => Promise<T>, onPark?: () => void): Promise<T> {
      if (!gate.applies(job)) return run();
      for (;;) {
        // Listening before asking: a place handed over in between is not missed.
        const turn = await letIn.listen(job.executionId);
        const entry = await gate.enter(job).catch((err) => {
          turn.stop();
          throw err;
        });
        if (entry.kind === 'park') {
          onPark?.();
          await turn.until(entry.delayMs);
          turn.stop();
          continue;
        }
        turn.stop();
        const stop = entry.kind === 'run' ? gate.hold(job.executionId, entry.lanes) : null;
        try {
          return await run();
        } finally {
          stop?.();
          await gate.leave(job);
        }
      }
    },
  };
  return gate;
}

export type Gate = ReturnType<typeof createGate>;
