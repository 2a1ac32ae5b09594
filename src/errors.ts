/**
 * The one error class of weir. Every failure a user can see carries a stable `code`; the code decides the
 * CLI exit status and the HTTP status, here and nowhere else.
 */

/** Stable error codes with their CLI exit code and HTTP status. */
export const CODES = {
  USAGE: { exit: 2, status: 400 },
  NOT_FOUND: { exit: 1, status: 404 },
  INVALID_CONFIG: { exit: 1, status: 400 },
  INVALID_INPUT: { exit: 1, status: 400 },
  CONFLICT: { exit: 1, status: 409 },
  RULE: { exit: 1, status: 400 },
  READ_ONLY: { exit: 1, status: 403 },
  EXISTS: { exit: 1, status: 409 },
  UNAUTHORIZED: { exit: 1, status: 401 },
  FORBIDDEN: { exit: 1, status: 403 },
  PAYLOAD_TOO_LARGE: { exit: 1, status: 413 },
  UNSUPPORTED_MEDIA_TYPE: { exit: 1, status: 415 },
  TIMEOUT: { exit: 1, status: 504 },
  PROVIDER: { exit: 1, status: 502 },
  EXECUTION_FAILED: { exit: 1, status: 500 },
  MAX_STEPS: { exit: 1, status: 500 },
  INVALID_OUTPUT: { exit: 1, status: 502 },
  SANDBOX_LIMIT: { exit: 1, status: 500 },
  RESULT_TOO_LARGE: { exit: 1, status: 400 },
  CANCELLED: { exit: 1, status: 503 },
  UNAVAILABLE: { exit: 1, status: 503 },
  STORAGE: { exit: 1, status: 500 },
  INTERNAL: { exit: 1, status: 500 },
} as const satisfies Record<string, { exit: number; status: number }>;

export type ErrorCode = keyof typeof CODES;

export interface WeirErrorOptions {
  /** Lines that tell the user what to do next. */
  hints?: string[];
  /** Structured detail (e.g. every validation problem) shown in `--json` and HTTP bodies. */
  details?: unknown;
  /** Overrides the HTTP status of the code (a Code node may throw `{ status: 401 }`). */
  status?: number;
  cause?: unknown;
}

/**
 * @example
 * throw new WeirError('NOT_FOUND', `workflow "${id}" not found`, { hints: ['run `weir workflows list`'] })
 */
export class WeirError extends Error {
  readonly code: ErrorCode;
  readonly hints: string[];
  readonly details?: unknown;
  readonly status: number;

  constructor(code: ErrorCode, message: string, options: WeirErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'WeirError';
    this.code = code;
    this.hints = options.hints ?? [];
    this.details = options.details;
    this.status = options.status ?? CODES[code].status;
  }

  get exit(): number {
    return CODES[this.code].exit;
  }
}

/** Any thrown value as a WeirError (unknown errors become INTERNAL, keeping their message). */
export function toWeirError(err: unknown): WeirError {
  if (err instanceof WeirError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new WeirError('INTERNAL', message, { cause: err });
}

/** The CLI exit code of an error. */
export function toExit(err: unknown): number {
  return toWeirError(err).exit;
}

/** The JSON error document `{"error": {"code", "message"}}` (no stack, no cause). */
export function toJson(err: unknown): { error: { code: ErrorCode; message: string; details?: unknown } } {
  const e = toWeirError(err);
  return { error: { code: e.code, message: e.message, ...(e.details === undefined ? {} : { details: e.details }) } };
}

/** HTTP status and JSON body of an error (an unexpected one keeps its message: for trusted callers only). */
export function toHttp(err: unknown): { status: number; body: ReturnType<typeof toJson> } {
  const e = toWeirError(err);
  return { status: e.status, body: toJson(e) };
}

/**
 * The HTTP status a failed execution's error sets for the caller waiting on it: the numeric `status` a flow
 * threw on purpose (a Code node's `throw {status: 401, message}`, kept by `call_flow`), whose message is then
 * meant for that caller. Undefined for every other failure (a node's own TIMEOUT or NOT_FOUND included),
 * whose detail is the operator's, not the caller's.
 * @example
 * callerStatus({ code: 'EXECUTION_FAILED', message: 'bad signature', status: 401 }) // 401
 * callerStatus({ code: 'TIMEOUT', message: 'node http_request-1 timed out', status: 504 }) // undefined
 */
export function callerStatus(error: { code?: string; status?: number } | undefined): number | undefined {
  const status = error?.status;
  return error?.code === 'EXECUTION_FAILED' && typeof status === 'number' && status >= 400 && status <= 599 ? status : undefined;
}

/**
 * The HTTP answer of an error for an outside caller, the one error mapper of every host and adapter: a
 * WeirError keeps its status, code and message; anything else becomes a 500 "internal error" (reported
 * through `report`), so no stack, path or secret reaches a caller.
 * @example
 * errorResponse(new WeirError('NOT_FOUND', 'not found')) // { status: 404, body: { error: { code: 'NOT_FOUND', ... } } }
 */
export function errorResponse(err: unknown, report?: (err: unknown) => void): { status: number; body: ReturnType<typeof toJson> } {
  if (!(err instanceof WeirError) || err.code === 'INTERNAL') {
    report?.(err);
    return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } };
  }
  return toHttp(err);
}

/** The part of a failed (or cancelled) execution's record its caller's answer is made from. */
export interface FailedRun {
  id: string;
  status: string;
  error?: { code?: string; message?: string; node?: string; status?: number };
}

/**
 * A failed execution's answer to the caller waiting on it: a status the flow threw on purpose with its message
 * (see {@link callerStatus}); a cancellation as such; else 500 EXECUTION_FAILED naming only the execution,
 * since what a flow's internals say is the operator's (the record and the log keep it). `exposeErrors`
 * (`webhook.exposeErrors`, for development) answers the recorded error instead: code, message, failing node.
 * @example
 * failureResponse({ id: 'exec_1', status: 'error', error: { message: 'boom' } }) // { status: 500, body: { error: { code: 'EXECUTION_FAILED', message: 'the flow failed', executionId: 'exec_1' } } }
 */
export function failureResponse(run: FailedRun, exposeErrors = false): { status: number; body: unknown } {
  const e = run.error ?? {};
  const status = callerStatus(e);
  if (status) return { status, body: { error: { code: 'EXECUTION_FAILED', message: e.message ?? '' } } };
  if (run.status === 'cancelled') return { status: 500, body: { error: { code: 'CANCELLED', message: e.message ?? 'execution cancelled' } } };
  const error = exposeErrors && e.message !== undefined ? { code: e.code ?? 'EXECUTION_FAILED', message: e.message, ...(e.node ? { node: e.node } : {}) } : { code: 'EXECUTION_FAILED', message: 'the flow failed' };
  return { status: 500, body: { error: { ...error, executionId: run.id } } };
}
