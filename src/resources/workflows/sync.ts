import { hashJson } from '../../util/json.js';
import type { LocalWorkflow, PublishedWorkflow, SyncStatus } from './types.js';

/**
 * The sync status of a workflow, from the draft and the cloud as it is now:
 * - no published copy (or one the draft was never based on) -> draft
 * - draft unchanged since its base -> synced (a newer cloud version is taken by the next `sync`)
 * - changed, base still the newest -> dirty; changed while the cloud moved on -> conflict
 */
export function syncStatus(local: LocalWorkflow, published: PublishedWorkflow | null): SyncStatus {
  if (!published || !local.base) return 'draft';
  const changed = hashJson(local.config) !== local.base.hash;
  if (!changed) return 'synced';
  return published.version > local.base.version ? 'conflict' : 'dirty';
}

/** What `sync` does with one published workflow given the local copy (or none). */
export function syncAction(local: LocalWorkflow | null, published: PublishedWorkflow): 'copy' | 'keep' {
  if (!local || !local.base) return local ? 'keep' : 'copy';
  const changed = hashJson(local.config) !== local.base.hash;
  return changed ? 'keep' : 'copy';
}
