import type { WeirConfig } from '../config.js';
import { WeirError } from '../errors.js';
import type { ErrorInfo } from '../flow/types.js';

/** How many times one delivery may crash the process running it before it is given up (`intake.maxCrashes`). */
export const DEFAULT_MAX_CRASHES = 3;

/**
 * `intake.maxCrashes` of a config: the starts after which a delivery whose runs keep killing the process
 * (a flow that exhausts memory, say) is recorded as failed instead of being run again, so a restarted host
 * does not replay it into a crash loop.
 * @example
 * maxCrashesOf({ intake: { maxCrashes: 5 } }) // 5
 */
export function maxCrashesOf(config: WeirConfig): number {
  const n = config.intake?.maxCrashes ?? DEFAULT_MAX_CRASHES;
  if (!Number.isInteger(n) || n < 1) {
    throw new WeirError('INVALID_CONFIG', `intake.maxCrashes must be a whole number of at least 1, got ${JSON.stringify(n)}`);
  }
  return n;
}

/**
 * The error recorded for an execution given up after `times` crashes of the host that replays it (a journaled
 * webhook delivery) or of the queue workers that took its job.
 * @example
 * crashedError(3, 'host').message // 'the delivery crashed the host 3 times and is not replayed again'
 */
export function crashedError(times: number, by: 'host' | 'worker'): ErrorInfo {
  const message =
    by === 'host'
      ? `the delivery crashed the host ${times} time${times === 1 ? '' : 's'} and is not replayed again`
      : `the execution crashed its worker ${times} time${times === 1 ? '' : 's'} and is not run again`;
  return { code: 'EXECUTION_FAILED', message };
}
