import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { startTimeOf } from '../resources/executions/ids.js';
import { crashedError } from '../runtime/poison.js';
import { burstOf, type RedisBursts } from './bursts.js';
import type { Gate } from './gate.js';
import type { Replies } from './replies.js';
import type { ExecutionRecord, RunJob, RunOptions } from './types.js';

/** The BullMQ queue every host of an organization shares. */
export const QUEUE_NAME = 'executions';
const FINISHED = new Set(['success', 'error', 'cancelled', 'debounced']);

/** What a worker needs from the executor. */
export interface WorkOptions {
  /** Runs an execution on this process (the executor's own `run`). */
  run(request: RunOptions): Promise<ExecutionRecord>;
  /** The stored record of a finished execution, or null (a retried job of a finished execution is not re-run). */
  finished(executionId: string): Promise<ExecutionRecord | null>;
  /** The stored checkpoint of an unfinished execution with its real data (unsealed), or null: a job run again resumes from it. */
  unfinished(executionId: string): Promise<ExecutionRecord | null>;
  /** Told about a job that could not be processed (Redis or storage failures; flow errors are records). */
  onError?(err: unknown): void;
  /**
   * Stores a job held back by its flow's concurrency or rate limit as an open execution with status
   * `queued` and `queuedFor` (listed, cancellable, shown by status URLs); `unqueued` forgets it once its run
   * stored its own record.
   */
  queued(job: RunJob, queuedFor: NonNullable<ExecutionRecord['queuedFor']>): Promise<void>;
  unqueued(executionId: string): Promise<void>;
  /** A record stored masked with its real data sealed beside it, with the real data (a debounced burst's last delivery). */
  real(record: ExecutionRecord): Promise<ExecutionRecord>;
}

/** What opening the queue gives: the BullMQ queue, the worker class and a connection maker. */
export interface Opened {
  queue: Queue;
  /** The per-key lanes of flows with `settings.concurrency` or `settings.rateLimit`, shared by the workers. */
  gate: Gate;
  /** The open bursts of flows with `settings.debounce`, shared by every host. */
  bursts: RedisBursts;
  Worker: typeof import('bullmq').Worker;
  DelayedError: typeof import('bullmq').DelayedError;
  connect(): Redis;
}

/** Where a worker takes its jobs from and how many at once: the queue's settings as the queue resolved them. */
export interface WorkerPlace {
  replies: Replies;
  prefix: string;
  concurrency: number;
  stalledMs: number;
  maxCrashes: number;
}

/**
 * The BullMQ worker of one process: runs the jobs it takes (a burst's run once its burst is quiet, a job of a
 * flow with rules once its lanes let it in, parked as a delayed job until then), answers the host waiting for
 * each, and records as an error a job that crashed every worker that took it.
 * @example
 * const worker = startWorker(work, opened, { replies, prefix, concurrency: 10, stalledMs: 30_000, maxCrashes: 3 })
 */
