import { arrayFifo, type Fifo } from '../fifo.js';

/** One execution waiting in a lane: `enter` is called once its turn comes (its place is then taken for it). */
export interface Waiter {
  id: string;
  enter(): void;
  /** Set by a cancel: the lane skips it. */
  gone?: boolean;
}

/** A line of executions for one rule and key: at most so many at once, or so many starts per period. */
export interface Lane {
  /** Takes a place when one is free and nobody waits before; true when taken. */
  take(): boolean;
  /** Waits in line, in arrival order, until {@link Waiter.enter}. */
  wait(waiter: Waiter): void;
  /** Gives a place back (a concurrency slot; a start of a rate window is never given back). */
  free(): void;
  /** True when forgetting the lane changes nothing: none holds a place, waits, or counts in a window. */
  idle(now: number): boolean;
  /** The rule's bound, set again on each admission (a flow published with another limit). */
  limit: number;
}

/** Calls the next waiters that are not gone while `room()` says there is room; false once the line is empty. */
function admitWhile(line: Fifo<Waiter>, room: () => boolean, take: () => void): boolean {
  while (line.length && room()) {
    const next = line.shift()!;
    if (next.gone) continue;
    take();
    next.enter();
  }
  return line.length > 0;
}

/**
 * At most `limit` executions at once. The count lives in the process that runs them: a process that dies
 * frees its places with it (a lease held for the life of the process), and the executions it held are
 * resumed, or started, by the next one, which takes places for them again.
 * @example
 * const lane = concurrencyLane(2)
 * lane.take() && lane.take() // true: both run
 * lane.take() // false: lane.wait({ id, enter }) until one calls lane.free()
 */
export function concurrencyLane(limit: number): Lane {
  let running = 0;
  const line = arrayFifo<Waiter>();
  const lane: Lane = {
    limit,
    take() {
      if (line.length || running >= lane.limit) return false;
      running++;
      return true;
    },
    wait: (waiter) => line.push(waiter),
    free() {
      running--;
      admitWhile(line, () => running < lane.limit, () => running++);
    },
    idle: () => running <= 0 && !line.length,
  };
  return lane;
}

/**
 * At most `limit` starts in any `periodMs`: a sliding window over the start times of the last period (older
 * ones are dropped as they age out); a waiter starts once the oldest ages out, one timer per lane.
 * @example
 * const lane = rateLane(5, 1000)
 * lane.take() // true five times within a second, then false: lane.wait(...) enters when a start ages out
 */
export function rateLane(limit: number, periodMs: number, now: () => number = Date.now): Lane {
  let starts: number[] = [];
  let head = 0;
  const line = arrayFifo<Waiter>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const room = () => {
    const at = now();
    while (head < starts.length && at - starts[head] >= periodMs) head++;
    if (head > 1024 && head * 2 > starts.length) {
      starts = starts.slice(head);
      head = 0;
    }
    return starts.length - head < lane.limit;
  };
  const started = () => void starts.push(now());
  const tick = () => {
    timer = null;
    if (admitWhile(line, room, started)) arm();
  };
  const arm = () => {
    if (timer) return;
    timer = setTimeout(tick, head < starts.length ? Math.max(0, starts[head] + periodMs - now()) : 0);
  };
  const lane: Lane = {
    limit,
    take() {
      if (line.length || !room()) return false;
      started();
      return true;
    },
    wait(waiter) {
      line.push(waiter);
      arm();
    },
    free() {},
    idle: (at) => !line.length && (head >= starts.length || at - starts[starts.length - 1] >= periodMs),
  };
  return lane;
}
