/** One node of a flow (seed 2.2). */
export interface FlowNode {
  id: string;
  type: string;
  label?: string;
  config?: Record<string, unknown>;
}

/** A directed connection; `sourceHandle` only on branching nodes (`"true"`/`"false"`). */
export interface FlowEdge {
  id?: string;
  source: string;
  target: string;
  sourceHandle?: string;
}

/** The configuration file accepted by `workflows save` (seed 2.2). */
export interface FlowConfig {
  nodes: FlowNode[];
  edges: FlowEdge[];
  variables?: Record<string, unknown>;
  metadata?: { description?: string; [key: string]: unknown };
}

/** Sync states of CONTRACT section 4. */
export type SyncStatus = 'draft' | 'synced' | 'dirty' | 'conflict';

/** The local draft (the `local` mount). */
export interface LocalWorkflow {
  id: string;
  name: string;
  description?: string;
  config: FlowConfig;
  webhookToken: string;
  /** The published version this draft was last synced with, and the hash of that config. */
  base: { version: number; hash: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** The published copy (the `cloud` mount). */
export interface PublishedWorkflow {
  id: string;
  name: string;
  description?: string;
  config: FlowConfig;
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

/** What `get` shows: the summary, the draft config and the published config. */
export interface WorkflowDetails extends WorkflowSummary {
  webhookToken: string;
  config: FlowConfig;
  published: PublishedWorkflow | null;
  createdAt: string;
}
