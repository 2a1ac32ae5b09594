import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { WeirConfig } from '../../config.js';
import { WeirError } from '../../errors.js';
import type { ExecutionRecord, ExecutionStatus } from '../../flow/types.js';
import type { Storages } from '../../storage/index.js';
import { createGroupCommit } from '../../util/group-commit.js';
import { newId } from '../../util/ids.js';
import { didYouMean } from '../../util/nearest.js';
import { startTimeOf } from './ids.js';
import { recordsOf, sealedOf, storedJson, withSealedJson } from './stored.js';
import { createSealing } from './sealed.js';
import type { MasterKeySource } from '../secrets/crypto.js';
import { createOpenExecutions } from './open.js';
import { createExecutionConfigs } from './configs.js';
import { createBatchSummary, createReverseClock, mayHold, parseBatch, tallied, type Batch } from './batch-keys.js';
import type { ExecutionPage, ExecutionPageOptions, Executions, LinkedRecords } from '../../types/executions.js';
import { cursorOf, cursorPosition, MAX_PAGE } from './cursor.js';
import { createBatchListing } from './listing-cache.js';
import { doomedBatches, RETENTION_DEFAULTS } from './retention.js';

export type { Executions, LinkedRecords } from '../../types/executions.js';

export { newExecutionId, startTimeOf } from './ids.js';
export { ownerIsGone, type OpenEntry, type OpenExecutions, type Owner } from './open.js';
export type { ExecutionConfigs } from './configs.js';

export interface ExecutionsOptions {
  storage: Storages;
  config?: WeirConfig['executions'];
  /**
   * Masks secrets in an unfinished execution's record before it is shown (entries stored by a weir before
   * checkpoints were sealed hold them as the run produced them).
   */
  mask?(record: ExecutionRecord): ExecutionRecord;
  /** The master key that seals the real data of records stored masked (src/resources/executions/sealed.ts). */
  key: MasterKeySource;
  /** Records of some executions kept elsewhere (resume tokens), pruned with them. */
  linked?: LinkedRecords;
}

export { RETENTION_DEFAULTS } from './retention.js';
const PRUNE_EVERY_MS = 60_000;
/**
 * A workflow is also pruned once this many of its records (or `maxPerWorkflow`, when larger) were stored
 * here since its last prune: a busy workflow's home then stays near what retention keeps, and each prune
 * removes a few batches rather than a minute's worth at once (unlinked on the event loop, while answers wait).
 */
const PRUNE_AFTER_RECORDS = 256;
/** Batches removed, or read, at once. */
const SLICE = 64;
/**
 * A lookup by a time-stamped id reads the batches written since the run started, less this much: the id may
 * come from another host (a queued execution) whose clock runs a little ahead of the one that ran it.
 */
const CLOCK_SLACK_MS = 60_000;
const FINISHED = new Set(['success', 'error', 'cancelled', 'debounced']);
const STATUSES: ReadonlySet<string> = new Set<ExecutionStatus>(['queued', 'running', 'waiting', 'success', 'error', 'cancelled', 'debounced']);
const enc = encodeURIComponent;
/** How long a finished record may wait for the records of other runs still going, to share a batch (a file). */
const LINGER_MS = 10;
/** The order of listings: newest start first, ties by id (the later id first). */
const newestStartFirst = (a: ExecutionRecord, b: ExecutionRecord) =>
  a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
/** Batches a page reads at first; twice as many per read after that, up to {@link SLICE}. */
const FIRST_READ = 4;

/**
 * The batch keys of one workflow (or of all) in weir's fs driver's folder of batches, listed with a plain
 * directory read: the driver's listing (a walk of promises, then unstorage's key normalization) costs
 * several times more, and a page's cost is mostly this listing (a folder holds a file per batch). A file
 * being written (a temporary name) is no batch's and is left out by {@link parseBatch}.
 */
