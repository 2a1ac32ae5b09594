// Batch keys are `runs:<workflow>:<reverse time>_<record count>_<batch id>`, with a trailing `_i` on a batch
// whose ids are in the `ids:` index. They sort newest first: the reverse time is the time in microseconds
// counted down from a far future (year 2255), fixed width in base 36.
const FAR_FUTURE_US = 9e15;
const BATCH_TAIL = /^([0-9a-z]{11})_(\d+)_[0-9a-z]+(_i)?$/;

/** A stored batch, from its key. */
export interface Batch {
  key: string;
  /** The key's last segment, which sorts batches newest first. */
  tail: string;
  /** When it was written (ms since the epoch). */
  at: number;
  count: number;
  indexed: boolean;
}

/**
 * A batch from its key, or null for a key that is not a batch's.
 * @example
 * parseBatch('runs:wf_1:0m1x2y3z4a5_3_w1a2b3c4d1')?.count // 3
 */
export const parseBatch = (key: string): Batch | null => {
  const tail = key.slice(key.lastIndexOf(':') + 1);
  const m = BATCH_TAIL.exec(tail);
  return m ? { key, tail, at: (FAR_FUTURE_US - parseInt(m[1], 36)) / 1000, count: Number(m[2]), indexed: m[3] === '_i' } : null;
};

/**
 * The reverse times of new batches: each strictly after the previous one, so two batches never tie.
 * @example
 * const nextRev = createReverseClock()
 * nextRev() > nextRev() // true: the later batch sorts first
 */
export function createReverseClock(): () => string {
  let lastUs = 0;
  return () => {
    lastUs = Math.max(lastUs + 1, Math.round((performance.timeOrigin + performance.now()) * 1000));
    return (FAR_FUTURE_US - lastUs).toString(36).padStart(11, '0');
  };
}
