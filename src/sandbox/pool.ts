import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WeirError } from '../errors.js';
import { LONG_RUN_MS, type EngineOptions, type Job, type Reply, type WorkerAnswer } from './engine.js';
import { limitError } from './limits.js';

export interface PoolOptions extends EngineOptions {
  /** How many worker threads may run at once. */
  size: number;
}

interface Task {
  job: Job;
  resolve(reply: Reply): void;
  reject(err: WeirError): void;
  /** Settled already (cancelled while waiting in a worker): its reply, when it comes, is dropped. */
  settled?: boolean;
  /** Drops the hook that cancels it (set when the caller can cancel). */
  forget?(): void;
}

/** A started worker and the jobs sent to it, in order: the first is running, the others wait in its inbox. */
interface Slot {
  worker: Worker;
  tasks: Task[];
  /** When the running job started. */
  since: number;
  /** Jobs dispatched this turn of the event loop, sent together at its end. */
  outbox: Job[];
}

// A worker answers within its own CPU limit; past it by this much (room for a fresh worker to start and load
// QuickJS on a busy machine), the worker is stuck and is replaced.
const GRACE_MS = 5000;
// A job may wait in a busy worker's inbox (up to this many behind the running one) rather than wake an idle
// worker: the worker then goes from job to job without sleeping, and jobs sent in one turn travel in one
// message; on a busy machine each wake-up costs more than the send itself. Only behind a job that started
// less than LONG_RUN_MS ago, and a job that runs longer hands the ones behind it back (see WorkerAnswer), so
// no job waits behind one that spins to its CPU limit. Deep enough that a worker rarely empties its inbox
// under load: an empty one sleeps until the host has taken its replies and sent more.
const MAX_QUEUED_PER_WORKER = 8;
// How often busy workers are checked for being stuck: one interval for the pool rather than a timer armed and
// cleared per job.
const SWEEP_MS = 1000;

/** How busy the pool is (`Sandbox.load()`). */
export interface SandboxLoad {
  workers: number;
  busy: number;
  queued: number;
}

/**
 * A pool of sandbox worker threads, started on demand up to `size`. Jobs wait in order when all are busy. A
 * worker that is cancelled, stuck past its limit or that dies is terminated and replaced by a fresh one on
 * the next job, and the jobs waiting in its inbox go back to the front of the queue; an idle pool keeps no
 * process alive.
 * @example
 * const pool = createPool({ size: 2, memoryMb: 32, maxOutputBytes: 4 << 20 })
 * const reply = await pool.run(['return 1', '{}', 1000, 100, 65536]) // '1'
 * await pool.close()
 */
