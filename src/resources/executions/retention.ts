import type { Batch } from './batch-keys.js';

/** Defaults of `weir.config.json` `executions`: keep 30 days, at most 1,000 per workflow. */
export const RETENTION_DEFAULTS = { retentionDays: 30, maxPerWorkflow: 1000 };

/** The retention limits of `weir.config.json` `executions`. */
export interface RetentionLimits {
  retentionDays?: number;
  maxPerWorkflow?: number;
}

/**
 * Of one workflow's batches, newest first, those retention removes at `now`: the batches after the newest
 * `maxPerWorkflow` records (whole batches: the one holding the last kept record stays whole), and those
 * older than `retentionDays`. The rule of a prune, and of `weir doctor`'s account of what a prune removes.
 * @example
 * const doomed = doomedBatches(batchesNewestFirst, { maxPerWorkflow: 100 }, Date.now())
 */
export function doomedBatches(batches: Batch[], limits: RetentionLimits, now: number): Batch[] {
  const oldest = now - (limits.retentionDays ?? RETENTION_DEFAULTS.retentionDays) * 86_400_000;
  const max = limits.maxPerWorkflow ?? RETENTION_DEFAULTS.maxPerWorkflow;
  let kept = 0;
  const doomed: Batch[] = [];
  for (const batch of batches) {
    if (kept >= max || batch.at < oldest) doomed.push(batch);
    else kept += batch.count;
  }
  return doomed;
}
