import type { Worker } from 'bullmq';
import { newExecutionId } from '../resources/executions/ids.js';
import type { Redis } from 'ioredis';
import type { Cluster } from '../cluster/index.js';
import { WeirError } from '../errors.js';
import { loadOptional } from '../util/optional.js';
import { DEFAULT_MAX_CRASHES } from '../runtime/poison.js';
import { createReplies } from './replies.js';
import type { Expressions } from '../expr/index.js';
import { createGate } from './gate.js';
import { createLetIn, createRedisLanes } from './lanes.js';
import { burstOf, createRedisBursts } from './bursts.js';
import { QUEUE_NAME, startWorker, type Opened, type WorkOptions } from './worker.js';
import type { BurstDelivery, ExecutionRecord, QueueSettings, RunJob, RunOptions } from './types.js';

export type * from './types.js';
export type { WorkOptions } from './worker.js';

/** The cluster channel telling hosts which executions were let in by a lane (see {@link ExecutionQueue.admit}). */
const LET_IN = 'lanes:let-in';
/** BullMQ job states before a worker takes the job. */
const WAITING_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);
const JOB_OPTIONS = { attempts: 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: { age: 3600, count: 10000 }, removeOnFail: { age: 7 * 86400 } };

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
  /**
   * Runs a woken execution (its `wait` ended on this host) once its flow's lanes give it places again, as
   * a job would be: it waits here, holding no worker slot, until a place is handed to it (told over the
   * cluster) or its park delay passes, then asks again. Without rules, `run` starts at once. `onPark` is
   * called each time it is parked, before it waits.
   */
  admit<T>(job: Pick<RunJob, 'executionId' | 'workflow' | 'input'>, run: () => Promise<T>, onPark?: () => void): Promise<T>;
  /**
   * Delivers an execution of a flow with `settings.debounce` (CONTRACT 20) to every host's burst of its key:
   * the first delivery of a burst is its run, a job delayed until `period` after the burst's last delivery
   * (at most `maxWait` after its first); a later one joins it, and the run takes its input. Which delivery
   * leads and which input runs is decided in one Lua step in Redis, whichever hosts the deliveries reach.
   * `stored` stores the delivery's own record (the run's `queued` one, or a `debounced` one) before the
   * run's job is made sure of. Resolves with the run's id and whether it is this delivery's.
   */
  debounce(delivery: BurstDelivery, stored: (run: { runId: string; lead: boolean }) => Promise<void>): Promise<{ runId: string; lead: boolean }>;
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
 * const queue = createExecutionQueue({ settings: config.queue, cluster, expressions, maxCrashes: 3 })
 * queue.work({ run: (r) => weir.executor.run(r), finished: (id) => weir.executions.get(id), unfinished: (id) => weir.executions.open.get(id).then((e) => e && weir.executions.open.real(e.record)) })
 * const record = await queue.run({ workflow, input, trigger: 'webhook' })
 */