function keysOnDisk(runsDir: string, workflowId: string | undefined): string[] {
  const names = (dir: string): string[] => {
    try {
      return readdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  };
  const folders = workflowId === undefined ? names(runsDir) : [enc(workflowId)];
  return folders.flatMap((folder) => names(join(runsDir, folder)).map((name) => `runs:${folder}:${name}`));
}

/**
 * Execution records in `cloud:executions`, written in batches: the records saved while a write is under way
 * go out together as one item `runs:<workflowId>:<reverse time>_<count>_<batch>` (group commit), so a busy
 * host writes one item per batch instead of one per execution. A later save of the same id (a run's final
 * record after its 'running' one, a replayed delivery) supersedes the earlier one: readers keep the newest.
 * A lookup by id reads the batches written since the time in the id ({@link startTimeOf}); ids chosen by
 * callers get an `ids:<id>` entry instead. Old batches are pruned now and then (retention days and a count
 * per workflow).
 * @example
 * const latest = await weir.executions.list({ workflowId: 'wf_abc', limit: 5 })
 * const one = await weir.executions.get(latest[0].id)
 */
export function createExecutions({ storage, config = {}, mask = (r) => r, linked, key }: ExecutionsOptions): Executions {
  const store = storage.view('cloud', 'executions');
  const open = createOpenExecutions(store, { inPlace: storage.dir('cloud') !== undefined, sealing: createSealing(key) });
  const retentionDays = config.retentionDays ?? RETENTION_DEFAULTS.retentionDays;
  const maxPerWorkflow = config.maxPerWorkflow ?? RETENTION_DEFAULTS.maxPerWorkflow;
  const lastPruned = new Map<string, number>();
  // Records stored per workflow since its last prune, and the workflows being pruned (one prune at a time).
  const savedSincePrune = new Map<string, number>();
  const pruning = new Set<string>();
  // Runs in progress in this process (and finished ones until their batch is written): reads see them first.
  const live = new Map<string, { workflowId: string; view: () => ExecutionRecord }>();
  const writer = newId('w', 8).slice(2);
  let sequence = 0;
  const nextRev = createReverseClock();
  // Where weir's fs driver keeps the batches: listed there directly (see `keysOnDisk`).
  const cloudDir = storage.dir('cloud');
  const runsDir = cloudDir === undefined ? undefined : join(cloudDir, 'executions', 'runs');
  // One workflow's batches for `activity`, kept while its folder is unchanged (the overview asks for every workflow's).
  const listing = runsDir === undefined ? undefined : createBatchListing(runsDir);

  const commit = createGroupCommit<string, { json: string[]; indexedIds: string[]; summary: ReturnType<typeof createBatchSummary> }>((batches) =>
    Promise.all(
      [...batches].map(async ([workflowId, b]) => {
        const key = `runs:${enc(workflowId)}:${nextRev()}_${b.json.length}_${writer}${(++sequence).toString(36)}${b.indexedIds.length ? '_i' : ''}${b.summary.suffix()}`;
        await store.setItem(key, `{"records":[${b.json.reverse().join(',')}]}`);
        await Promise.all(b.indexedIds.map((id) => store.setItem(`ids:${enc(id)}`, { key })));
      }),
    ).then(() => {}),
    // While other runs of this process are still going, a record nobody waits for waits a moment for theirs:
    // runs that end one per turn (a Code node's replies arrive one at a time) then share a file instead of
    // writing one each. A run alone, or one a caller waits for, is written on the next turn. Creating a file
    // is what costs in kernel time on ext4 (the most without a journal, where it scans the inodes deleted in
    // the last minutes), so a busy host writes fewer, larger batches (figures: docs/performance.md). The runs do not hold their limiter slots through this wait (see `onEnded`).
    { linger: (waiting) => (live.size > waiting ? LINGER_MS : 0) },
  );

  /** Stored batches under a key prefix, newest first. */
  async function batchesUnder(prefix: string): Promise<Batch[]> {
    const batches = (await store.getKeys(prefix)).map(parseBatch).filter((b): b is Batch => b !== null);
    return batches.sort((a, b) => (a.tail < b.tail ? -1 : a.tail > b.tail ? 1 : 0));
  }

  /** Reads batches in the order given and shows each record to `visit` until it returns true. */
  async function scan(batches: Batch[], visit: (record: ExecutionRecord) => boolean): Promise<void> {
    for (let i = 0; i < batches.length; i += SLICE) {
      const items = await store.getItems(batches.slice(i, i + SLICE).map((b) => b.key));
      for (const item of items) for (const record of recordsOf(item.value)) if (visit(record)) return;
    }
  }

  /**
   * The newest stored version of an execution, or null. `seen` collects the ids the lookup came across
   * (those it read anyway), for an error to name the nearest when the id is not there.
   */
  async function find(id: string, seen: Set<string>): Promise<ExecutionRecord | null> {
    const started = startTimeOf(id);
    if (started === null) {
      const ref = await store.getItem<{ key: string }>(`ids:${enc(id)}`);
      const batch = ref?.key ? await store.getItem(ref.key) : null;
      const record = recordsOf(batch).find((r) => r.id === id) ?? null;
      if (!record) for (const key of await store.getKeys('ids:')) seen.add(decodeURIComponent(key.slice('ids:'.length)));
      return record;
    }
    // Oldest first from its start: the first finished version is the last one written.
    const since = (await batchesUnder('runs:')).filter((b) => b.at >= started - CLOCK_SLACK_MS).reverse();
    let found: ExecutionRecord | null = null;
    await scan(since, (record) => {
      if (record.id !== id) {
        seen.add(record.id);
        return false;
      }
      found = record;
      return FINISHED.has(record.status);
    });
    return found;
  }

  /** Removes the `ids:` entries that point at a batch about to go (not those a later run of the id moved on). */
  async function forgetIndexedIds(key: string, records: ExecutionRecord[]): Promise<void> {
    const ids = records.map((r) => r.id).filter((id) => startTimeOf(id) === null);
    await Promise.all(
      ids.map(async (id) => {
        if ((await store.getItem<{ key: string }>(`ids:${enc(id)}`))?.key === key) await store.removeItem(`ids:${enc(id)}`);
      }),
    );
  }

  /**
   * The executions with linked records that may have a record in the batches about to go (newest first):
   * those started before the newest of them was written; null when none, so a prune reads no batch for them.
   */
  async function linkedIn(workflowId: string, doomed: Batch[]): Promise<Set<string> | null> {
    if (!linked || !doomed.length) return null;
    const before = doomed[0].at + CLOCK_SLACK_MS;
    const ids = (await linked.executionsOf(workflowId)).filter((id) => (startTimeOf(id) ?? 0) <= before);
    return ids.length ? new Set(ids) : null;
  }

  /**
   * Of the executions in `candidates`, those whose final record is in these records and so goes with them:
   * the final record is the last one written, so every earlier one is in the same or an older batch, which
   * goes too. One with an open entry (its final record was stored, its entry not yet removed) stays.
   */
  async function endingIn(records: ExecutionRecord[], candidates: Set<string>): Promise<string[]> {
    const ids = [...new Set(records.filter((r) => candidates.has(r.id) && FINISHED.has(r.status)).map((r) => r.id))];
    const stays = await Promise.all(ids.map(async (id) => live.has(id) || (await open.get(id)) !== null));
    return ids.filter((_, n) => !stays[n]);
  }

  /** The batches of one workflow (or of all), from their keys alone: nothing is read. */
  async function batchKeysOf(workflowId: string | undefined): Promise<Batch[]> {
    const keys = runsDir ? keysOnDisk(runsDir, workflowId) : await store.getKeys(workflowId === undefined ? 'runs:' : `runs:${enc(workflowId)}:`);
    const batches: Batch[] = [];
    for (const key of keys) {
      const batch = parseBatch(key);
      if (batch) batches.push(batch);
    }
    return batches;
  }

  /**
   * The stored records a page needs: the newest `wanted` that `accept` takes (with those already `shown`),
   * reading only the batches that may hold one. A batch's key says when its records started (and of which
   * statuses they are), so batches are read by their newest start, and reading stops once the next batch's
   * records all started before the `wanted`-th newest found. Of two versions of an execution the one in the
   * batch written last is kept.
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

  /**
   * One page of executions among the batches `batchesNow` lists (the workflow's, or all): see {@link
   * Executions.page}. A run moves from this process's live runs to its open entry to a batch, each written
   * before the last is dropped, so they are read in that order: the batches are listed last, once the open
   * entries are read, or a run that ended in between (its entry gone, its batch not listed) would be missing.
   */
  async function pageAmong(batchesNow: () => Batch[] | Promise<Batch[]>, { workflowId, status, cursor, limit = 20 }: ExecutionPageOptions): Promise<ExecutionPage> {
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
  }

  /** How many records in these batches started at or after `since` (ms) with status `error`, from the keys where they tell. */
  async function errorsAmong(batches: Batch[], since: number): Promise<number> {
    let count = 0;
    const straddling: Batch[] = [];
    for (const b of batches) {
      if (b.newest < since || !mayHold(b, 'error')) continue;
      if (b.oldest >= since && b.tally !== null) count += tallied(b, 'error');
      else straddling.push(b);
    }
    // A batch with records on both sides of `since` (or without a tally) is read, its errors counted by start.
    const counted = new Set<string>();
    await scan(straddling, (record) => {
      if (record.status === 'error' && Date.parse(record.startedAt) >= since) counted.add(record.id);
      return false;
    });
    return count + counted.size;
  }

  const api = {
    open,
    configs: createExecutionConfigs(store),

    save(record: ExecutionRecord, options: { linger?: boolean } = {}): Promise<void> {
      const update = (batch = { json: [] as string[], indexedIds: [] as string[], summary: createBatchSummary() }) => {
        batch.json.push(withSealedJson(storedJson(record), sealedOf(record)));
        batch.summary.add(record);
        if (startTimeOf(record.id) === null) batch.indexedIds.push(record.id);
        return batch;
      };
      savedSincePrune.set(record.workflowId, (savedSincePrune.get(record.workflowId) ?? 0) + 1);
      return commit.put(record.workflowId, update, !options.linger);
    },

    /** Marks a run in progress here: `get` and `list` show `view()` until {@link untrack}. */
    track(id: string, workflowId: string, view: () => ExecutionRecord): void {
      live.set(id, { workflowId, view });
    },

    /** Forgets a run {@link track}ed (once its final record is stored). */
    untrack(id: string, view: () => ExecutionRecord): void {
      if (live.get(id)?.view === view) live.delete(id);
    },

    /** One execution with each node's output record. */
    async get(id: string): Promise<ExecutionRecord> {
      const running = live.get(id);
      if (running) return running.view();
      const unfinished = await open.get(id);
      const seen = new Set(live.keys());
      const record = unfinished ? mask(unfinished.record) : await find(id, seen);
      if (!record) {
        throw new WeirError('NOT_FOUND', `execution "${id}" not found${didYouMean(id, seen)}`, { hints: ['run `weir workflows executions <workflow-id>` to list them'] });
      }
      return record;
    },

    /**
     * Which of `ids` have a finished record written at or after `since` (ms): one pass over those batches,
     * for a host that replays many deliveries at once and must skip the ones that ran before a crash.
     */
    async endedAmong(ids: ReadonlySet<string>, since: number): Promise<Set<string>> {
      const ended = new Set<string>();
      if (!ids.size) return ended;
      const batches = (await batchesUnder('runs:')).filter((b) => b.at >= since - CLOCK_SLACK_MS);
      await scan(batches, (record) => {
        if (ids.has(record.id) && FINISHED.has(record.status)) ended.add(record.id);
        return false;
      });
      return ended;
    },

    /**
     * Which of `ids`, executions of one workflow, still have a record (open, running here or in a batch): one
     * pass over the workflow's batches.
     */
    async retainedAmong(workflowId: string, ids: ReadonlySet<string>): Promise<Set<string>> {
      const found = new Set<string>();
      await Promise.all([...ids].map(async (id) => (live.has(id) || (await open.get(id))) && found.add(id)));
      if (found.size < ids.size) {
        await scan(await batchesUnder(`runs:${enc(workflowId)}:`), (record) => {
          if (ids.has(record.id)) found.add(record.id);
          return found.size === ids.size;
        });
      }
      return found;
    },

    /** Executions newest first (by start), of one workflow or of all: the first pages, up to `limit`. */
    async list({ workflowId, limit = 20 }: { workflowId?: string; limit?: number } = {}): Promise<ExecutionRecord[]> {
      const out: ExecutionRecord[] = [];
      for (let cursor: string | undefined; out.length < limit; ) {
        const page = await api.page({ workflowId, cursor, limit: Math.min(MAX_PAGE, limit - out.length) });
        out.push(...page.items);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return out;
    },

    page: (options: ExecutionPageOptions = {}): Promise<ExecutionPage> => pageAmong(() => batchKeysOf(options.workflowId), options),

    /**
     * A workflow's newest execution, and how many of its executions that started at or after `since` (ms)
     * ended in `error`: counted from the status tallies in its batch keys, so only the batches with an error
     * that straddle `since` are read (besides the few the newest execution may be in).
     */
    async activity(workflowId: string, since: number): Promise<{ last: ExecutionRecord | null; errorsSince: number }> {
      let errorsSince!: Promise<number>;
      const newest = await pageAmong(async () => {
        const batches = listing ? listing(workflowId) : await batchKeysOf(workflowId);
        errorsSince = errorsAmong(batches, since);
        // Every batch holds a record that started at its `oldest` or later, so the newest execution is in a
        // batch whose `newest` reaches the largest `oldest`: the page needs only those (a few), not all sorted.
        let floor = 0;
        for (const b of batches) if (b.oldest > floor) floor = b.oldest;
        return batches.filter((b) => b.newest >= floor);
      }, { workflowId, limit: 1 });
      return { last: newest.items[0] ?? null, errorsSince: await errorsSince };
    },

    /**
     * Removes a workflow's batches beyond the retention limits (whole batches: the newest `maxPerWorkflow`
     * records are kept with the rest of the batch that holds the last of them), and the linked records of the
     * executions whose final record went with them; returns how many records went.
     */
    async prune(workflowId: string, now = Date.now()): Promise<number> {
      lastPruned.set(workflowId, now);
      savedSincePrune.set(workflowId, 0);
      const doomed = doomedBatches(await batchesUnder(`runs:${enc(workflowId)}:`), { retentionDays, maxPerWorkflow }, now);
      const candidates = await linkedIn(workflowId, doomed);
      // In slices: a busy workflow can have a minute's worth of batches to remove at once. Batches are read
      // only for the `ids:` index and for executions with linked records; those go before the batch holding
      // their final record, so a prune cut short leaves no record that nothing points to any more.
      for (let i = 0; i < doomed.length; i += SLICE) {
        const slice = doomed.slice(i, i + SLICE);
        const read = candidates ? slice : slice.filter((b) => b.indexed);
        const items = read.length ? await store.getItems(read.map((b) => b.key)) : [];
        const records = items.map((item) => recordsOf(item.value));
        await Promise.all(read.map((b, n) => (b.indexed ? forgetIndexedIds(b.key, records[n]) : undefined)));
        if (candidates) {
          const ending = await endingIn(records.flat(), candidates);
          if (ending.length) await linked!.removeOf(workflowId, ending);
        }
        await Promise.all(slice.map((b) => store.removeItem(b.key)));
      }
      return doomed.reduce((n, b) => n + b.count, 0);
    },

    /**
     * Prunes a workflow once a minute per instance, or sooner once enough of its records were stored here
     * (see PRUNE_AFTER_RECORDS); never two prunes of one workflow at once. Called after each execution.
     */
    async pruneIfDue(workflowId: string): Promise<void> {
      const now = Date.now();
      const saved = savedSincePrune.get(workflowId) ?? 0;
      const due = now - (lastPruned.get(workflowId) ?? 0) >= PRUNE_EVERY_MS || saved >= Math.max(maxPerWorkflow, PRUNE_AFTER_RECORDS);
      if (!due || pruning.has(workflowId)) return;
      pruning.add(workflowId);
      try {
        await api.prune(workflowId, now);
      } finally {
        pruning.delete(workflowId);
      }
    },
  };
  return api;
}
