/** Options of {@link createExecutionLimiter}. */
export interface ExecutionLimiterOptions {
  /** Executions running at once (default 64); more wait in order. */
  concurrency?: number;
  /** Waiting executions above which `ready()` holds callers back (default 5000). */
  maxBacklog?: number;
  /**
   * Start executions submitted during one event-loop turn together, in its check phase (default true),
   * rather than each as it is submitted. See {@link createExecutionLimiter}.
   */
  startInBatches?: boolean;
}

/**
 * One execution to run in a slot. It may call `release` once it no longer runs any node (only its record is
 * left to store): the slot then goes to the next execution, while `drain` still waits for this one to settle.
 */
export type LimitedTask<T> = (release: () => void) => Promise<T>;

/**
 * Where a feed's next execution comes from: a task to start in a free slot, or null when the feed has none
 * to start now. The task settles when the execution has ended; its outcome is the feed's to handle.
 */
export type TakeNext = () => LimitedTask<void> | null;

/** What {@link createExecutionLimiter} returns. */
export interface ExecutionLimiter {
  /** Runs `task` when a slot is free; resolves or rejects with its outcome. */
  run<T>(task: LimitedTask<T>): Promise<T>;
  /**
   * Lets a queue that keeps its own items (the delivery backlog) start them in free slots: `takeNext` is
   * asked whenever a slot is free, taking turns with the callers of `run`. Returns `wake`, to call when the
   * feed has something to start again after answering null; it is asked at the next batch.
   */
  feed(takeNext: TakeNext): () => void;
  /** Resolves when fewer than `maxBacklog` callers of `run` wait (one that starts many waits here, not in memory). */
  ready(): Promise<void>;
  /** Resolves when nothing runs or waits (graceful shutdown). */
  drain(): Promise<void>;
  /** Executions started and not settled (released ones included) plus callers of `run` waiting. */
  readonly size: number;
  /** Callers of `run` waiting for a slot. */
  readonly queued: number;
}

/** Released executions (waiting for their records to be written) allowed per slot. */
export const RELEASED_PER_SLOT = 16;

/**
 * The one bound on how many executions run at once on this process, whatever started them (the delivery
 * backlog, Respond answers, interface calls, schedules, telephony), so a burst cannot start thousands of
 * flows at once and a shutdown can wait for every one of them. When callers wait and a feed has work, freed
 * slots alternate between the two, so neither starves the other.
 *
 * Executions start in batches: those submitted while the event loop reads requests start together once it
 * has read every ready one (`setImmediate`), so a busy host parses a run of requests, then executes a run of
 * flows, then writes a run of answers, instead of alternating the three per request: the same code over and
 * over stays in the CPU's caches (figures: docs/performance.md); a lone request waits one loop turn more.
 *
 * An execution whose nodes are done gives its slot back before its record is written (`release`): records
 * are written in batches that wait a few milliseconds for each other, and slots held through that wait
 * capped a busy host at `concurrency` executions per batch interval.
 * At most {@link RELEASED_PER_SLOT} times `concurrency` released executions wait for their writes; past that
 * a slot is held until its record is written, so a slow disk slows the starts instead of filling memory.
 * @example
 * const limiter = createExecutionLimiter({ concurrency: 32 })
 * const record = await limiter.run(() => weir.executor.run(opts))
 * await limiter.drain()
 */
export function createExecutionLimiter(options: ExecutionLimiterOptions = {}): ExecutionLimiter {
  const concurrency = options.concurrency ?? 64;
  const maxReleased = concurrency * RELEASED_PER_SLOT;
  const maxBacklog = options.maxBacklog ?? 5000;
  const inBatches = options.startInBatches ?? true;
  const waiting: Array<() => void> = [];
  const feeds: TakeNext[] = [];
  let feedsFirst = false;
  // Slots taken, and executions that gave theirs back but have not settled yet.
  let active = 0;
  let released = 0;
  let startScheduled = false;
  let idle: Array<() => void> = [];
  let blocked: Array<() => void> = [];

  /** Takes a slot for `task` and starts it; the slot is freed at its release or, at the latest, when it settles. */
  function launch<T>(task: LimitedTask<T>): Promise<T> {
    active++;
    let holding = true;
    const release = () => {
      if (!holding || released >= maxReleased) return;
      holding = false;
      active--;
      released++;
      next();
    };
    const settled = () => {
      if (holding) active--;
      else released--;
      holding = false;
      next();
    };
    const out = Promise.resolve(release).then(task);
    out.then(settled, settled);
    return out;
  }

  /** Starts one task of a feed, if any has one. */
  const startFed = (): boolean => {
    for (const takeNext of feeds) {
      const task = takeNext();
      if (!task) continue;
      launch(task).catch(() => {});
      return true;
    }
    return false;
  };

  const startWaiting = (): boolean => {
    const start = waiting.shift();
    if (!start) return false;
    start();
    return true;
  };

  const next = () => {
    while (active < concurrency) {
      feedsFirst = !feedsFirst;
      const started = feedsFirst ? startFed() || startWaiting() : startWaiting() || startFed();
      if (!started) break;
    }
    if (waiting.length < maxBacklog && blocked.length) blocked.splice(0).forEach((f) => f());
    if (active === 0 && released === 0 && idle.length) idle.splice(0).forEach((f) => f());
  };

  const startBatch = () => {
    startScheduled = false;
    next();
  };

  const schedule = () => {
    if (!inBatches) next();
    else if (!startScheduled) {
      startScheduled = true;
      setImmediate(startBatch);
    }
  };

  return {
    run(task) {
      return new Promise((resolve, reject) => {
        waiting.push(() => launch(task).then(resolve, reject));
        schedule();
      });
    },
    feed(takeNext) {
      feeds.push(takeNext);
      return schedule;
    },
    ready() {
      return waiting.length < maxBacklog ? Promise.resolve() : new Promise((r) => blocked.push(r));
    },
    drain() {
      return active === 0 && released === 0 && waiting.length === 0 ? Promise.resolve() : new Promise((r) => idle.push(r));
    },
    get size() {
      return active + released + waiting.length;
    },
    get queued() {
      return waiting.length;
    },
  };
}
