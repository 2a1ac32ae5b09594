import { WeirError } from '../errors.js';
import type { Problem } from '../nodes/define.js';
import type { JsonSchema } from '../util/json-schema.js';

/** The per-node options that wrap a run: `retry: {max, backoffMs}` and a `timeoutMs` limit per attempt. */
export interface NodePolicy {
  retry: { max: number; backoffMs: number };
  timeoutMs?: number;
}

const DEFAULT_BACKOFF_MS = 500;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The options every node's config may hold besides its type's own keys, as JSON schema properties. */
export const POLICY_PROPERTIES: Record<string, JsonSchema> = {
  retry: {
    type: 'object',
    description: 'Retries after a failed attempt: up to max more attempts, backoffMs apart, doubling each time',
    properties: {
      max: { type: 'integer', minimum: 0, description: 'How many more attempts after the first' },
      backoffMs: { type: 'integer', minimum: 0, description: 'Wait before the first retry in milliseconds (default 500), doubling after' },
    },
    required: ['max'],
    additionalProperties: false,
  },
  timeoutMs: { type: 'number', description: 'Time limit of one attempt in milliseconds' },
  onError: { enum: ['stop', 'continue'], description: '"stop" (default) fails the execution; "continue" records the error and goes on' },
};

/** Save-time checks of `retry`, `timeoutMs` and `onError` in a node's config. */
export function policyProblems(config: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  const { retry, timeoutMs, onError } = config;
  if (retry !== undefined) {
    const r = retry as Record<string, unknown> | null;
    if (!r || typeof r !== 'object' || Array.isArray(r)) problems.push({ path: 'retry', message: '"retry" must be an object {"max": N, "backoffMs": M}' });
    else {
      if (!isCount(r.max)) problems.push({ path: 'retry.max', message: '"retry.max" must be a whole number >= 0' });
      if (r.backoffMs !== undefined && !isCount(r.backoffMs)) problems.push({ path: 'retry.backoffMs', message: '"retry.backoffMs" must be a whole number of milliseconds >= 0' });
    }
  }
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs > 0)) {
    problems.push({ path: 'timeoutMs', message: '"timeoutMs" must be a positive number of milliseconds' });
  }
  if (onError !== undefined && onError !== 'stop' && onError !== 'continue') {
    problems.push({ path: 'onError', message: '"onError" must be "stop" or "continue"' });
  }
  return problems;
}

/**
 * The policy of a (validated) node config, or null when it has neither retry nor timeout. A node that
 * `ownsTimeout` gets no timer: its run applies `timeoutMs` itself.
 */
export function nodePolicy(config: Record<string, unknown>, ownsTimeout = false): NodePolicy | null {
  const retry = config.retry as { max?: number; backoffMs?: number } | undefined;
  const timeoutMs = ownsTimeout ? undefined : (config.timeoutMs as number | undefined);
  if (!retry?.max && timeoutMs === undefined) return null;
  return { retry: { max: retry?.max ?? 0, backoffMs: retry?.backoffMs ?? DEFAULT_BACKOFF_MS }, ...(timeoutMs ? { timeoutMs } : {}) };
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** One attempt under a time limit: the attempt's signal aborts and the promise rejects with TIMEOUT. */
async function attemptWithTimeout<T>(ms: number, nodeId: string, signal: AbortSignal, attempt: (signal: AbortSignal) => T | Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new WeirError('TIMEOUT', `node ${nodeId} timed out after ${ms} ms`);
      controller.abort(err);
      reject(err);
    }, ms);
  });
  try {
    return await Promise.race([attempt(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Runs a node under its policy: each attempt limited to `timeoutMs`; a failed attempt retried `retry.max`
 * times, waiting `backoffMs` and doubling each time. Cancellation is never retried; `onRetry` hears of each retry.
 */
export async function runWithPolicy<T>(
  policy: NodePolicy,
  nodeId: string,
  signal: AbortSignal,
  attempt: (signal: AbortSignal) => T | Promise<T>,
  onRetry: (attempt: number, error: unknown) => void,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await (policy.timeoutMs ? attemptWithTimeout(policy.timeoutMs, nodeId, signal, attempt) : attempt(signal));
    } catch (err) {
      if (n >= policy.retry.max || signal.aborted) throw err;
      onRetry(n + 1, err);
      await sleep(policy.retry.backoffMs * 2 ** n, signal);
    }
  }
}
