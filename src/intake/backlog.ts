import { performance } from 'node:perf_hooks';

/** Options of {@link createBacklog}. */
export interface BacklogOptions<T> {
  /** Runs one item; the backlog counts it as running until the promise settles. */
  start(item: T): Promise<unknown>;
  /** Items running at once when the process is idle (default 32). */
  maxConcurrency?: number;
  /** Items running at once however busy the process is (default 1), so the backlog always moves. */
  minConcurrency?: number;
  /** Requests per 50 ms above which intake counts as heavy (default 20, i.e. 400 per second). */
  heavyIntake?: number;
  /** Where waiting items are kept (default: an array). */
  queue?: Fifo<T>;
}

/** A first-in first-out store of waiting items. */
export interface Fifo<T> {
  push(item: T): void;
  shift(): T | undefined;
  readonly length: number;
}

/** A FIFO over an array that drops its consumed front now and then instead of shifting on every item. */
export function arrayFifo<T>(): Fifo<T> {
  let items: T[] = [];
  let head = 0;
  return {
    push: (item) => void items.push(item),
    shift() {
      if (head >= items.length) return undefined;
      const item = items[head++];
      if (head > 1024 && head * 2 > items.length) {
        items = items.slice(head);
        head = 0;
      }
      return item;
    },
    get length() {
      return items.length - head;
    },
  };
}

/** Event-loop utilisation above which background work backs off while intake is heavy. */
const BUSY = 0.5;
const SAMPLE_MS = 50;
/** Starts per window once unthrottled again. */
const FREE = Number.POSITIVE_INFINITY;

/**
 * A FIFO of background work (accepted webhook deliveries) run at a pace that yields to the requests the
 * process is serving. Every 50 ms the event-loop utilisation and the intake (`noteIntake`) are sampled:
 * when the loop is busy with heavy intake, the items run at once and the items started per window halve
 * (down to `minConcurrency` and one per window), otherwise both grow back to unlimited. A burst of
 * deliveries is answered at intake speed and executed with whatever capacity the intake leaves; without
 * intake the backlog runs at full speed however busy its own work keeps the loop.
 * @example
 * const backlog = createBacklog({ start: (d) => run(d) })
 * backlog.push(delivery)
 * await backlog.idle()
 */
export function createBacklog<T>(options: BacklogOptions<T>) {
  const max = options.maxConcurrency ?? 32;
  const min = options.minConcurrency ?? 1;
  const queue = options.queue ?? arrayFifo<T>();
  let running = 0;
  let limit = max;
  let budget = FREE;
  let started = 0;
  let arrivals = 0;
  const heavy = options.heavyIntake ?? 20;
  let paused = false;
  let sampler: NodeJS.Timeout | null = null;
  let last = performance.eventLoopUtilization();
  let waiters: Array<() => void> = [];
  let roomWaiters: Array<{ size: number; go(): void }> = [];

  const pending = () => queue.length;

  function sample(): void {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (elu > BUSY && arrivals >= heavy) {
      limit = Math.max(min, limit >> 1);
      budget = Math.max(1, Math.floor(Math.min(budget, started) / 2));
    } else {
      limit = Math.min(max, limit + Math.max(1, limit >> 1));
      budget = budget * 2 > 4096 ? FREE : budget * 2;
    }
    started = 0;
    arrivals = 0;
    pump();
    if (!pending() && !running && sampler) {
      clearInterval(sampler);
      sampler = null;
    }
  }

  function pump(): void {
    while (!paused && running < limit && started < budget && pending()) {
      started++;
      const item = queue.shift() as T;
      running++;
      Promise.resolve()
        .then(() => options.start(item))
        .catch(() => {})
        .finally(() => {
          running--;
          pump();
          if (!running && (paused || !pending())) waiters.splice(0).forEach((w) => w());
          if (roomWaiters.length) {
            const size = pending() + running;
            roomWaiters = roomWaiters.filter((w) => (size < w.size ? (w.go(), false) : true));
          }
        });
    }
    if ((pending() || running) && !sampler) {
      last = performance.eventLoopUtilization();
      arrivals = 0;
      sampler = setInterval(sample, SAMPLE_MS);
      sampler.unref();
    }
  }

  return {
    push(item: T): void {
      queue.push(item);
      pump();
    },
    /** Counts one request taken by the intake (the pace yields to heavy intake). */
    noteIntake(): void {
      arrivals++;
    },
    /** Items waiting plus running. */
    get size(): number {
      return pending() + running;
    },
    /** Resolves once fewer than `size` items wait or run. */
    room(size: number): Promise<void> {
      if (pending() + running < size) return Promise.resolve();
      return new Promise((go) => roomWaiters.push({ size, go }));
    },
    /** Stops starting items (those running finish); what waits stays queued. */
    pause(): void {
      paused = true;
    },
    /** Resolves when nothing runs (and, unless paused, nothing waits). */
    idle(): Promise<void> {
      if (!running && (paused || !pending())) return Promise.resolve();
      return new Promise((r) => waiters.push(r));
    },
    /** Stops the sampler (the process may exit). */
    stop(): void {
      paused = true;
      if (sampler) clearInterval(sampler);
      sampler = null;
    },
  };
}
