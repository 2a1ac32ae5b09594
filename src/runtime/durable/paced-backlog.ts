import { performance } from 'node:perf_hooks';
import type { ExecutionLimiter } from '../execution-limiter.js';
import { arrayFifo, type Fifo } from '../fifo.js';

/** Options of {@link createPacedBacklog}. */
export interface PacedBacklogOptions<T> {
  /**
   * Runs one item (reporting its own failures); the backlog counts it as running until the promise settles.
   * `release` gives its limiter slot back early (the limiter's `LimitedTask`).
   */
  start(item: T, release: () => void): Promise<unknown>;
  /** Where the items run: the backlog hands it each start, the limiter decides how many run at once. */
  limiter: Pick<ExecutionLimiter, 'feed'>;
  /** Requests per 50 ms above which intake counts as heavy (default 20, i.e. 400 per second). */
  heavyIntake?: number;
  /** Where waiting items are kept (default: an array). */
  queue?: Fifo<T>;
}

/** What {@link createPacedBacklog} returns. */
export interface PacedBacklog<T> {
  /** Queues one item; it starts when the pace and the limiter allow. */
  push(item: T): void;
  /** Counts one request taken by the intake (the pace yields to heavy intake). */
  noteIntake(): void;
  /** Items waiting plus running. */
  readonly size: number;
  /** Resolves once fewer than `size` items wait or run. */
  room(size: number): Promise<void>;
  /** Stops starting items (those running finish); what waits stays queued. */
  pause(): void;
  /** Resolves when nothing runs (and, unless paused, nothing waits). */
  idle(): Promise<void>;
  /** Stops the pace's sampler (the process may exit). */
  stop(): void;
}

/** Event-loop utilisation above which background work backs off while intake is heavy. */
const BUSY = 0.5;
const SAMPLE_MS = 50;
/** Starts per window once unthrottled again. */
const FREE = Number.POSITIVE_INFINITY;

/**
 * A FIFO of background work (accepted webhook deliveries) started at a pace that yields to the requests the
 * process is serving; how many run at once is the limiter's to bound. Every 50 ms the event-loop
 * utilisation and the intake (`noteIntake`) are sampled: when the loop is busy with heavy intake, the items
 * started per window halve (down to one per window, so the backlog always moves); while intake stays heavy
 * on a loop with room they grow by half per window, once intake is light they double, up to unlimited. A
 * burst of deliveries is answered at intake speed and executed with whatever capacity the intake leaves;
 * without intake the backlog starts items as fast as the limiter takes them, however busy its own work
 * keeps the loop.
 * @example
 * const backlog = createPacedBacklog({ start: (d) => run(d), limiter })
 * backlog.push(delivery)
 * await backlog.idle()
 */
export function createPacedBacklog<T>(options: PacedBacklogOptions<T>): PacedBacklog<T> {
  const queue = options.queue ?? arrayFifo<T>();
  const heavy = options.heavyIntake ?? 20;
  let running = 0;
  let budget = FREE;
  let started = 0;
  let arrivals = 0;
  let paused = false;
  let sampler: NodeJS.Timeout | null = null;
  let last = performance.eventLoopUtilization();
  let waiters: Array<() => void> = [];
  let roomWaiters: Array<{ size: number; go(): void }> = [];

  const wake = options.limiter.feed(() => {
    if (paused || started >= budget || !queue.length) return null;
    started++;
    running++;
    const item = queue.shift() as T;
    return async (release) => {
      try {
        await options.start(item, release);
      } catch {
        // `start` reports its own failures; one item's must not stop the others.
      } finally {
        settled();
      }
    };
  });

  function settled(): void {
    running--;
    if (!running && (paused || !queue.length)) waiters.splice(0).forEach((w) => w());
    if (roomWaiters.length) {
      const size = queue.length + running;
      roomWaiters = roomWaiters.filter((w) => (size < w.size ? (w.go(), false) : true));
    }
  }

  function sample(): void {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (arrivals >= heavy && elu > BUSY) budget = Math.max(1, Math.floor(Math.min(budget, started) / 2));
    // While intake stays heavy the pace comes back gently: doubling would start bursts that take the loop
    // from the requests at its first quiet moment (measured: most of a burst then ran during its intake).
    else if (arrivals >= heavy) budget = budget + Math.max(1, budget >> 1);
    else budget = budget * 2 > 4096 ? FREE : budget * 2;
    started = 0;
    arrivals = 0;
    if (queue.length) wake();
    else if (!running && sampler) {
      clearInterval(sampler);
      sampler = null;
    }
  }

  return {
    push(item) {
      queue.push(item);
      if (!sampler) {
        last = performance.eventLoopUtilization();
        arrivals = 0;
        sampler = setInterval(sample, SAMPLE_MS);
        sampler.unref();
      }
      wake();
    },
    noteIntake() {
      arrivals++;
    },
    get size() {
      return queue.length + running;
    },
    room(size) {
      if (queue.length + running < size) return Promise.resolve();
      return new Promise((go) => roomWaiters.push({ size, go }));
    },
    pause() {
      paused = true;
    },
    idle() {
      if (!running && (paused || !queue.length)) return Promise.resolve();
      return new Promise((r) => waiters.push(r));
    },
    stop() {
      paused = true;
      if (sampler) clearInterval(sampler);
      sampler = null;
    },
  };
}
