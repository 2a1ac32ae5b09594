import { WeirError } from '../../errors.js';
import type { ExecutionRecord, ExecutionStatus } from '../../flow/types.js';
import type { KeyValueStorage } from '../../storage/index.js';
import type { ExecutionPage, ExecutionPageOptions } from '../../types/executions.js';
import { mayHold, tallied, type Batch } from './batch-keys.js';
import { SLICE, type BatchReader } from './batch-store.js';
import { cursorOf, cursorPosition, MAX_PAGE } from './cursor.js';
import type { OpenExecutions } from './open.js';
import { recordsOf } from './stored.js';

const STATUSES: ReadonlySet<string> = new Set<ExecutionStatus>(['queued', 'running', 'waiting', 'success', 'error', 'cancelled', 'debounced']);
/** Batches a page reads at first; twice as many per read after that, up to {@link SLICE}. */
const FIRST_READ = 4;
/** The order of listings: newest start first, ties by id (the later id first). */
const newestStartFirst = (a: ExecutionRecord, b: ExecutionRecord) =>
  a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

/** The runs in progress in this process (and finished ones until their batch is written), by id. */
export type LiveRuns = ReadonlyMap<string, { workflowId: string; view: () => ExecutionRecord }>;

/** What {@link createPaging} reads: the batches, the open entries, the live runs, and the mask for shown entries. */
export interface PagingSources {
  store: KeyValueStorage;
  batches: BatchReader;
  open: OpenExecutions;
  live: LiveRuns;
  mask(record: ExecutionRecord): ExecutionRecord;
}

/** What {@link createPaging} returns. */
export interface Paging {
  /** One page of executions among the batches `batchesNow` lists (the workflow's, or all): see `Executions.page`. */
  page(batchesNow: () => Batch[] | Promise<Batch[]>, options: ExecutionPageOptions): Promise<ExecutionPage>;
  /** How many records in these batches started at or after `since` (ms) with status `error`, from the keys where they tell. */
  errorsAmong(batches: Batch[], since: number): Promise<number>;
}

/**
 * Pages of executions, newest start first, each costing what the page holds (not what is stored): a batch's
 * key says when its records started and of which statuses they are, so only the batches that may hold a
 * record of the page are read.
 * @example
 * const paging = createPaging({ store, batches, open, live, mask })
 * const first = await paging.page(() => batches.keysOf('wf_1'), { workflowId: 'wf_1', limit: 20 })
 */
export function createPaging({ store, batches: reader, open, live, mask }: PagingSources): Paging {
  /**
   * The stored records a page needs: the newest `wanted` that `accept` takes (with those already `shown`),
   * reading only the batches that may hold one. Batches are read by their newest start, and reading stops
   * once the next batch's records all started before the `wanted`-th newest found. Of two versions of an
   * execution the one in the batch written last is kept.
   */
  async function storedAmong(
    batches: Batch[],
    { wanted, startedBefore, status, accept, shadowed, shown }: { wanted: number; startedBefore: number; status?: ExecutionStatus; accept: (r: ExecutionRecord) => boolean; shadowed: ReadonlySet<string>; shown: ExecutionRecord[] },
  ): Promise<ExecutionRecord[]> {
    const candidates = batches
      .filter((b) => b.oldest <= startedBefore && (!status || mayHold(b, status)))
      .sort((a, b) => b.newest - a.newest || (a.tail < b.tail ? -1 : a.tail > b.tail ? 1 : 0));
    // By id, the version in the batch written last (the smallest tail); null when the filters turn it down.
    const kept = new Map<string, { record: ExecutionRecord | null; tail: string }>();
    const taken = () => [...kept.values()].flatMap((k) => (k.record ? [k.record] : []));
    /** The start (ms) no page record can be older than, once `wanted` are found; -Infinity before. */
    const floor = (): number => {
      const starts = [...shown, ...taken()].map((r) => r.startedAt);
      if (starts.length < wanted) return -Infinity;
      return Date.parse(starts.sort().at(-wanted)!);
    };
    for (let i = 0, size = FIRST_READ; i < candidates.length; i += size, size = Math.min(SLICE, size * 2)) {
      const least = floor();
      if (candidates[i].newest < least) break;
      const slice = candidates.slice(i, i + size).filter((b) => b.newest >= least);
      const items = await store.getItems(slice.map((b) => b.key));
      items.forEach((item, n) => {
        const tail = slice[n].tail;
        for (const record of recordsOf(item.value)) {
          if (shadowed.has(record.id)) continue;
          const before = kept.get(record.id);
          if (!before || tail < before.tail) kept.set(record.id, { record: accept(record) ? record : null, tail });
        }
      });
    }
    return taken();
  }

  return {
    // A run moves from this process's live runs to its open entry to a batch, each written before the last is
    // dropped, so they are read in that order: the batches are listed last, once the open entries are read, or
    // a run that ended in between (its entry gone, its batch not listed) would be missing.
    async page(batchesNow, { workflowId, status, cursor, limit = 20 }) {
      if (status !== undefined && !STATUSES.has(status)) {
        throw new WeirError('INVALID_INPUT', `"${status}" is not an execution status`, { hints: [`use one of ${[...STATUSES].join(', ')}`] });
      }
      const size = Math.min(Math.max(1, Number.isFinite(limit) ? Math.floor(limit) : 1), MAX_PAGE);
      const after = cursor === undefined ? null : cursorPosition(cursor);
      const afterMs = after ? Date.parse(after.startedAt) : Infinity;
      // One more than the page holds: whether there is a next page.
      const wanted = size + 1;
      const accept = (r: ExecutionRecord) =>
        (!status || r.status === status) && (!after || r.startedAt < after.startedAt || (r.startedAt === after.startedAt && r.id < after.id));
      // Of the versions of an execution, a run in progress here comes first, then an unfinished entry, then
      // the last batch written: the ones shown are shadowed whether the filters take them or not.
      const shadowed = new Set<string>();
      const found: ExecutionRecord[] = [];
      for (const [id, run] of live) {
        if (workflowId !== undefined && run.workflowId !== workflowId) continue;
        shadowed.add(id);
        const record = run.view();
        if (accept(record)) found.push(record);
      }
      const read = new Set<string>();
      for (const { record } of await open.newest(wanted, accept, { workflowId, startedBefore: afterMs, read })) {
        if (!shadowed.has(record.id)) found.push(mask(record));
      }
      for (const id of read) shadowed.add(id);
      const stored = await storedAmong(await batchesNow(), { wanted, startedBefore: afterMs, status, accept, shadowed, shown: found });
      const all = [...found, ...stored].sort(newestStartFirst);
      const items = all.slice(0, size);
      return { items, nextCursor: all.length > size ? cursorOf(items[size - 1]) : null };
    },

    async errorsAmong(batches, since) {
      let count = 0;
      const straddling: Batch[] = [];
      for (const b of batches) {
        if (b.newest < since || !mayHold(b, 'error')) continue;
        if (b.oldest >= since && b.tally !== null) count += tallied(b, 'error');
        else straddling.push(b);
      }
      // A batch with records on both sides of `since` (or without a tally) is read, its errors counted by start.
      const counted = new Set<string>();
      await reader.scan(straddling, (record) => {
        if (record.status === 'error' && Date.parse(record.startedAt) >= since) counted.add(record.id);
        return false;
      });
      return count + counted.size;
    },
  };
}
