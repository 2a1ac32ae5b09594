import type { ExecutionRecord, RunOptions } from '../flow/types.js';
import { callerStatus, errorResponse } from '../errors.js';
import type { ExecutionQueue } from '../queue/index.js';
import { newExecutionId } from '../resources/executions/ids.js';
import type { ErrorInfo, Outcome, TriggerEvent } from '../types/trigger.js';
import { createDeadlines } from '../util/deadlines.js';
import type { ExecutionLimiter } from './execution-limiter.js';

/** The part of an execution record the triggers read. */
export type FinishedRecord = Pick<ExecutionRecord, 'id' | 'status'> & { result?: unknown; error?: Partial<ErrorInfo> };

/** Options of {@link createDispatcher}. */
export interface DispatcherOptions {
  /** Runs an execution on this process (the executor's `run`). */
  execute(request: RunOptions): Promise<ExecutionRecord>;
  /** Bounds the executions started here and lets a shutdown wait for them. */
  limiter: Pick<ExecutionLimiter, 'run'>;
  /** The execution queue of a cluster: executions go there instead of running here. */
  queue?: ExecutionQueue | null;
  /** A failed execution's answer carries the failing node's message (`webhook.exposeErrors`, for development). */
  exposeErrors?: boolean;
}

/** How a caller that waits is answered (see {@link Dispatcher.answer}). */
export interface AnswerOptions {
  /** A 504 follows when neither a Respond node nor the end came within this many ms. */
  timeoutMs: number;
  /** Shapes a result or a Respond body into the outcome's body (the interface route wraps it in `{result}`). */
  wrap?(result: unknown): unknown;
}

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
   * Runs the event for a caller that waits: the first Respond node answers (the flow goes on), else the end
   * of the execution (its result, or 500/the error's status), else a 504. The outcome carries the execution
   * id in `x-execution-id`.
   */
  answer(event: TriggerEvent, options: AnswerOptions): Promise<Outcome>;
}

/**
 * A trigger event, or an execution started again: `resume` continues its stored record (finished nodes are
 * not run again); `restartedBy` names what restarts it should this process die (the intake journal).
 */
export type DispatchEvent = TriggerEvent & Pick<RunOptions, 'resume' | 'restartedBy' | 'background'>;

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
});

const orNull = (r: unknown) => r ?? null;
/** A queued execution's reply may still come this long after the caller's timeout answered it (then it is dropped). */
const REPLY_GRACE_MS = 1000;

/**
 * The outcome of an execution that ended, or began waiting, before any Respond node: its result, 202 while it
 * waits, or its failure as {@link failureOutcome} answers it.
 */
export function executionOutcome(record: FinishedRecord, wrap: (result: unknown) => unknown = orNull, exposeErrors = false): Outcome {
  if (record.status === 'success') return { status: 200, body: wrap(record.result) };
  // It waits (stored) before answering: the caller learns so at once instead of holding on until a 504.
  if (record.status === 'waiting') return { status: 202, body: { executionId: record.id, status: 'waiting' } };
  return failureOutcome(record, exposeErrors);
}

/**
 * A failed execution's answer to the caller waiting on it: a status the flow threw on purpose with its message
 * (see {@link callerStatus}); a cancellation as such; else 500 EXECUTION_FAILED naming only the execution,
 * since what a flow's internals say is the operator's (the record and the log keep it). `exposeErrors`
 * (`webhook.exposeErrors`, for development) answers the recorded error instead: code, message, failing node.
 */
function failureOutcome(record: FinishedRecord, exposeErrors: boolean): Outcome {
  const e = record.error ?? {};
  const status = callerStatus(e);
  if (status) return { status, body: { error: { code: 'EXECUTION_FAILED', message: e.message ?? '' } } };
  if (record.status === 'cancelled') return { status: 500, body: { error: { code: 'CANCELLED', message: e.message ?? 'execution cancelled' } } };
  const error = exposeErrors && e.message !== undefined ? { code: e.code ?? 'EXECUTION_FAILED', message: e.message, ...(e.node ? { node: e.node } : {}) } : { code: 'EXECUTION_FAILED', message: 'the flow failed' };
  return { status: 500, body: { error: { ...error, executionId: record.id } } };
}

/**
 * Runs trigger events here, or on the execution queue when one is given. A refused run is only recorded, here: no worker
 * needs to see it. Every waiting caller's 504 timeout shares one timer.
 * @example
 * const dispatcher = createDispatcher({ execute: (r) => executor.run(r), limiter: createExecutionLimiter() })
 * const outcome = await dispatcher.answer({ flow, trigger: 'webhook', input }, { timeoutMs: 30000 })
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { execute, limiter } = options;
  const exposeErrors = options.exposeErrors === true;
  const queue = options.queue ?? null;
  const deadlines = createDeadlines();

  /**
   * `release` frees the caller's limiter slot once a run here has ended; `waitMs`: how long to wait for a
   * queued execution (a caller's reply timeout), not for one run here.
   */
  const start = (event: DispatchEvent, release?: () => void, onRespond?: (o: Outcome) => void, waitMs?: number): Promise<FinishedRecord> =>
    queue && !event.refuse ? queue.run(runRequest(event, onRespond), { waitMs }) : execute(runRequest(event, onRespond, release));

  return {
    queued: queue !== null,
    run: (event) => limiter.run((release) => start(event, release)),
    runNow: (event, release) => start(event, release),
    async enqueue(event) {
      if (!queue) throw new Error('enqueue needs a host with an execution queue');
      await queue.submit(runRequest(event), { wait: false });
    },
    answer(event, o) {
      const executionId = newExecutionId();
      const headers = { 'x-execution-id': executionId };
      const wrap = o.wrap ?? orNull;
      return new Promise<Outcome>((resolve) => {
        let answered = false;
        const settle = (a: Outcome) => {
          if (answered) return;
          answered = true;
          cancelTimeout();
          resolve({ ...a, headers: { ...a.headers, ...headers } });
        };
        const cancelTimeout = deadlines.add(o.timeoutMs, () =>
          settle({ status: 504, body: { error: { code: 'TIMEOUT', message: `the flow did not answer within ${o.timeoutMs} ms` } } }),
        );
        const onRespond = (r: Partial<Outcome>) => settle({ status: r.status ?? 200, headers: r.headers, body: wrap(r.body) });
        // On the queue, the wait (and the limiter slot it holds) ends soon after the caller's 504: nobody is
        // left to answer, and the worker records the execution whatever happens here.
        limiter
          .run((release) => start({ ...event, executionId }, release, onRespond, o.timeoutMs + REPLY_GRACE_MS))
          .then(
            (record) => settle(executionOutcome(record, wrap, exposeErrors)),
            (err) => settle(errorResponse(err)),
          );
      });
    },
  };
}
