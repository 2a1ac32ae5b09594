import type { ExecutionRecord, RunOptions } from '../flow/types.js';
import type { ExecutionQueue } from '../queue/index.js';
import { newExecutionId } from '../resources/executions/ids.js';
import type { ErrorInfo, Outcome, TriggerEvent } from '../types/trigger.js';
import { createDeadlines } from '../util/deadlines.js';
import type { Debouncer } from './debounce.js';
import type { ExecutionLimiter } from './execution-limiter.js';
import type { Admission } from './admission/index.js';

/** The part of an execution record the triggers read. */
export type FinishedRecord = Pick<ExecutionRecord, 'id' | 'status' | 'debouncedInto'> & { result?: unknown; error?: Partial<ErrorInfo> };

/** Options of {@link createDispatcher}. */
export interface DispatcherOptions {
  /** Runs an execution on this process (the executor's `run`). */
  execute(request: RunOptions): Promise<ExecutionRecord>;
  /** Bounds the executions started here and lets a shutdown wait for them. */
  limiter: Pick<ExecutionLimiter, 'run'>;
  /** The execution queue of a cluster: executions go there instead of running here. */
  queue?: ExecutionQueue | null;
  /** Holds back executions of flows with `settings.concurrency` or `settings.rateLimit` until the rules let them start. */
  admission?: Pick<Admission, 'applies' | 'admit'>;
  /** Takes the deliveries of flows with `settings.debounce` (src/runtime/debounce.ts): they run later, collapsed. */
  debounce?: Pick<Debouncer, 'applies' | 'deliver'>;
}

/** How long a caller waits (see {@link Dispatcher.answer}). */
export interface AnswerOptions {
  /** The run answers `timeout` when neither a Respond node nor the end came within this many ms. */
  timeoutMs: number;
}

/**
 * How a run for a waiting caller came out, first of: a Respond node answered (the flow goes on), the
 * execution ended or began waiting, the caller's time ran out, or it could not be started. The trigger that
 * waits turns it into its own answer (an HTTP trigger with `httpAnswer` of src/errors.ts).
 */
export type RunAnswer =
  | { kind: 'responded'; executionId: string; response: Partial<Outcome> }
  | { kind: 'ended'; executionId: string; record: FinishedRecord }
  | { kind: 'timeout'; executionId: string; timeoutMs: number }
  | { kind: 'failed'; executionId: string; error: unknown };

/** What {@link createDispatcher} returns: the one way from a trigger event to an execution. */
export interface Dispatcher {
  /** True when executions go to the execution queue rather than run here. */
  readonly queued: boolean;
  /** Runs the event once the limiter has a free slot; resolves with its record. */
  run(event: DispatchEvent): Promise<FinishedRecord>;
  /**
   * Runs the event at once, for a caller already holding one of the limiter's slots (the delivery backlog's
   * tasks): taking another would count the execution twice. `release` frees that slot once the run has
   * ended. Resolves with its record.
   */
  runNow(event: DispatchEvent, release?: () => void): Promise<FinishedRecord>;
  /** Stores the event on the execution queue without waiting for it (queue mode only); any worker runs it. */
  enqueue(event: TriggerEvent & { executionId: string }): Promise<void>;
  /**
   * Runs the event for a caller that waits: resolves with the first Respond node's response (the flow goes
   * on), else the execution's record once it ends or begins waiting, else `timeout`.
   */
  answer(event: TriggerEvent, options: AnswerOptions): Promise<RunAnswer>;
}

/**
 * A trigger event, or an execution started again: `resume` continues its stored record (finished nodes are
 * not run again); `restartedBy` names what restarts it should this process die (the intake journal).
 */
export type DispatchEvent = TriggerEvent & Pick<RunOptions, 'resume' | 'restartedBy' | 'background' | 'opened'>;

