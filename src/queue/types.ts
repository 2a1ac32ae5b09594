import type { ExecutionRecord, Outcome, RunOptions } from '../flow/types.js';
import type { Sealed } from '../resources/secrets/crypto.js';

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
  /**
   * The run of a debounced burst (`settings.debounce`), with the burst's key value: until the burst is taken,
   * `input` is its first delivery's, masked, for show; the burst in Redis holds the input it runs with.
   */
  debounce?: { key: string | null };
}

/** A delivery of a flow with `settings.debounce` to the queue (see `ExecutionQueue.debounce`). */
export interface BurstDelivery {
  /** The delivery's `queued` record, masked (its id is the delivery's execution id). */
  record: ExecutionRecord;
  /** The delivery's real input, sealed, where masking changed the record. */
  sealed?: Sealed;
  workflow: RunOptions['workflow'];
  /** The value of `settings.debounce.key` for this delivery (null without a key). */
  key: string | null;
  periodMs: number;
  /** -1: no `maxWait`. */
  maxWaitMs: number;
}
