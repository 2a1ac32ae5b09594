import type { ExecutionRecord, Outcome, RunOptions } from '../flow/types.js';

export type { ExecutionRecord, Outcome, RunOptions };

/** `weir.config.json` `queue`. */
export interface QueueSettings {
  driver: 'bullmq';
  url?: string;
  /** Key prefix of the BullMQ queue (and of the cluster's coordination keys). */
  prefix?: string;
  /** Executions one worker process runs at once (default 10). */
  concurrency?: number;
  /** How long a job stays locked to a worker that stopped renewing it before another takes it (default 30000). */
  stalledMs?: number;
}

/** A job as stored in Redis: the run options without the functions, which stay on the enqueuing host. */
export interface RunJob {
  executionId: string;
  workflow: RunOptions['workflow'];
  input: unknown;
  trigger: RunOptions['trigger'];
  /** The reply channel of the host waiting for the answer. */
  replyTo?: string;
}
