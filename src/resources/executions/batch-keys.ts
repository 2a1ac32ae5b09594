import type { ExecutionRecord, ExecutionStatus } from '../../flow/types.js';

// Batch keys are `runs:<workflow>:<reverse time>_<record count>_<batch id>[_i]_<newest start>_<oldest start>_<tally>`.
// `_i` marks a batch whose ids are in the `ids:` index. They sort newest first: the reverse time is the time
// in microseconds counted down from a far future (year 2255), fixed width in base 36. The starts (ms, base 36)
// and the tally of statuses (`s12e1`: 12 success, 1 error) let a listing pick the batches a page needs from
// the keys alone. Keys written before those parts existed end after `_i` (the starts and statuses unknown).
const FAR_FUTURE_US = 9e15;
const BATCH_TAIL = /^([0-9a-z]{11})_(\d+)_[0-9a-z]+(_i)?(?:_([0-9a-z]+)_([0-9a-z]+)_((?:[a-z]\d+)+))?$/;
/**
 * Of a batch without starts in its key: how far its records may have started after it was written (the
 * record of an execution queued by another host carries that host's clock).
 */
const CLOCK_SLACK_MS = 60_000;
/** One letter per status in a tally. */
const LETTERS: Record<ExecutionStatus, string> = { success: 's', error: 'e', cancelled: 'c', running: 'r', waiting: 'w', queued: 'q', debounced: 'd' };

/** A stored batch, from its key. */
export interface Batch {
  key: string;
  /** The key's last segment, which sorts batches newest first. */
  tail: string;
  /** When it was written (ms since the epoch). */
  at: number;
  count: number;
  indexed: boolean;
  /** No record in it started later than this (ms since the epoch). */
  newest: number;
  /** No record in it started earlier than this (ms since the epoch; 0 when unknown). */
  oldest: number;
  /**
   * How many of its records have each status, as in the key (`s12e1`); null when the key does not say
   * (written before tallies). Listings only ask whether a status is there: kept as text, not parsed.
   */
  tally: string | null;
}

/**
 * A batch from its key, or null for a key that is not a batch's.
 * @example
 * parseBatch('runs:wf_1:0m1x2y3z4a5_3_w1a2b3c4d1_mi3k2l3a_mi3k2l00_s2e1')?.oldest // 1763408803536
 */
export const parseBatch = (key: string): Batch | null => {
  const tail = key.slice(key.lastIndexOf(':') + 1);
  const m = BATCH_TAIL.exec(tail);
  if (!m) return null;
  const at = (FAR_FUTURE_US - parseInt(m[1], 36)) / 1000;
  const batch: Batch = { key, tail, at, count: Number(m[2]), indexed: m[3] === '_i', newest: at + CLOCK_SLACK_MS, oldest: 0, tally: null };
  if (m[6] === undefined) return batch;
  batch.newest = parseInt(m[4], 36);
  batch.oldest = parseInt(m[5], 36);
  batch.tally = m[6];
  return batch;
};

/** Whether a batch may hold records of `status` (a batch without a tally may). */
export const mayHold = (batch: Batch, status: ExecutionStatus): boolean => batch.tally === null || batch.tally.includes(LETTERS[status]);

/** The count of one status in a tally (`e(\d+)`). */
const COUNT_OF = Object.fromEntries(Object.entries(LETTERS).map(([status, letter]) => [status, new RegExp(`${letter}(\\d+)`)])) as Record<ExecutionStatus, RegExp>;

/**
 * How many of a batch's records have `status`, from its key's tally (0 when the key has no tally: ask
 * {@link mayHold} first, and read such a batch).
 * @example
 * tallied(parseBatch('runs:wf_1:0m1x2y3z4a5_13_w1a2b3c4d1_mi3k2l3a_mi3k2l00_s12e1')!, 'success') // 12
 */
export function tallied(batch: Batch, status: ExecutionStatus): number {
  const m = batch.tally === null ? null : COUNT_OF[status].exec(batch.tally);
  return m ? Number(m[1]) : 0;
}

/** A start time as a key holds it: the ms since the epoch, and those in base 36. */
interface StartKey {
  iso: string;
  ms: number;
  text: string;
}

let lastStart: StartKey = { iso: '', ms: Number.NaN, text: 'NaN' };

/**
 * A record's start for a key. `Date.parse` and the base-36 text cost a microsecond a batch, most of the
 * bookkeeping of a short run's save; runs started in the same millisecond share their ISO time (the
 * executor's clock makes it once per millisecond), so the last one converted is kept. A pure function's
 * memo: instances sharing it see the same results.
 */
function startKey(iso: string): StartKey {
  if (iso !== lastStart.iso) {
    const ms = Date.parse(iso);
    lastStart = { iso, ms, text: ms.toString(36) };
  }
  return lastStart;
}

/**
 * What a batch's key says of its records, gathered as they are added (two string comparisons and a count
 * per record: the save path adds one record at a time).
 * @example
 * const summary = createBatchSummary()
 * summary.add(record)
 * const key = `runs:wf_1:${nextRev()}_1_w1${summary.suffix()}`
 */
export function createBatchSummary() {
  let newest = '';
  let oldest = '';
  // By letter, in the order first met (letters keep the order they were added in as keys): a plain object
  // costs a quarter less than a Map in the summary of a one-record batch, the usual one.
  const counts: Record<string, number> = {};
  return {
    add(record: Pick<ExecutionRecord, 'startedAt' | 'status'>): void {
      // ISO times of one format compare as strings in time order.
      if (!newest || record.startedAt > newest) newest = record.startedAt;
      if (!oldest || record.startedAt < oldest) oldest = record.startedAt;
      const letter = LETTERS[record.status] ?? 'x';
      counts[letter] = (counts[letter] ?? 0) + 1;
    },
    /** `_<newest start>_<oldest start>_<tally>`, or nothing when a start cannot be read. */
    suffix(): string {
      const hi = startKey(newest);
      const lo = startKey(oldest);
      if (!Number.isFinite(hi.ms) || !Number.isFinite(lo.ms) || lo.ms < 0) return '';
      let tally = '';
      for (const letter in counts) tally += `${letter}${counts[letter]}`;
      return `_${hi.text}_${lo.text}_${tally}`;
    },
  };
}

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
