import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionRecord } from '../../flow/types.js';
import type { KeyValueStorage } from '../../storage/index.js';
import { parseBatch, type Batch } from './batch-keys.js';
import { recordsOf } from './stored.js';

/** Batches removed, or read, at once. */
export const SLICE = 64;
/**
 * A lookup by a time-stamped id reads the batches written since the run started, less this much: the id may
 * come from another host (a queued execution) whose clock runs a little ahead of the one that ran it.
 */
export const CLOCK_SLACK_MS = 60_000;
/** The statuses of a final record: no later version of the execution follows it. */
export const FINISHED: ReadonlySet<string> = new Set(['success', 'error', 'cancelled', 'debounced']);
export const enc = encodeURIComponent;

/** The stored batches of execution records, found by their keys and read in slices. */
export interface BatchReader {
  /** Stored batches under a key prefix, newest written first. */
  under(prefix: string): Promise<Batch[]>;
  /** The batches of one workflow (or of all), from their keys alone (nothing is read), in no order. */
  keysOf(workflowId: string | undefined): Promise<Batch[]>;
  /** Reads batches in the order given and shows each record to `visit` until it returns true. */
  scan(batches: Batch[], visit: (record: ExecutionRecord) => boolean): Promise<void>;
}

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
 * Reads the batches of `cloud:executions` (`runs:<workflowId>:<batch key>`, see batch-keys.ts). With `runsDir`
 * (weir's fs driver keeps the batches there), a workflow's keys are listed from the directory.
 * @example
 * const batches = createBatchReader(store, runsDir)
 * await batches.scan(await batches.under('runs:'), (record) => record.id === id)
 */
export function createBatchReader(store: KeyValueStorage, runsDir: string | undefined): BatchReader {
  return {
    async under(prefix) {
      const batches = (await store.getKeys(prefix)).map(parseBatch).filter((b): b is Batch => b !== null);
      return batches.sort((a, b) => (a.tail < b.tail ? -1 : a.tail > b.tail ? 1 : 0));
    },

    async keysOf(workflowId) {
      const keys = runsDir ? keysOnDisk(runsDir, workflowId) : await store.getKeys(workflowId === undefined ? 'runs:' : `runs:${enc(workflowId)}:`);
      const batches: Batch[] = [];
      for (const key of keys) {
        const batch = parseBatch(key);
        if (batch) batches.push(batch);
      }
      return batches;
    },

    async scan(batches, visit) {
      for (let i = 0; i < batches.length; i += SLICE) {
        const items = await store.getItems(batches.slice(i, i + SLICE).map((b) => b.key));
        for (const item of items) for (const record of recordsOf(item.value)) if (visit(record)) return;
      }
    },
  };
}
