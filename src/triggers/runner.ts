/** Options of {@link createRunner}. */
export interface RunnerOptions {
  /** Executions running at once (default 64); more wait in order. */
  concurrency?: number;
  /** Waiting executions above which `ready()` holds callers back (default 5000). */
  maxBacklog?: number;
}

/** What {@link createRunner} returns. */
export interface Runner {
  /** Runs `task` when a slot is free; resolves or rejects with its outcome. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Resolves when fewer than `maxBacklog` tasks wait (a caller that starts many waits here, not in memory). */
  ready(): Promise<void>;
  /** Resolves when nothing runs or waits (graceful shutdown). */
  drain(): Promise<void>;
  /** Running plus waiting tasks. */
  readonly size: number;
}

/**
 * Bounds and tracks the executions started outside the webhook backlog (Respond answers, interface calls,
 * schedules, telephony), so a burst cannot start thousands of flows at once and a shutdown can wait for
 * every one of them.
 * @example
 * const runner = createRunner({ concurrency: 32 })
 * const record = await runner.run(() => weir.executor.run(opts))
 * await runner.drain()
 */
export function createRunner(options: RunnerOptions = {}): Runner {
  const concurrency = options.concurrency ?? 64;
  const maxBacklog = options.maxBacklog ?? 5000;
  const waiting: Array<() => void> = [];
  let active = 0;
  let idle: Array<() => void> = [];
  let blocked: Array<() => void> = [];

  const next = () => {
    while (active < concurrency && waiting.length) {
      active++;
      waiting.shift()!();
    }
    if (waiting.length < maxBacklog && blocked.length) blocked.splice(0).forEach((f) => f());
    if (active === 0 && idle.length) idle.splice(0).forEach((f) => f());
  };

  return {
    run(task) {
      return new Promise((resolve, reject) => {
        waiting.push(() => {
          Promise.resolve()
            .then(task)
            .then(resolve, reject)
            .finally(() => {
              active--;
              next();
            });
        });
        next();
      });
    },
    ready() {
      return waiting.length < maxBacklog ? Promise.resolve() : new Promise((r) => blocked.push(r));
    },
    drain() {
      return active === 0 && waiting.length === 0 ? Promise.resolve() : new Promise((r) => idle.push(r));
    },
    get size() {
      return active + waiting.length;
    },
  };
}
