import type { ExecutionRecord } from '../../flow/types.js';
import type { KeyValueStorage } from '../../storage/index.js';
import type { LinkedRecords } from '../../types/executions.js';
import type { Batch } from './batch-keys.js';
import { CLOCK_SLACK_MS, enc, FINISHED, SLICE, type BatchReader } from './batch-store.js';
import { startTimeOf } from './ids.js';
import type { OpenExecutions } from './open.js';
import { doomedBatches, RETENTION_DEFAULTS, type RetentionLimits } from './retention.js';
import { recordsOf } from './stored.js';

const PRUNE_EVERY_MS = 60_000;
/**
 * A workflow is also pruned once this many of its records (or `maxPerWorkflow`, when larger) were stored
 * here since its last prune: a busy workflow's home then stays near what retention keeps, and each prune
 * removes a few batches rather than a minute's worth at once (unlinked on the event loop, while answers wait).
 */
const PRUNE_AFTER_RECORDS = 256;

/** What {@link createPruner} reads and removes. */
export interface PrunerOptions {
  store: KeyValueStorage;
  batches: BatchReader;
  open: Pick<OpenExecutions, 'get'>;
  /** The ids of runs in progress in this process (their records are still to come). */
  live: ReadonlyMap<string, unknown>;
  /** Records of some executions kept elsewhere (resume tokens), pruned with them. */
  linked?: LinkedRecords;
  limits: RetentionLimits;
}

/** What {@link createPruner} returns. */
export interface Pruner {
  /** Counts a record stored for the workflow (enough of them make a prune due). */
  saved(workflowId: string): void;
  /**
   * Removes a workflow's batches beyond the retention limits (whole batches: the newest `maxPerWorkflow`
   * records are kept with the rest of the batch that holds the last of them), and the linked records of the
   * executions whose final record went with them; returns how many records went.
   */
  prune(workflowId: string, now?: number): Promise<number>;
  /**
   * Prunes a workflow once a minute per instance, or sooner once enough of its records were stored here
   * (see PRUNE_AFTER_RECORDS); never two prunes of one workflow at once. Called after each execution.
   */
  pruneIfDue(workflowId: string): Promise<void>;
}

/**
 * Retention of execution records: a workflow's oldest batches go once it holds more than retention keeps,
 * with the `ids:` entries and the linked records that point into them.
 * @example
 * const pruner = createPruner({ store, batches, open, live, linked, limits: { maxPerWorkflow: 1000 } })
 * await pruner.pruneIfDue('wf_1')
 */
export function createPruner({ store, batches, open, live, linked, limits }: PrunerOptions): Pruner {
  const maxPerWorkflow = limits.maxPerWorkflow ?? RETENTION_DEFAULTS.maxPerWorkflow;
  const lastPruned = new Map<string, number>();
  // Records stored per workflow since its last prune, and the workflows being pruned (one prune at a time).
  const savedSincePrune = new Map<string, number>();
  const pruning = new Set<string>();

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

  const pruner: Pruner = {
    saved(workflowId) {
      savedSincePrune.set(workflowId, (savedSincePrune.get(workflowId) ?? 0) + 1);
    },

    async prune(workflowId, now = Date.now()) {
      lastPruned.set(workflowId, now);
      savedSincePrune.set(workflowId, 0);
      const doomed = doomedBatches(await batches.under(`runs:${enc(workflowId)}:`), limits, now);
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

    async pruneIfDue(workflowId) {
      const now = Date.now();
      const saved = savedSincePrune.get(workflowId) ?? 0;
      const due = now - (lastPruned.get(workflowId) ?? 0) >= PRUNE_EVERY_MS || saved >= Math.max(maxPerWorkflow, PRUNE_AFTER_RECORDS);
      if (!due || pruning.has(workflowId)) return;
      pruning.add(workflowId);
      try {
        await pruner.prune(workflowId, now);
      } finally {
        pruning.delete(workflowId);
      }
    },
  };
  return pruner;
}
