import { errorResponse, failureResponse } from '../errors.js';
import type { RunAnswer } from '../runtime/dispatch.js';
import type { Outcome } from '../types/trigger.js';

/** Options of {@link httpAnswer}. */
export interface HttpAnswerOptions {
  /** Shapes a result or a Respond body into the answer's body (the interface route wraps it in `{result}`). */
  wrap?(result: unknown): unknown;
  /** A failed execution's answer carries the failing node's message (`webhook.exposeErrors`, for development). */
  exposeErrors?: boolean;
}

const orNull = (r: unknown) => r ?? null;

/**
 * The HTTP answer of a run a caller waited on: a Respond node's response; the result (200) of an execution
 * that ended, 202 for one that began waiting, or its failure as `failureResponse` answers it; 504 when the
 * time ran out. Every answer names the execution in `x-execution-id`.
 * @example
 * httpAnswer(await dispatcher.answer(event, { timeoutMs: 30000 })) // { status: 200, headers: { 'x-execution-id': 'exec_…' }, body }
 */
export function httpAnswer(run: RunAnswer, options: HttpAnswerOptions = {}): Outcome {
  const wrap = options.wrap ?? orNull;
  const headers = { 'x-execution-id': run.executionId };
  switch (run.kind) {
    case 'responded':
      return { status: run.response.status ?? 200, headers: { ...run.response.headers, ...headers }, body: wrap(run.response.body) };
    case 'timeout':
      return { status: 504, headers, body: { error: { code: 'TIMEOUT', message: `the flow did not answer within ${run.timeoutMs} ms` } } };
    case 'failed':
      return { ...errorResponse(run.error), headers };
    case 'ended': {
      const { record } = run;
      if (record.status === 'success') return { status: 200, headers, body: wrap(record.result) };
      // It waits (stored) before answering: the caller learns so at once instead of holding on until a 504.
      if (record.status === 'waiting') return { status: 202, headers, body: { executionId: record.id, status: 'waiting' } };
      // A debounced flow runs later, perhaps as another delivery's execution: nobody can wait for it here.
      if (record.status === 'queued') return { status: 202, headers, body: { executionId: record.id, status: 'queued' } };
      if (record.status === 'debounced') return { status: 202, headers, body: { executionId: record.id, status: 'debounced', debouncedInto: record.debouncedInto } };
      return { ...failureResponse(record, options.exposeErrors), headers };
    }
  }
}
