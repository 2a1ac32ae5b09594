import type { WeirConfig } from '../../config.js';
import { WeirError } from '../../errors.js';
import type { ExecutionRecord } from '../../flow/types.js';
import type { Storages } from '../../storage/index.js';

export interface ExecutionsOptions {
  storage: Storages;
  config?: WeirConfig['executions'];
}

/** Defaults of `weir.config.json` `executions`: keep 30 days, at most 1,000 per workflow. */
export const RETENTION_DEFAULTS = { retentionDays: 30, maxPerWorkflow: 1000 };
const PRUNE_EVERY_MS = 60_000;
/** Records removed concurrently by a prune. */
const PRUNE_SLICE = 256;
// Keys sort newest first: the time in microseconds counted down from a far future (year 2255), fixed width
// in base 36. Microseconds keep runs started within the same millisecond in order.
const FAR_FUTURE_US = 9e15;
const revTime = () => (FAR_FUTURE_US - Math.round((performance.timeOrigin + performance.now()) * 1000)).toString(36).padStart(11, '0');
/** Milliseconds since the epoch of a key's time part. */
const timeOfRev = (rev: string) => (FAR_FUTURE_US - parseInt(rev, 36)) / 1000;
const enc = encodeURIComponent;
/** The last key segment `<rev>_<id>` of a record key. */
const tail = (key: string) => key.slice(key.lastIndexOf(':') + 1);

export type Executions = ReturnType<typeof createExecutions>;

/**
 * Execution records in `cloud:executions`. A record lives at `runs:<workflowId>:<reverse time>_<id>`, so one
 * workflow's executions list newest first from a single key listing; `ids:<id>` points at it for lookups
 * by id. Old records are pruned now and then (retention days and a count per workflow).
 * @example
 * const latest = await weir.executions.list({ workflowId: 'wf_abc', limit: 5 })
 * const one = await weir.executions.get(latest[0].id)
 */
export function createExecutions({ storage, config = {} }: ExecutionsOptions) {
  const store = storage.view('cloud', 'executions');
  const retentionDays = config.retentionDays ?? RETENTION_DEFAULTS.retentionDays;
  const maxPerWorkflow = config.maxPerWorkflow ?? RETENTION_DEFAULTS.maxPerWorkflow;
  const lastPruned = new Map<string, number>();
  // Runs in progress in this process, by id: their key and a view of the record (masked). Reads here see
  // them before (or without) a 'running' record on disk.
  const live = new Map<string, { key: string; view: () => ExecutionRecord }>();
  const liveByKey = new Map<string, () => ExecutionRecord>();

  const readAll = async (keys: string[]) =>
    (await store.getItems(keys)).map((r) => r.value as unknown as ExecutionRecord).filter((r) => r && typeof r === 'object');

  const api = {
    /** The storage key a record starting now gets. */
    keyFor: (record: Pick<ExecutionRecord, 'workflowId' | 'id'>) => `runs:${enc(record.workflowId)}:${revTime()}_${enc(record.id)}`,

    /** The key of a stored execution, or null. */
    async keyOf(id: string): Promise<string | null> {
      const running = live.get(id);
      if (running) return running.key;
      return (await store.getItem<{ key: string }>(`ids:${enc(id)}`))?.key ?? null;
    },

    /** Writes a record at `key` (from {@link keyFor}); `indexed` skips the id index once it exists. */
    async save(key: string, record: ExecutionRecord, indexed = false): Promise<void> {
      // The id index entry is written once per id (a replay finds it and passes `indexed`), so it needs no
      // atomic replace; a short one left by a crash mid-write reads as missing.
      await Promise.all([store.setItem(key, record as never), indexed ? null : store.setItem(`ids:${enc(record.id)}`, { key }, { atomic: false })]);
    },

    /** Marks a run in progress here: `get` and `list` show `view()` until {@link untrack}. */
    track(id: string, key: string, view: () => ExecutionRecord): void {
      live.set(id, { key, view });
      liveByKey.set(key, view);
    },

    /** Forgets a run {@link track}ed (once its final record is stored). */
    untrack(id: string): void {
      const running = live.get(id);
      if (!running) return;
      live.delete(id);
      if (liveByKey.get(running.key) === running.view) liveByKey.delete(running.key);
    },

    /** One execution with each node's output record. */
    async get(id: string): Promise<ExecutionRecord> {
      const running = live.get(id);
      if (running) return running.view();
      const key = await api.keyOf(id);
      const record = key ? await store.getItem<ExecutionRecord>(key) : null;
      if (!record) {
        throw new WeirError('NOT_FOUND', `execution "${id}" not found`, { hints: ['run `weir workflows executions <workflow-id>` to list them'] });
      }
      return record;
    },

    /** Executions newest first, of one workflow or of all. */
    async list({ workflowId, limit = 20 }: { workflowId?: string; limit?: number } = {}): Promise<ExecutionRecord[]> {
      const prefix = workflowId ? `runs:${enc(workflowId)}` : 'runs';
      const keys = await store.getKeys(prefix);
      if (liveByKey.size) {
        const stored = new Set(keys);
        for (const key of liveByKey.keys()) if (key.startsWith(`${prefix}:`) && !stored.has(key)) keys.push(key);
      }
      keys.sort((a, b) => (tail(a) < tail(b) ? -1 : tail(a) > tail(b) ? 1 : 0));
      const page = keys.slice(0, Math.max(0, limit));
      if (!liveByKey.size) return readAll(page);
      const views = page.map((k) => liveByKey.get(k));
      const stored = await store.getItems(page.filter((_, i) => !views[i]));
      let next = 0;
      return page
        .map((_, i) => (views[i] ? views[i]!() : (stored[next++]?.value as unknown as ExecutionRecord)))
        .filter((r) => r && typeof r === 'object');
    },

    /** Removes a workflow's records beyond the retention limits; returns how many went. */
    async prune(workflowId: string, now = Date.now()): Promise<number> {
      lastPruned.set(workflowId, now);
      const keys = (await store.getKeys(`runs:${enc(workflowId)}`)).sort();
      const oldest = now - retentionDays * 86_400_000;
      const doomed = keys.filter((k, i) => i >= maxPerWorkflow || timeOfRev(tail(k).split('_')[0]) < oldest);
      // In slices: a busy workflow can have a minute's worth of runs (100,000+) to remove at once, and one
      // promise per file for all of them would flood memory and the thread pool.
      for (let i = 0; i < doomed.length; i += PRUNE_SLICE) {
        await Promise.all(
          doomed.slice(i, i + PRUNE_SLICE).map(async (k) => {
            const id = tail(k).slice(tail(k).indexOf('_') + 1);
            await Promise.all([store.removeItem(k), store.removeItem(`ids:${id}`)]);
          }),
        );
      }
      return doomed.length;
    },

    /** Prunes a workflow at most once a minute per instance: called after each execution. */
    async pruneIfDue(workflowId: string): Promise<void> {
      const now = Date.now();
      if (now - (lastPruned.get(workflowId) ?? 0) >= PRUNE_EVERY_MS) await api.prune(workflowId, now);
    },
  };
  return api;
}
