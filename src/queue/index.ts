import type { Queue, Worker } from 'bullmq';
import { newExecutionId, startTimeOf } from '../resources/executions/ids.js';
import type { Redis } from 'ioredis';
import type { Cluster } from '../cluster/index.js';
import { WeirError } from '../errors.js';
import { loadOptional } from '../util/optional.js';
import { crashedError, DEFAULT_MAX_CRASHES } from '../runtime/poison.js';
import { createReplies } from './replies.js';
import type { ExecutionRecord, QueueSettings, RunJob, RunOptions } from './types.js';

export type * from './types.js';

/** The BullMQ queue every host of an organization shares. */
const QUEUE_NAME = 'executions';
const FINISHED = new Set(['success', 'error', 'cancelled']);
/** BullMQ job states before a worker takes the job. */
const WAITING_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

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
}

/** What opening the queue gives: the BullMQ queue, the worker class and a connection maker. */
interface Opened {
  queue: Queue;
  Worker: typeof import('bullmq').Worker;
  connect(): Redis;
}

/** The execution queue (BullMQ on Redis) of a cluster. */
export interface ExecutionQueue {
  /** Jobs a worker process of this queue runs at once (`queue.concurrency`, default 10). */
  readonly concurrency: number;
  /**
   * Enqueues an execution (job id = execution id, so a duplicate is not run twice) and resolves once it is
   * stored in Redis. `done` settles with the record the worker reports; with `wait: false` nobody is told
   * (a caller answered at once) and `done` is null.
   */
  submit(request: RunOptions, options?: { wait?: boolean; waitMs?: number }): Promise<{ executionId: string; done: Promise<ExecutionRecord> | null }>;
  /**
   * Like the executor's `run`: enqueues, then resolves with the record the worker reports; Respond answers reach
   * `onRespond`. It stops waiting (rejects with TIMEOUT; the job goes on) after `waitMs`, 15 minutes by default.
   */
  run(request: RunOptions, options?: { waitMs?: number }): Promise<ExecutionRecord>;
  /**
   * Takes back a job no worker has started and ends its execution: `finish` stores the final record, which
   * then answers the host waiting for the job (a Respond-mode caller there is answered at once, not by its
   * timeout). Resolves with that record, `'started'` when a worker has taken the job (its run is cancelled
   * like any other), or null when the queue holds no job under that id.
   */
  cancel(executionId: string, finish: (job: RunJob) => Promise<ExecutionRecord>): Promise<ExecutionRecord | 'started' | null>;
  /** Loads BullMQ and opens the connection (a host does it at start, so a missing package fails there). */
  open(): Promise<void>;
  /** Starts taking jobs on this process with `concurrency` at once; resolves once the worker is made. */
  work(options: WorkOptions): Promise<void>;
  /** Stops taking jobs and waits for the ones running here, then closes the connections (once). */
  close(): Promise<void>;
}

/**
 * Creates the execution queue of `weir.config.json` `queue`; nothing is loaded or opened until it is first used
 * (BullMQ and the Redis connections then). Stalled-job
 * handling hands a job whose worker died (lock not renewed for `stalledMs`) to another worker; a job that
 * took down its worker `maxCrashes` times is not run again: its execution is recorded as an error saying so.
 * @example
 * const queue = createExecutionQueue({ settings: config.queue, cluster, maxCrashes: 3 })
 * queue.work({ run: (r) => weir.executor.run(r), finished: (id) => weir.executions.get(id), unfinished: (id) => weir.executions.open.get(id).then((e) => e && weir.executions.open.real(e.record)) })
 * const record = await queue.run({ workflow, input, trigger: 'webhook' })
 */