export function startWorker(work: WorkOptions, { Worker, DelayedError, connect, gate, bursts }: Opened, place: WorkerPlace): Worker {
  const { replies, prefix, concurrency, stalledMs, maxCrashes } = place;
  /**
   * Records a job BullMQ failed for stalling too often (it crashed every worker that took it) as an error.
   * The final record continues the execution's checkpoint, which keeps what ran and removes the open entry
   * (left behind, it would show the execution running forever).
   */
  const refuse = async ({ data, stalledCounter }: { data: RunJob; stalledCounter: number }) => {
    const { executionId, workflow, input, trigger } = data;
    if (gate.applies(data)) await gate.leave(data);
    const resume = await work.unfinished(executionId);
    const record = await work.run({ workflow, input, trigger, executionId, refuse: crashedError(stalledCounter, 'worker'), ...(resume ? { resume } : {}) });
    await replies.send(data.replyTo, { id: executionId, kind: 'end', record });
  };
  const worker = new Worker<RunJob>(
    QUEUE_NAME,
    async (job, token) => {
      let data = job.data;
      const reply = (r: Parameters<typeof replies.send>[1]) => replies.send(data.replyTo, r).catch(work.onError);
      const burst = burstOf(data);
      // Idempotent by execution id: a job retried after its worker died mid-ack is answered from the record.
      // A first attempt of a freshly made id has no record to find; ids made elsewhere (an idempotency
      // key's) may name an execution whose job is long gone, so those are always looked up, as is a burst's
      // run (its first delivery stored it `queued`).
      const fresh = !burst && job.attemptsStarted <= 1 && !job.stalledCounter && startTimeOf(data.executionId) !== null;
      const done = fresh ? null : await work.finished(data.executionId);
      // A waiting execution is stored: its wait, not this job, continues it. One cancelled while parked
      // gives the place handed to it to the next (a burst's run, its burst).
      if (done && (FINISHED.has(done.status) || done.status === 'waiting')) {
        if (burst) await bursts.drop(burst, data.executionId);
        else if (gate.applies(data)) await gate.leave(data);
        await reply({ id: data.executionId, kind: 'end', record: done });
        return { status: done.status };
      }
      if (burst) {
        // A later delivery moved the burst's time: parked again until then, holding no worker slot.
        const taken = await bursts.take(burst, data.executionId, work.real);
        if (taken.kind === 'wait') {
          await job.moveToDelayed(Date.now() + taken.ms, token);
          throw new DelayedError();
        }
        // Dropped by a cancel that found the job in a worker's hands: it ends there, not here.
        if (taken.kind === 'gone') return { status: 'cancelled' };
        // From here on the job is a plain one of the burst's last input (a stall's retry, a park, a cancel
        // read it as it reads any job), lined up in its flow's lanes as it would be when enqueued.
        data = taken.job;
        await job.updateData(data);
        await bursts.forget(data.executionId);
        if (gate.applies(data)) await gate.arrive(data);
      }
      const gated = gate.applies(data);
      const entry = gated ? await gate.enter(data) : null;
      if (entry?.kind === 'park') {
        // A burst's run stored `queued` for its debounce now waits for its flow's rules.
        if (!done || done.queuedFor?.rule === 'debounce') await work.queued(data, { rule: entry.rule, key: entry.key });
        await job.moveToDelayed(Date.now() + entry.delayMs, token);
        // A place handed over between the take and the park found the job active: it is promoted here.
        if ((await gate.enter(data)).kind !== 'park') await job.promote().catch(() => {});
        throw new DelayedError();
      }
      const stop = entry?.kind === 'run' ? gate.hold(data.executionId, entry.lanes) : null;
      try {
        // A job run again after its worker died goes on from the execution's checkpoints.
        const resume = fresh ? null : await work.unfinished(data.executionId);
        const record = await work.run({
          workflow: data.workflow,
          input: data.input,
          trigger: data.trigger,
          executionId: data.executionId,
          restartedBy: 'queue',
          ...(resume && resume.status === 'running' ? { resume } : {}),
          onRespond: (answer) => void reply({ id: data.executionId, kind: 'respond', answer }),
        });
        if (done?.status === 'queued' && record.status !== 'waiting') await work.unqueued(data.executionId);
        await reply({ id: data.executionId, kind: 'end', record });
        return { status: record.status };
      } finally {
        // A waiting execution holds no slot: its wake takes one again.
        stop?.();
        if (gated) await gate.leave(data);
      }
    },
    {
      connection: connect(),
      prefix,
      concurrency,
      lockDuration: stalledMs,
      stalledInterval: Math.max(500, Math.floor(stalledMs / 2)),
      // Every start but the first follows a stall; past this many the job fails without running.
      maxStalledCount: maxCrashes - 1,
    },
  );
  worker.on('error', (err) => work.onError?.(err));
  worker.on('failed', (job, err) => {
    if (job?.deferredFailure) void refuse(job).catch(work.onError);
    else work.onError?.(err);
  });
  return worker;
}
