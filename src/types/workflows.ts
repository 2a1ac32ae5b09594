import type { Change } from '../resources/workflows/diff.js';
import type { Problem } from '../nodes/define.js';
import type { WorkflowConfig, LocalWorkflow, PublishedWorkflow, WorkflowDetails, WorkflowSummary } from '../resources/workflows/types.js';

/**
 * Workflows (`weir.workflows`): local drafts, their published copies, and sync between the two.
 * @example
 * const { id } = await weir.workflows.create('orders')
 * await weir.workflows.save(id, config)
 * await weir.workflows.publish(id)
 */
export interface Workflows {
  /** Every local workflow with its sync status, by name. */
  list(): Promise<WorkflowSummary[]>;
  /** Complete details of one workflow, including both configs. */
  get(ref: string): Promise<WorkflowDetails>;
  /** The draft record as stored (for subsystems that need the raw config). */
  getLocal(ref: string): Promise<LocalWorkflow>;
  status(ref: string): Promise<WorkflowSummary>;
  /** Creates a draft (names are unique); `publish: true` publishes it at once. */
  create(name: string, description?: string, options?: {
    publish?: boolean;
    config?: WorkflowConfig;
    /** Start from this template's config (`templates` in src/resources/workflows/templates); unknown: NOT_FOUND. */
    template?: string;
  }): Promise<{
    id: string;
    name: string;
    webhookToken: string;
    status: string;
  }>;
  /**
   * Every problem `save` would report for a config, without saving it ([] when it would save): an editor checks as
   * the user types.
   * @example
   * weir.workflows.validate({ nodes: [], edges: [] }) // [{ path: 'nodes', message: 'a flow needs exactly one trigger node, found 0' }]
   */
  validate(config: unknown): Problem[];
  /**
   * Renames a draft and/or replaces its description (`''` removes it); a name another workflow has (draft or
   * published copy) is EXISTS. The published copy keeps its name and description until the next publish.
   * @example
   * await weir.workflows.update('orders', { name: 'orders-v2', description: 'orders from the shop' })
   */
  update(ref: string, changes: { name?: string; description?: string }): Promise<WorkflowSummary>;
  /** Validates and saves a config as the draft; every problem is listed at once (JSON read from a file may be passed as it is). */
  save(ref: string, config: WorkflowConfig): Promise<WorkflowSummary>;
  /** Publishes the draft; refused in `conflict` unless `force`. */
  publish(ref: string, options?: {
    force?: boolean;
  }): Promise<{
    id: string;
    name: string;
    version: number;
    status: "synced";
  }>;
  /** Copies published workflows into local storage; drafts with local changes are kept. */
  sync(): Promise<{
    copied: number;
    workflows: WorkflowSummary[];
  }>;
  /** Changes between the published config (or nothing) and the draft, and the unified diff of their JSON (`patch`, '' when none). */
  diff(ref: string): Promise<{
    id: string;
    name: string;
    status: string;
    changes: Change[];
    patch: string;
  }>;
  /** Deletes the draft; `unpublish` also removes the published copy (its webhook then answers 404). */
  delete(ref: string, options?: {
    unpublish?: boolean;
  }): Promise<{
    id: string;
    deleted: boolean;
    unpublished: boolean;
  }>;
  /** The published copy by id or name, or null. */
  findPublished(ref: string): Promise<PublishedWorkflow | null>;
  /** Every published workflow. */
  listPublished(): Promise<PublishedWorkflow[]>;
  /** The workflow id a webhook token belongs to (looked up by the token's hash), or null. */
  idForToken(token: string): Promise<string | null>;
}
