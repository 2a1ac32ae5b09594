import type { WorkflowSettings } from '../../flow/settings.js';
/** Options every node's `config` may hold besides its own fields: retries, a time limit, what an error does. */
export interface NodeConfig {
  /** Retries after a failed attempt: `max` more attempts, `backoffMs` apart (default 500). */
  retry?: { max: number; backoffMs?: number };
  /** Time limit of one attempt in milliseconds. */
  timeoutMs?: number;
  /** `stop` (default) fails the execution; `continue` records the error and runs on. */
  onError?: 'stop' | 'continue';
  /** The node type's own fields (`values`, `url`, `rules`...); strings may hold `{{ }}` expressions. */
  [key: string]: unknown;
}

/** One node of a flow: id `<type>-<number>` (e.g. `http_request-1`), a registered type, its config. */
export interface FlowNode {
  id: string;
  type: string;
  label?: string;
  config?: NodeConfig;
  /** Where the Studio draws the node; the runtime, `diff` and the sync status ignore it. */
  position?: { x: number; y: number };
}

/** A directed connection; `sourceHandle` only on branching nodes (`"true"`/`"false"`). */
export interface FlowEdge {
  id?: string;
  source: string;
  target: string;
  sourceHandle?: string;
}

/**
 * A flow configuration, as `workflows.save` takes it: one trigger node, the other nodes, the edges between
 * them, flow variables and free metadata.
 * @example
 * const config: WorkflowConfig = {
 *   nodes: [
 *     { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
 *     { id: 'set-1', type: 'set', config: { values: { greeting: 'hi {{ $input.name }}' } } },
 *   ],
 *   edges: [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }],
 * }
 * await weir.workflows.save('hello', config)
 */
export interface WorkflowConfig {
  nodes: FlowNode[];
  edges: FlowEdge[];
  variables?: Record<string, unknown>;
  metadata?: { description?: string; [key: string]: unknown };
  /** Error flow, concurrency, rate limit, debounce and the MCP tool: see {@link WorkflowSettings}. */
  settings?: WorkflowSettings;
}

/** Sync states: draft (never published), synced, dirty (local changes), conflict (and the cloud moved on). */
export type SyncStatus = 'draft' | 'synced' | 'dirty' | 'conflict';

/** The local draft (the `local` mount). */
export interface LocalWorkflow {
  id: string;
  name: string;
  description?: string;
  config: WorkflowConfig;
  webhookToken: string;
  /** The published version this draft was last synced with, and the hash of that config without node positions (`contentHash`). */
  base: { version: number; hash: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** The published copy (the `cloud` mount). */
export interface PublishedWorkflow {
  id: string;
  name: string;
  description?: string;
  config: WorkflowConfig;
  webhookToken: string;
  version: number;
  hash: string;
  publishedAt: string;
}

/** What `list` shows of one workflow. */
export interface WorkflowSummary {
  id: string;
  name: string;
  description?: string;
  status: SyncStatus;
  trigger: string | null;
  localVersion: number | null;
  publishedVersion: number | null;
  updatedAt: string;
}

/** A flow that names another as its error flow, as `workflows get` lists it (`errorFlowFor`). */
export interface ErrorFlowUser {
  id: string;
  name: string;
  /** True when its published copy names the flow (its failures run it now); false when only its draft does. */
  published: boolean;
}

/** What `get` shows: the summary, the draft config and the published config. */
export interface WorkflowDetails extends WorkflowSummary {
  webhookToken: string;
  config: WorkflowConfig;
  published: PublishedWorkflow | null;
  createdAt: string;
  /** The flows naming this one in `settings.errorFlow` (their published copy, or only their draft), by name. */
  errorFlowFor: ErrorFlowUser[];
}
