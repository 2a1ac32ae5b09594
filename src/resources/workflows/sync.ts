import { hashJson } from '../../util/json.js';
import type { WorkflowConfig, LocalWorkflow, PublishedWorkflow, SyncStatus } from './types.js';

/**
 * A config without its nodes' `position`s. Where a node sits on the Studio's canvas changes nothing the
 * runtime does, so moving nodes around must not turn a synced draft dirty (nor into a conflict that refuses
 * `publish`): the sync status and `diff` compare configs as this.
 * @example
 * contentOf({ nodes: [{ id: 'set-1', type: 'set', position: { x: 1, y: 2 } }], edges: [] }) // { nodes: [{ id: 'set-1', type: 'set' }], edges: [] }
 */
export function contentOf(config: WorkflowConfig): WorkflowConfig {
  if (!config.nodes.some((n) => 'position' in n)) return config;
  return { ...config, nodes: config.nodes.map(({ position: _, ...node }) => node) };
}

/**
 * The hash a draft's `base` keeps and the sync status compares: of the config without positions (see
 * {@link contentOf}). A config without positions hashes as it always did, so bases stored before stay valid.
 * @example
 * const base = { version: pub.version, hash: contentHash(pub.config) }
 */
export const contentHash = (config: WorkflowConfig): string => hashJson(contentOf(config));

/**
 * The sync status of a workflow, from the draft and the cloud as it is now:
 * - no published copy (or one the draft was never based on) -> draft
 * - draft unchanged since its base -> synced (a newer cloud version is taken by the next `sync`)
 * - changed, base still the newest -> dirty; changed while the cloud moved on -> conflict
 */
export function syncStatus(local: LocalWorkflow, published: PublishedWorkflow | null): SyncStatus {
  if (!published || !local.base) return 'draft';
  const changed = contentHash(local.config) !== local.base.hash;
  if (!changed) return 'synced';
  return published.version > local.base.version ? 'conflict' : 'dirty';
}

/** What `sync` does with one published workflow given the local copy (or none). */
export function syncAction(local: LocalWorkflow | null, published: PublishedWorkflow): 'copy' | 'keep' {
  if (!local || !local.base) return local ? 'keep' : 'copy';
  const changed = contentHash(local.config) !== local.base.hash;
  return changed ? 'keep' : 'copy';
}
