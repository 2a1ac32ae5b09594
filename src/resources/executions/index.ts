import { join } from 'node:path';
import type { WeirConfig } from '../../config.js';
import { WeirError } from '../../errors.js';
import type { ExecutionRecord } from '../../flow/types.js';
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
import { createBatchSummary, createReverseClock } from './batch-keys.js';
import type { ExecutionPage, ExecutionPageOptions, Executions, LinkedRecords } from '../../types/executions.js';
import { MAX_PAGE } from './cursor.js';
import { createBatchListing } from './listing-cache.js';
import { CLOCK_SLACK_MS, createBatchReader, enc, FINISHED } from './batch-store.js';
import { createPaging } from './paging.js';
import { createPruner } from './prune.js';

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
/** How long a finished record may wait for the records of other runs still going, to share a batch (a file). */
const LINGER_MS = 10;

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
  // Runs in progress in this process (and finished ones until their batch is written): reads see them first.
  const live = new Map<string, { workflowId: string; view: () => ExecutionRecord }>();
  const writer = newId('w', 8).slice(2);
  let sequence = 0;
  const nextRev = createReverseClock();
  // Where weir's fs driver keeps the batches: listed there directly (see batch-store.ts).
  const cloudDir = storage.dir('cloud');
  const runsDir = cloudDir === undefined ? undefined : join(cloudDir, 'executions', 'runs');
  const batches = createBatchReader(store, runsDir);
  // One workflow's batches for `activity`, kept while its folder is unchanged (the overview asks for every workflow's).
  const listing = runsDir === undefined ? undefined : createBatchListing(runsDir);
  const paging = createPaging({ store, batches, open, live, mask });
  const pruner = createPruner({ store, batches, open, live, linked, limits: config });

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
    const since = (await batches.under('runs:')).filter((b) => b.at >= started - CLOCK_SLACK_MS).reverse();
    let found: ExecutionRecord | null = null;
    await batches.scan(since, (record) => {
      if (record.id !== id) {
        seen.add(record.id);
        return false;
      }
      found = record;
      return FINISHED.has(record.status);
    });
    return found;
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
      pruner.saved(record.workflowId);
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
      const recent = (await batches.under('runs:')).filter((b) => b.at >= since - CLOCK_SLACK_MS);
      await batches.scan(recent, (record) => {
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
        await batches.scan(await batches.under(`runs:${enc(workflowId)}:`), (record) => {
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

    page: (options: ExecutionPageOptions = {}): Promise<ExecutionPage> => paging.page(() => batches.keysOf(options.workflowId), options),

    /**
     * A workflow's newest execution, and how many of its executions that started at or after `since` (ms)
     * ended in `error`: counted from the status tallies in its batch keys, so only the batches with an error
     * that straddle `since` are read (besides the few the newest execution may be in).
     */
    async activity(workflowId: string, since: number): Promise<{ last: ExecutionRecord | null; errorsSince: number }> {
      let errorsSince!: Promise<number>;
      const newest = await paging.page(async () => {
        const listed = listing ? listing(workflowId) : await batches.keysOf(workflowId);
        errorsSince = paging.errorsAmong(listed, since);
        // Every batch holds a record that started at its `oldest` or later, so the newest execution is in a
        // batch whose `newest` reaches the largest `oldest`: the page needs only those (a few), not all sorted.
        let floor = 0;
        for (const b of listed) if (b.oldest > floor) floor = b.oldest;
        return listed.filter((b) => b.newest >= floor);
      }, { workflowId, limit: 1 });
      return { last: newest.items[0] ?? null, errorsSince: await errorsSince };
    },

    prune: (workflowId: string, now?: number): Promise<number> => pruner.prune(workflowId, now),
    pruneIfDue: (workflowId: string): Promise<void> => pruner.pruneIfDue(workflowId),
  };
  return api;
}