export function createExecutionQueue(options: { settings: QueueSettings; cluster: Cluster; maxCrashes?: number }): ExecutionQueue {
  const { settings, cluster, maxCrashes = DEFAULT_MAX_CRASHES } = options;
  if (settings.driver !== 'bullmq') {
    throw new WeirError('INVALID_CONFIG', `queue.driver must be "bullmq", got ${JSON.stringify(settings.driver)}`);
  }
  const url = settings.url ?? cluster.url;
  const prefix = settings.prefix ?? cluster.prefix;
  const concurrency = Math.max(1, Math.floor(settings.concurrency ?? 10));
  const stalledMs = Math.max(1000, settings.stalledMs ?? 30000);
  const connections: Redis[] = [];
  const replies = createReplies(cluster);
  let opened: Promise<Opened> | null = null;
  let worker: Promise<Worker> | undefined;
  let closed: Promise<void> | undefined;

  /** Loads BullMQ and opens the queue's connection, once. */
  const open = (): Promise<Opened> =>
    (opened ??= (async () => {
      const { Queue, Worker } = await loadOptional('bullmq', 'The execution queue (queue.driver "bullmq")', () => import('bullmq'));
      const { Redis } = await loadOptional('ioredis', 'The execution queue (queue.driver "bullmq")', () => import('ioredis'));
      const connect = () => {
        const r = new Redis(url, { maxRetriesPerRequest: null });
        connections.push(r);
        return r;
      };
      return { queue: new Queue(QUEUE_NAME, { connection: connect(), prefix }), Worker, connect };
    })());

  const submit: ExecutionQueue['submit'] = async (request, { wait = true, waitMs } = {}) => {
    const executionId = request.executionId ?? newExecutionId();
    const waiting = wait ? await replies.expect(executionId, request.onRespond, waitMs) : null;
    const job: RunJob = { executionId, workflow: request.workflow, input: request.input, trigger: request.trigger, ...(waiting ? { replyTo: replies.channel } : {}) };
    try {
      const { queue } = await open();
      await queue.add('run', job, {
        jobId: executionId,
        attempts: 3,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 3600, count: 10000 },
        removeOnFail: { age: 7 * 86400 },
      });
    } catch (err) {
      waiting?.cancel();
      throw new WeirError('UNAVAILABLE', `cannot enqueue execution ${executionId}: ${(err as Error).message}`, { cause: err });
    }
    return { executionId, done: waiting?.done ?? null };
  };

  return {
    concurrency,
    submit,
    async run(request, options) {
      return (await (await submit(request, options)).done)!;
    },
    async cancel(executionId, finish) {
      const job = await (await open()).queue.getJob(executionId);
      if (!job) return null;
      const state = await job.getState();
      if (!WAITING_STATES.has(state)) return state === 'active' ? 'started' : null;
      // A worker may take the job between the state read and the removal: BullMQ then refuses (locked).
      if (!(await job.remove().then(() => true, () => false))) return 'started';
      const data = job.data as RunJob;
      const record = await finish(data);
      // No worker will reply for a job taken back, so the host waiting for it is told here. The execution is
      // cancelled even when the message cannot go out: that caller is then answered by its timeout.
      await replies.send(data.replyTo, { id: executionId, kind: 'end', record }).catch(() => {});
      return record;
    },
    async open() {
      await open();
    },
    async work(work) {
      worker ??= open().then(({ Worker, connect }) => startWorker(work, Worker, connect));
      await worker;
    },
    close() {
      return (closed ??= (async () => {
        await worker?.then((w) => w.close(), () => {});
        await (await opened?.catch(() => null))?.queue.close();
        replies.close();
        await Promise.all(connections.map((r) => r.quit().catch(() => {})));
      })());
    },
  };

  function startWorker(work: WorkOptions, Worker: Opened['Worker'], connect: () => Redis): Worker {
    /**
     * Records a job BullMQ failed for stalling too often (it crashed every worker that took it) as an error.
     * The final record continues the execution's checkpoint, which keeps what ran and removes the open entry
     * (left behind, it would show the execution running forever).
     */
    const refuse = async ({ data, stalledCounter }: { data: RunJob; stalledCounter: number }) => {
      const { executionId, workflow, input, trigger } = data;
      const resume = await work.unfinished(executionId);
      const record = await work.run({ workflow, input, trigger, executionId, refuse: crashedError(stalledCounter, 'worker'), ...(resume ? { resume } : {}) });
      await replies.send(data.replyTo, { id: executionId, kind: 'end', record });
    };
    const worker = new Worker<RunJob>(
      QUEUE_NAME,
      async (job) => {
        const data = job.data;
        const reply = (r: Parameters<typeof replies.send>[1]) => replies.send(data.replyTo, r).catch(work.onError);
        // Idempotent by execution id: a job retried after its worker died mid-ack is answered from the record.
        // A first attempt of a freshly made id has no record to find; ids made elsewhere (an idempotency
        // key's) may name an execution whose job is long gone, so those are always looked up.
        const fresh = job.attemptsStarted <= 1 && !job.stalledCounter && startTimeOf(data.executionId) !== null;
        const done = fresh ? null : await work.finished(data.executionId);
        // A waiting execution is stored: its wait, not this job, continues it.
        if (done && (FINISHED.has(done.status) || done.status === 'waiting')) {
          await reply({ id: data.executionId, kind: 'end', record: done });
          return { status: done.status };
        }
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
        await reply({ id: data.executionId, kind: 'end', record });
        return { status: record.status };
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
}
