import type { Queue, Worker } from 'bullmq';
import { newExecutionId, startTimeOf } from '../resources/executions/ids.js';
import type { Redis } from 'ioredis';
import type { Cluster } from '../cluster/index.js';
import { WeirError } from '../errors.js';
import { loadOptional } from '../util/optional.js';
import { crashedError, DEFAULT_MAX_CRASHES } from '../runtime/poison.js';
import { createReplies } from './replies.js';
import type { Expressions } from '../expr/index.js';
import { createGate, type Gate } from './gate.js';
import { createLetIn, createRedisLanes } from './lanes.js';
import { burstOf, createRedisBursts, type RedisBursts } from './bursts.js';
import type { BurstDelivery, ExecutionRecord, QueueSettings, RunJob, RunOptions } from './types.js';

export type * from './types.js';

/** The BullMQ queue every host of an organization shares. */
const QUEUE_NAME = 'executions';
/** The cluster channel telling hosts which executions were let in by a lane (see {@link ExecutionQueue.admit}). */
const LET_IN = 'lanes:let-in';
const FINISHED = new Set(['success', 'error', 'cancelled', 'debounced']);
/** BullMQ job states before a worker takes the job. */
const WAITING_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);
const JOB_OPTIONS = { attempts: 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: { age: 3600, count: 10000 }, removeOnFail: { age: 7 * 86400 } };

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
interface Opened {
  queue: Queue;
  /** The per-key lanes of flows with `settings.concurrency` or `settings.rateLimit`, shared by the workers. */
  gate: Gate;
  /** The open bursts of flows with `settings.debounce`, shared by every host. */
  bursts: RedisBursts;
  Worker: typeof import('bullmq').Worker;
  DelayedError: typeof import('bullmq').DelayedError;
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
  /**
   * Runs a woken execution (its `wait` ended on this host) once its flow's lanes give it places again, as
   * a job would be: it waits here, holding no worker slot, until a place is handed to it (told over the
   * cluster) or its park delay passes, then asks again. Without rules, `run` starts at once.
   */
  admit<T>(job: Pick<RunJob, 'executionId' | 'workflow' | 'input'>, run: () => Promise<T>): Promise<T>;
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
    async admit(job, run) {
      return (await open()).gate.admit(job, run);
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
      worker ??= open().then((opened) => startWorker(work, opened));
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

  function startWorker(work: WorkOptions, { Worker, DelayedError, connect, gate, bursts }: Opened): Worker {
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
}