export function createExecutionQueue(options: { settings: QueueSettings; cluster: Cluster; expressions: Pick<Expressions, 'template'>; maxCrashes?: number }): ExecutionQueue {
  const { settings, cluster, expressions, maxCrashes = DEFAULT_MAX_CRASHES } = options;
  if (settings.driver !== 'bullmq') {
    throw new WeirError('INVALID_CONFIG', `queue.driver must be "bullmq", got ${JSON.stringify(settings.driver)}`);
  }
  const url = settings.url ?? cluster.url;
  const prefix = settings.prefix ?? cluster.prefix;
  const concurrency = Math.max(1, Math.floor(settings.concurrency ?? 10));
  const stalledMs = Math.max(1000, settings.stalledMs ?? 30000);
  const connections: Redis[] = [];
  const replies = createReplies(cluster);
  const letIn = createLetIn(cluster, LET_IN);
  let opened: Promise<Opened> | null = null;
  let worker: Promise<Worker> | undefined;
  let closed: Promise<void> | undefined;

  /** Loads BullMQ and opens the queue's connection, once. */
  const open = (): Promise<Opened> =>
    (opened ??= (async () => {
      const { Queue, Worker, DelayedError } = await loadOptional('bullmq', 'The execution queue (queue.driver "bullmq")', () => import('bullmq'));
      const { Redis } = await loadOptional('ioredis', 'The execution queue (queue.driver "bullmq")', () => import('ioredis'));
      const connect = () => {
        const r = new Redis(url, { maxRetriesPerRequest: null });
        connections.push(r);
        return r;
      };
      const queue = new Queue(QUEUE_NAME, { connection: connect(), prefix });
      // A slot's lease lapses like a job's lock: a worker gone for `stalledMs` holds neither.
      const coordination = connect();
      const lanes = createRedisLanes(coordination, `${prefix}:weir`, { leaseMs: stalledMs });
      // A place handed over goes to a parked job, or to a woken execution waiting on some host.
      const promote = async (id: string) => {
        await cluster.publish(LET_IN, id);
        await (await queue.getJob(id))?.promote();
      };
      const bursts = createRedisBursts(coordination, `${prefix}:weir`);
      return { queue, gate: createGate({ lanes, expressions, promote, letIn }), bursts, Worker, DelayedError, connect };
    })());

  const submit: ExecutionQueue['submit'] = async (request, { wait = true, waitMs } = {}) => {
    const executionId = request.executionId ?? newExecutionId();
    const waiting = wait ? await replies.expect(executionId, request.onRespond, waitMs) : null;
    const job: RunJob = { executionId, workflow: request.workflow, input: request.input, trigger: request.trigger, ...(waiting ? { replyTo: replies.channel } : {}) };
    let gated = false;
    try {
      const { queue, gate } = await open();
      // In line before the job is stored: a worker taking it at once finds it there, in its turn.
      if ((gated = gate.applies(job))) await gate.arrive(job);
      await queue.add('run', job, { jobId: executionId, ...JOB_OPTIONS });
    } catch (err) {
      waiting?.cancel();
      if (gated) await (await open()).gate.leave(job).catch(() => {});
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
      const { queue, gate, bursts } = await open();
      const job = await queue.getJob(executionId);
      if (!job) return null;
      const data = job.data as RunJob;
      const burst = burstOf(data);
      const state = await job.getState();
      const waiting = WAITING_STATES.has(state);
      // A burst's run goes with its burst, even from a worker's hands (it is looking at the burst's time):
      // the next delivery opens another burst, and that worker, finding none, does not run it.
      if (burst && (waiting || state === 'active')) await bursts.drop(burst, executionId);
      if (!waiting) return state === 'active' ? 'started' : null;
      // A worker may take the job between the state read and the removal: BullMQ then refuses (locked).
      if (!(await job.remove().then(() => true, () => false))) return 'started';
      // A job parked by its flow's rules leaves its place in line (or the place handed to it) to the next.
      if (!burst && gate.applies(data)) await gate.leave(data);
      const record = await finish(data);
      // No worker will reply for a job taken back, so the host waiting for it is told here. The execution is
      // cancelled even when the message cannot go out: that caller is then answered by its timeout.
      await replies.send(data.replyTo, { id: executionId, kind: 'end', record }).catch(() => {});
      return record;
    },
    async admit(job, run, onPark) {
      return (await open()).gate.admit(job, run, onPark);
    },
    async debounce(delivery, stored) {
      const { record, workflow, key } = delivery;
      try {
        const { queue, bursts } = await open();
        const { runId, lead, dueInMs } = await bursts.deliver(delivery);
        await stored({ runId, lead });
        // A no-op once the run's job is stored (the same job id); made here by every delivery so a burst whose
        // first delivery's host died before storing it still runs. Its delay is only the first look: a worker
        // taking it before the burst is due parks it again until then.
        const job: RunJob = { executionId: runId, workflow, input: record.input, trigger: record.trigger, debounce: { key } };
        await queue.add('run', job, { jobId: runId, delay: dueInMs, ...JOB_OPTIONS });
        return { runId, lead };
      } catch (err) {
        if (err instanceof WeirError) throw err;
        throw new WeirError('UNAVAILABLE', `cannot deliver execution ${record.id} of debounced flow ${workflow.name}: ${(err as Error).message}`, { cause: err });
      }
    },
    async open() {
      await open();
    },
    async work(work) {
      worker ??= open().then((opened) => startWorker(work, opened, { replies, prefix, concurrency, stalledMs, maxCrashes }));
      await worker;
    },
    close() {
      return (closed ??= (async () => {
        await worker?.then((w) => w.close(), () => {});
        await (await opened?.catch(() => null))?.queue.close();
        replies.close();
        letIn.close();
        await Promise.all(connections.map((r) => r.quit().catch(() => {})));
      })());
    },
  };
}