/** The executor's run options of an event; `onEnded` frees the caller's limiter slot once the run has ended. */
const runRequest = (e: DispatchEvent, onRespond?: (o: Outcome) => void, onEnded?: () => void): RunOptions => ({
  workflow: { id: e.flow.id, name: e.flow.name, version: e.flow.version, config: e.flow.config, hash: e.flow.hash },
  input: e.input,
  trigger: e.trigger,
  executionId: e.executionId,
  onRespond,
  onEnded,
  refuse: e.refuse,
  resume: e.resume,
  restartedBy: e.restartedBy,
  background: e.background,
  opened: e.opened,
});

/** A queued execution's reply may still come this long after the caller's timeout answered it (then it is dropped). */
const REPLY_GRACE_MS = 1000;

/**
 * Runs trigger events here, or on the execution queue when one is given. A refused run is only recorded, here: no worker
 * needs to see it. Every waiting caller's timeout shares one timer.
 * @example
 * const dispatcher = createDispatcher({ execute: (r) => executor.run(r), limiter: createExecutionLimiter() })
 * const answer = await dispatcher.answer({ flow, trigger: 'webhook', input }, { timeoutMs: 30000 })
 * if (answer.kind === 'ended') console.log(answer.record.status) // 'success '
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { execute, limiter, debounce } = options;
  const queue = options.queue ?? null;
  const deadlines = createDeadlines();

  /**
   * `release` frees the caller's limiter slot once a run here has ended; `waitMs`: how long to wait for a
   * queued execution (a caller's reply timeout), not for one run here.
   */
  const startHere = (event: DispatchEvent, release?: () => void, onRespond?: (o: Outcome) => void, waitMs?: number): Promise<FinishedRecord> =>
    queue && !event.refuse ? queue.run(runRequest(event, onRespond), { waitMs }) : execute(runRequest(event, onRespond, release));
  const { admission } = options;
  // A debounced delivery is taken by its burst; another is admitted by the flow's rules, or starts at once.
  // A flow without settings (most flows) pays one property read for all of that.
  const start = (event: DispatchEvent, release?: () => void, onRespond?: (o: Outcome) => void, waitMs?: number): Promise<FinishedRecord> =>
    !(event.flow.config as { settings?: unknown }).settings
      ? startHere(event, release, onRespond, waitMs)
      : debounce?.applies(event)
        ? debounce.deliver(event)
        : admission?.applies(event.flow)
          ? admission.admit(event, (e, r) => startHere(e, r, onRespond, waitMs), release)
          : startHere(event, release, onRespond, waitMs);

  return {
    queued: queue !== null,
    run: (event) => limiter.run((release) => start(event, release)),
    runNow: (event, release) => start(event, release),
    async enqueue(event) {
      if (!queue) throw new Error('enqueue needs a host with an execution queue');
      if (debounce?.applies(event)) return void (await debounce.deliver(event));
      await queue.submit(runRequest(event), { wait: false });
    },
    answer(event, o) {
      const executionId = newExecutionId();
      return new Promise<RunAnswer>((resolve) => {
        let answered = false;
        const settle = (a: RunAnswer) => {
          if (answered) return;
          answered = true;
          cancelTimeout();
          resolve(a);
        };
        const cancelTimeout = deadlines.add(o.timeoutMs, () => settle({ kind: 'timeout', executionId, timeoutMs: o.timeoutMs }));
        const onRespond = (response: Partial<Outcome>) => settle({ kind: 'responded', executionId, response });
        // On the queue, the wait (and the limiter slot it holds) ends soon after the caller's timeout: nobody
        // is left to answer, and the worker records the execution whatever happens here.
        limiter
          .run((release) => start({ ...event, executionId }, release, onRespond, o.timeoutMs + REPLY_GRACE_MS))
          .then(
            (record) => settle({ kind: 'ended', executionId, record }),
            (error) => settle({ kind: 'failed', executionId, error }),
          );
      });
    },
  };
}
