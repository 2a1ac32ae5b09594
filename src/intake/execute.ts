import type { ErrorInfo, ExecutionRecord, RespondAnswer } from '../flow/types.js';
import { errorResponse } from '../host/error-response.js';
import type { PublishedWorkflow } from '../resources/workflows/index.js';
import { newExecutionId } from '../resources/executions/ids.js';
import type { Weir } from '../weir.js';
import type { Answer } from './dedupe.js';
import type { Runner } from './runner.js';
import { createDeadlines } from '../util/deadlines.js';

/** The part of an execution record the triggers read. */
export type FinishedRecord = Pick<ExecutionRecord, 'id' | 'status'> & { result?: unknown; error?: Partial<ErrorInfo> };

/** A Respond node's answer as the executor reports it. */
export type RespondEvent = Partial<RespondAnswer>;

/** What the triggers ask of the executor (`weir.executor.run`). */
export interface StartOptions {
  workflow: PublishedWorkflow;
  input: unknown;
  trigger: 'webhook' | 'schedule' | 'interface' | 'sms' | 'call';
  executionId?: string;
  onRespond?(r: RespondEvent): void;
  /** Records the execution as failed with this error instead of running it (see `RunOptions.refuse`). */
  refuse?: ErrorInfo;
}

/** The executor's run options for a trigger's start. */
const runRequest = (o: StartOptions) => ({
  workflow: { id: o.workflow.id, name: o.workflow.name, version: o.workflow.version, config: o.workflow.config, hash: o.workflow.hash },
  input: o.input,
  trigger: o.trigger,
  executionId: o.executionId,
  onRespond: o.onRespond,
  refuse: o.refuse,
});

/**
 * Runs a published flow through the executor, or through the execution queue when the host has one. A
 * refused run is only recorded, here: no worker needs to see it.
 */
export async function startExecution(weir: Weir, o: StartOptions): Promise<FinishedRecord> {
  const request = runRequest(o);
  return weir.queue && !o.refuse ? weir.queue.run(request) : weir.executor.run(request);
}

/**
 * Puts a run on the host's execution queue without waiting for it: resolves once the job is stored in
 * Redis (the durable record that any worker runs). A given `executionId` is the job id, so the same id
 * enqueued twice, from any host, runs once.
 */
export async function enqueueExecution(weir: Weir, o: StartOptions & { executionId: string }): Promise<void> {
  if (!weir.queue) throw new Error('enqueueExecution needs a host with an execution queue');
  await weir.queue.submit(runRequest(o), { wait: false });
}

/** The answer of a finished execution that reached no Respond node: its result, or its error. */
export function executionAnswer(record: FinishedRecord, wrap: (result: unknown) => unknown = (r) => r ?? null): Answer {
  if (record.status === 'success') return { status: 200, body: wrap(record.result) };
  const e = record.error ?? {};
  const status = typeof e.status === 'number' && e.status >= 400 && e.status <= 599 ? e.status : 500;
  return { status, body: { error: { code: e.code ?? 'EXECUTION_FAILED', message: e.message ?? `execution ${record.status}` } } };
}

/** The 504 timeouts of every waiting caller in this process, on one timer. */
const responseDeadlines = createDeadlines();

/** Options of {@link waitForAnswer}. */
export interface WaitOptions {
  workflow: PublishedWorkflow;
  input: unknown;
  trigger: StartOptions['trigger'];
  timeoutMs: number;
  /** Shapes a result or a Respond body into the answer's body (the interface route wraps it in `{result}`). */
  wrap?(result: unknown): unknown;
}

/**
 * Runs a flow for a caller that waits: the first Respond node answers (the flow goes on), else the end of the
 * execution (its result, or 500/the error's status), else a 504 after `timeoutMs`. The answer carries the
 * execution id in `x-execution-id`.
 * @example
 * const answer = await waitForAnswer(weir, runner, { workflow, input, trigger: 'webhook', timeoutMs: 30000 })
 */
export function waitForAnswer(weir: Weir, runner: Runner, o: WaitOptions): Promise<Answer> {
  const executionId = newExecutionId();
  const headers = { 'x-execution-id': executionId };
  const wrap = o.wrap ?? ((r: unknown) => r ?? null);
  return new Promise<Answer>((resolve) => {
    let answered = false;
    const answer = (a: Answer) => {
      if (answered) return;
      answered = true;
      cancelTimeout();
      resolve({ ...a, headers: { ...a.headers, ...headers } });
    };
    const cancelTimeout = responseDeadlines.add(o.timeoutMs, () =>
      answer({ status: 504, body: { error: { code: 'TIMEOUT', message: `the flow did not answer within ${o.timeoutMs} ms` } } }),
    );
    const onRespond = (r: RespondEvent) => answer({ status: r.status ?? 200, headers: r.headers, body: wrap(r.body) });
    runner
      .run(() => startExecution(weir, { workflow: o.workflow, input: o.input, trigger: o.trigger, executionId, onRespond }))
      .then(
        (record) => answer(executionAnswer(record, wrap)),
        (err) => answer(errorResponse(err) as Answer),
      );
  });
}
