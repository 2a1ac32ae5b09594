import { createHeap } from './heap.js';

/** A clock a timer reads and arms; tests pass a fake one. */
export interface Clock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

/** setTimeout holds at most ~24.8 days; a later wake re-arms on the way. */
const MAX_DELAY = 2 ** 31 - 1;

const realClock: Clock = {
  now: Date.now,
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Options of {@link createWakeTimer}. */
export interface WakeTimerOptions {
  /** Called with each key whose time came, earliest first, while `ready()` allows. */
  due(key: string, at: number): void;
  /** False holds due keys back (wakes in flight are at their bound); `resume()` goes on. */
  ready(): boolean;
  /** Release keys this many ms before their time (default 0). */
  leadMs?: number;
  clock?: Clock;
}

/**
 * Many wake times, one timer: a min-heap of `{at, key}` and a single timer armed for the earliest, so a
 * hundred thousand waiting executions (or schedules) cost two small objects each and never a timer apiece. A key removed
 * (or added again) stays in the heap until it surfaces and is skipped then.
 * @example
 * const timer = createWakeTimer({ due: (key) => wake(key), ready: () => true })
 * timer.add('1767225600000.exec_1.wait-1', 1767225600000)
 */
export function createWakeTimer(options: WakeTimerOptions) {
  const clock = options.clock ?? realClock;
  const lead = options.leadMs ?? 0;
  const heap = createHeap<{ at: number; key: string }>((x) => x.at);
  const live = new Set<string>();
  let timer: unknown = null;
  let armedAt = Infinity;
  let stopped = false;

  function dropStale(): void {
    while (heap.size && !live.has(heap.peek()!.key)) heap.pop();
  }

  function arm(): void {
    dropStale();
    const top = heap.peek();
    if (stopped || !top) return;
    if (timer !== null && armedAt <= top.at) return;
    if (timer !== null) clock.clearTimer(timer);
    armedAt = top.at;
    timer = clock.setTimer(tick, Math.min(MAX_DELAY, Math.max(0, top.at - lead - clock.now())));
  }

  function tick(): void {
    timer = null;
    armedAt = Infinity;
    release();
  }

  /** Hands out the keys that are due, as long as the consumer is ready, then re-arms for the next. */
  function release(): void {
    const now = clock.now() + lead;
    for (;;) {
      dropStale();
      const top = heap.peek();
      if (stopped || !top || top.at > now) break;
      if (!options.ready()) return;
      heap.pop();
      live.delete(top.key);
      options.due(top.key, top.at);
    }
    arm();
  }

  return {
    /** Adds a key waking at `at` (ms since the epoch); a key already held is left as it is. */
    add(key: string, at: number): void {
      if (live.has(key)) return;
      live.add(key);
      heap.push({ at, key });
      if (!stopped && at < armedAt) arm();
    },
    /** Whether a key is held. */
    has: (key: string) => live.has(key),
    /** Forgets a key. */
    remove(key: string): void {
      live.delete(key);
    },
    /** The held keys matching `test` (a scan, for rare lookups such as a cancelled execution). */
    keys: (test: (key: string) => boolean) => [...live].filter(test),
    /** Hands out what became due while the consumer was not ready. */
    resume: (): void => {
      if (!stopped) release();
    },
    get size(): number {
      return live.size;
    },
    /** Timers armed right now: at most one. */
    get timers(): number {
      return timer === null ? 0 : 1;
    },
    stop(): void {
      stopped = true;
      if (timer !== null) clock.clearTimer(timer);
      timer = null;
    },
  };
}

export type WakeTimer = ReturnType<typeof createWakeTimer>;