export function createPool({ size, ...engine }: PoolOptions) {
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let closed = false;
  let sweeper: NodeJS.Timeout | undefined;
  let sending = false;
  const spawn = (): Slot => {
    const slot: Slot = { worker: startWorker(engine), tasks: [], since: 0, outbox: [] };
    slot.worker.unref();
    slot.worker.on('message', (answer: WorkerAnswer) => {
      if (typeof answer === 'number') handedBack(slot, answer);
      else for (const reply of answer) finished(slot, reply);
    });
    slot.worker.on('error', (err) => failed(slot, workerFailure(err, slot.tasks[0]?.job[2] ?? 0, engine)));
    slot.worker.on('exit', () => failed(slot, limitError('broken', { ...engine, cpuMs: slot.tasks[0]?.job[2] ?? 0 })));
    slots.push(slot);
    return slot;
  };
  /** Ends a worker: its running job fails with `error`, the jobs in its inbox go back to the queue. */
  const discard = (slot: Slot, error: WeirError | null) => {
    const at = slots.indexOf(slot);
    if (at < 0) return;
    slots.splice(at, 1);
    const [running, ...waiting] = slot.tasks;
    if (running && error) settle(running, () => running.reject(error));
    queue.unshift(...waiting.filter((t) => !t.settled));
    void slot.worker.terminate();
    next();
  };
  const failed = (slot: Slot, error: WeirError) => discard(slot, error);
  /** The `count` jobs behind the running one came back unrun: they go first to the next free worker. */
  const handedBack = (slot: Slot, count: number) => {
    queue.unshift(...slot.tasks.splice(1, count).filter((t) => !t.settled));
    next();
  };
  const finished = (slot: Slot, reply: Reply) => {
    const task = slot.tasks.shift();
    if (task) settle(task, () => task.resolve(reply));
    if (slot.tasks.length) started(slot);
    else if (closed) discard(slot, null);
    else slot.worker.unref();
    next();
  };
  const settle = (task: Task, how: () => void) => {
    if (task.settled) return;
    task.settled = true;
    task.forget?.();
    how();
  };
  /** The slot's first job is running from now: it must answer within its CPU limit and the grace. */
  const started = (slot: Slot) => {
    slot.since = Date.now();
    sweeper ??= setInterval(sweep, SWEEP_MS).unref();
  };
  /** Replaces the workers stuck past their running job's limit; stops once no worker is busy. */
  const sweep = () => {
    const now = Date.now();
    for (const slot of slots.filter((s) => s.tasks.length && now > s.since + s.tasks[0].job[2] + GRACE_MS)) {
      discard(slot, limitError('cpu', { ...engine, cpuMs: slot.tasks[0].job[2] }));
    }
    if (!slots.some((s) => s.tasks.length)) sweeper = void clearInterval(sweeper);
  };
  const free = () =>
    slots.find((s) => s.tasks.length > 0 && s.tasks.length <= MAX_QUEUED_PER_WORKER && Date.now() - s.since < LONG_RUN_MS) ??
    slots.find((s) => s.tasks.length === 0) ??
    (slots.length < size ? spawn() : undefined);
  const next = () => {
    for (let slot = queue.length ? free() : undefined; slot && queue.length; slot = queue.length ? free() : undefined) {
      dispatch(slot, queue.shift()!);
    }
  };
  const dispatch = (slot: Slot, task: Task) => {
    // A busy worker keeps the process alive: the caller is waiting for its answer.
    slot.worker.ref();
    slot.tasks.push(task);
    if (slot.tasks.length === 1) started(slot);
    slot.outbox.push(task.job);
    if (!sending) {
      sending = true;
      setImmediate(send);
    }
  };
  /** Sends each worker the jobs dispatched to it this turn, as one list. */
  const send = () => {
    sending = false;
    for (const slot of slots) {
      if (slot.outbox.length) slot.worker.postMessage(slot.outbox.splice(0));
    }
  };
  /**
   * A cancelled job: one running stops with its worker; one waiting in an inbox is dropped when its reply
   * comes; one not sent yet (cancelled in the turn it was dispatched) is taken out, and its worker stays.
   */
  const cancel = (task: Task) => {
    const queued = queue.indexOf(task);
    if (queued >= 0) queue.splice(queued, 1);
    settle(task, () => task.reject(cancelled()));
    const slot = slots.find((s) => s.tasks.includes(task));
    if (!slot) return;
    const unsent = slot.outbox.indexOf(task.job);
    if (unsent < 0) {
      if (slot.tasks[0] === task) discard(slot, null);
      return;
    }
    // Unsent jobs are the last of the slot's tasks, so taking one out keeps tasks and replies in step.
    slot.outbox.splice(unsent, 1);
    const at = slot.tasks.indexOf(task);
    slot.tasks.splice(at, 1);
    if (!slot.tasks.length) slot.worker.unref();
    else if (at === 0) started(slot);
    next();
  };

  return {
    /** Runs a job on the next free worker; `onCancel` registers how to cancel it (called at once if already cancelled). */
    run(job: Job, onCancel?: (stop: () => void) => () => void): Promise<Reply> {
      if (closed) return Promise.reject(new WeirError('UNAVAILABLE', 'code: the sandbox is closed'));
      return new Promise((resolve, reject) => {
        const task: Task = { job, resolve, reject };
        queue.push(task);
        if (onCancel) task.forget = onCancel(() => cancel(task));
        next();
      });
    },
    /** Worker threads started, those running a job, and jobs waiting (in the queue or behind a running one). */
    load(): SandboxLoad {
      let busy = 0;
      let queued = queue.length;
      for (const slot of slots) {
        if (slot.tasks.length) busy++;
        queued += Math.max(0, slot.tasks.length - 1);
      }
      return { workers: slots.length, busy, queued };
    },
    /** Stops every idle worker, and each busy one once its jobs end; waiting jobs fail. */
    async close(): Promise<void> {
      closed = true;
      for (const task of queue.splice(0)) settle(task, () => task.reject(new WeirError('UNAVAILABLE', 'code: the sandbox is closed')));
      await Promise.all(slots.filter((s) => !s.tasks.length).map((s) => (slots.splice(slots.indexOf(s), 1), s.worker.terminate())));
    },
  };
}

const cancelled = () => new WeirError('CANCELLED', 'code: cancelled');

/** Why a worker died: a missing entry file is an installation problem, anything else ends the run as broken. */
function workerFailure(err: unknown, cpuMs: number, engine: EngineOptions): WeirError {
  if (/MODULE_NOT_FOUND$/.test((err as { code?: string } | undefined)?.code ?? '')) {
    return new WeirError('INTERNAL', `the Code node sandbox could not start: ${(err as Error).message}`, { hints: ['keep sandbox-worker.js next to the weir bundle'] });
  }
  return limitError('broken', { ...engine, cpuMs });
}

/**
 * Starts one worker thread. Built, its entry is `sandbox-worker.js` next to this bundle; run from the
 * TypeScript sources (the tests), the entry is `worker.ts`, loaded through the same TypeScript loader.
 */
function startWorker(workerData: EngineOptions): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./sandbox-worker.js', here), { workerData });
  const loader = tsxLoader(here);
  const entry = new URL('./worker.ts', here).href;
  const source = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`;
  return new Worker(source, { eval: true, workerData });
}

/**
 * The ESM entry of tsx's loader API, found as `import.meta.resolve('tsx/esm/api')` would find it: the CommonJS
 * build's shims give `import.meta` only its `url`, and `require.resolve` would pick the CommonJS entry.
 */
function tsxLoader(from: string): string {
  const require = createRequire(from);
  const manifest = require.resolve('tsx/package.json');
  const { exports } = require(manifest) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api'].import.default)).href;
}
