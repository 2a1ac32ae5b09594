import { Worker } from 'node:worker_threads';
import { WeirError } from '../errors.js';
import type { EngineOptions, Job, Reply } from './engine.js';
import { limitError } from './limits.js';

export interface PoolOptions extends EngineOptions {
  /** How many worker threads may run at once. */
  size: number;
}

interface Task {
  job: Job;
  signal?: AbortSignal;
  resolve(reply: Reply): void;
  reject(err: WeirError): void;
}

// A worker answers within its own CPU limit; past it by this much (room for a fresh worker to start and load
// QuickJS on a busy machine), the worker is stuck and is replaced.
const GRACE_MS = 5000;

/**
 * A pool of sandbox worker threads, started on demand up to `size`. Jobs wait in order when all are busy. A
 * worker that is cancelled, stuck past its limit or that dies is terminated and replaced by a fresh one on
 * the next job; an idle pool keeps no process alive.
 * @example
 * const pool = createPool({ size: 2, memoryMb: 32, maxOutputBytes: 4 << 20 })
 * const reply = await pool.run({ code: 'return 1', globals: {}, cpuMs: 1000, logLimits: { lines: 100, chars: 65536 } })
 * await pool.close()
 */
export function createPool({ size, ...engine }: PoolOptions) {
  const idle: Worker[] = [];
  const queue: Task[] = [];
  let started = 0;
  let closed = false;

  const spawn = () => {
    started++;
    const worker = startWorker(engine);
    worker.unref();
    // An idle worker that dies leaves the pool; its error is not the host's (a busy one is handled per job).
    worker.on('error', () => {});
    worker.once('exit', () => {
      const at = idle.indexOf(worker);
      if (at < 0) return;
      idle.splice(at, 1);
      started--;
    });
    return worker;
  };
  const release = (worker: Worker) => {
    if (closed) return void worker.terminate();
    worker.unref();
    idle.push(worker);
    next();
  };
  const discard = (worker: Worker) => {
    started--;
    void worker.terminate();
    next();
  };
  const next = () => {
    while (queue.length && (idle.length || started < size)) {
      dispatch(idle.pop() ?? spawn(), queue.shift()!);
    }
  };
  const dispatch = (worker: Worker, task: Task) => {
    // A busy worker keeps the process alive: the caller is waiting for its answer.
    worker.ref();
    const finish = (settle: () => void, keep: boolean) => {
      clearTimeout(timer);
      task.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onFailure).off('exit', onFailure);
      settle();
      if (keep) release(worker);
      else discard(worker);
    };
    const onMessage = (reply: Reply) => finish(() => task.resolve(reply), true);
    const onFailure = (err?: unknown) => finish(() => task.reject(workerFailure(err, task.job.cpuMs, engine)), false);
    const onAbort = () => finish(() => task.reject(cancelled()), false);
    const timer = setTimeout(() => finish(() => task.reject(limitError('cpu', { ...engine, cpuMs: task.job.cpuMs })), false), task.job.cpuMs + GRACE_MS);
    worker.once('message', onMessage).once('error', onFailure).once('exit', onFailure);
    task.signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(task.job);
  };

  return {
    /** Runs a job on the next free worker. */
    run(job: Job, signal?: AbortSignal): Promise<Reply> {
      if (closed) return Promise.reject(new WeirError('UNAVAILABLE', 'code: the sandbox is closed'));
      if (signal?.aborted) return Promise.reject(cancelled());
      return new Promise((resolve, reject) => {
        const task = { job, signal, resolve, reject };
        // Cancelled while waiting for a worker: it leaves the queue at once.
        signal?.addEventListener('abort', () => {
          const at = queue.indexOf(task);
          if (at < 0) return;
          queue.splice(at, 1);
          reject(cancelled());
        }, { once: true });
        queue.push(task);
        next();
      });
    },
    /** Stops every idle worker, and each busy one once its job ends; waiting jobs fail. */
    async close(): Promise<void> {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new WeirError('UNAVAILABLE', 'code: the sandbox is closed'));
      await Promise.all(idle.splice(0).map((w) => w.terminate()));
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
  const loader = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', here).href;
  const source = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`;
  return new Worker(source, { eval: true, workerData });
}
