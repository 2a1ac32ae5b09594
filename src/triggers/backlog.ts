import { performance } from 'node:perf_hooks';

/** Options of {@link createBacklog}. */
export interface BacklogOptions<T> {
  /** Runs one item; the backlog counts it as running until the promise settles. */
  start(item: T): Promise<unknown>;
  /** Items running at once when the process is idle (default 32). */
  maxConcurrency?: number;
  /** Items running at once however busy the process is (default 1), so the backlog always moves. */
  minConcurrency?: number;
  /** Called when an item waits in the queue beyond this many (drop what can be read back later). */
  onDeep?(item: T): void;
  /** Queue length beyond which `onDeep` is called (default 1000). */
  deep?: number;
}

/** Event-loop utilisation above which background work backs off. */
const BUSY = 0.85;
const SAMPLE_MS = 50;

/**
 * A FIFO of background work (accepted webhook deliveries) run at a pace that yields to the requests the
 * process is serving: every 50 ms the event-loop utilisation is sampled; when the loop is busy the number
 * of items run at once halves (down to `minConcurrency`), when it has room it grows again. A burst of
 * deliveries is therefore answered at intake speed and executed as fast as the spare capacity allows.
 * @example
 * const backlog = createBacklog({ start: (d) => run(d) })
 * backlog.push(delivery)
 * await backlog.idle()
 */
export function createBacklog<T>(options: BacklogOptions<T>) {
  const max = options.maxConcurrency ?? 32;
  const min = options.minConcurrency ?? 1;
  const deep = options.deep ?? 1000;
  const queue: T[] = [];
  let head = 0;
  let running = 0;
  let limit = max;
  let paused = false;
  let sampler: NodeJS.Timeout | null = null;
  let last = performance.eventLoopUtilization();
  let waiters: Array<() => void> = [];
  let roomWaiters: Array<{ size: number; go(): void }> = [];

  const pending = () => queue.length - head;

  function sample(): void {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    limit = elu > BUSY ? Math.max(min, limit >> 1) : Math.min(max, limit + Math.max(1, limit >> 1));
    pump();
    if (!pending() && !running && sampler) {
      clearInterval(sampler);
      sampler = null;
    }
  }

  function pump(): void {
    while (!paused && running < limit && pending()) {
      const item = queue[head++];
      // Drop the consumed front now and then instead of shifting on every item.
      if (head > 1024 && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
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
      sampler = setInterval(sample, SAMPLE_MS);
      sampler.unref();
    }
  }

  return {
    push(item: T): void {
      queue.push(item);
      if (pending() > deep) options.onDeep?.(item);
      pump();
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
