import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseBatch, type Batch } from './batch-keys.js';

/**
 * How long after a folder's last change its listing must have been taken to be kept: a file added within the
 * same timestamp granule as that change (coarse on most filesystems, up to 2 s on some) would leave the
 * folder's mtime as it was.
 */
const SETTLED_MS = 2_000;

/**
 * The batches of one workflow in weir's fs driver's folder of batches (`<runs>/<workflow>/`), from a listing
 * kept while the folder's mtime stays as it was: any batch written or removed since (by any process)
 * changes it, and the folder is listed again. A workflow with no run since is answered without a directory
 * read, which is most of a listing's cost with thousands of batches. The batches handed out are shared:
 * callers must not change them.
 * @example
 * const batchesOf = createBatchListing(runsDir)
 * const batches = batchesOf('wf_1') // read from disk once, then kept until a batch comes or goes
 */
export function createBatchListing(runsDir: string): (workflowId: string) => Batch[] {
  const kept = new Map<string, { mtimeNs: bigint; batches: Batch[]; byName: Map<string, Batch> }>();
  return (workflowId) => {
    const folder = encodeURIComponent(workflowId);
    const dir = join(runsDir, folder);
    let mtimeNs: bigint;
    let names: string[];
    const listedAt = Date.now();
    try {
      // The mtime before the listing: a change between the two is in the listing, and the next call lists again.
      mtimeNs = statSync(dir, { bigint: true }).mtimeNs;
      const hit = kept.get(workflowId);
      if (hit?.mtimeNs === mtimeNs) return hit.batches;
      names = readdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      kept.delete(workflowId);
      return [];
    }
    // A batch is a function of its name: only the names not listed before are parsed.
    const before = kept.get(workflowId)?.byName;
    const batches: Batch[] = [];
    const byName = new Map<string, Batch>();
    for (const name of names) {
      const batch = before?.get(name) ?? parseBatch(`runs:${folder}:${name}`);
      if (!batch) continue;
      batches.push(batch);
      byName.set(name, batch);
    }
    // A listing taken too soon after the folder's change is used once, its parsed names kept for the next.
    const settled = listedAt - Number(mtimeNs / 1_000_000n) >= SETTLED_MS;
    kept.set(workflowId, { mtimeNs: settled ? mtimeNs : -1n, batches, byName });
    return batches;
  };
}
