// The shapes of the management API's answers the Studio reads (GET /api/v1/openapi.json is their source).

export type { SyncStatus, WorkflowSummary } from '../../resources/workflows/types.js';
import type { SyncStatus, WorkflowSummary } from '../../resources/workflows/types.js';
export type ExecutionStatus = 'queued' | 'running' | 'waiting' | 'success' | 'error' | 'cancelled' | 'debounced';
export type NodeStatus = 'success' | 'error' | 'skipped' | 'waiting' | 'running';

/** `GET /workflows/overview`: a summary with the last execution and the errors of the last 24 hours. */
export interface WorkflowOverview extends WorkflowSummary {
  lastExecution: { id: string; status: ExecutionStatus; startedAt: string; finishedAt: string | null } | null;
  errors24h: number;
}

// The flow config's shapes are the runtime's own (types only: nothing of the server reaches the bundle).
export type { FlowEdge, FlowNode, WorkflowConfig } from '../../resources/workflows/types.js';
import type { WorkflowConfig } from '../../resources/workflows/types.js';

/** `GET /workflows/:id/draft`. */
export interface Draft {
  id: string;
  name: string;
  status: SyncStatus;
  localVersion: number | null;
  config: WorkflowConfig;
  updatedAt: string;
}

/** One save problem (`error.details` of a 400 INVALID_CONFIG). */
export interface Problem {
  path: string;
  message: string;
  node?: string;
}

/** `GET /node-types`: what the node registry declares of one type. */
export interface NodeTypeInfo {
  type: string;
  title?: string;
  description?: string;
  category?: string;
  trigger: boolean;
  config: Record<string, unknown>;
  handles: { inputs?: string[]; outputs: string[]; [key: string]: unknown };
  docs?: unknown;
  example?: Record<string, unknown>;
}

export interface ErrorInfo {
  code: string;
  message: string;
  node?: string;
  [key: string]: unknown;
}

export interface NodeRecord {
  data?: unknown;
  status: NodeStatus;
  startedAt: string | null;
  finishedAt: string | null;
  error?: ErrorInfo;
  attempts?: number;
  logs?: { at: string; level: string; message: string; data?: unknown }[];
  /** The handle a branching node left by; the list of them when it fanned out (a switch of mode `all`). */
  handle?: string | string[];
  wait?: Record<string, unknown>;
}

export interface ExecutionRecord {
  id: string;
  workflowId: string;
  workflowName: string;
  version: number | null;
  status: ExecutionStatus;
  trigger: string;
  input?: unknown;
  nodes: Record<string, NodeRecord>;
  result?: unknown;
  error?: ErrorInfo;
  startedAt: string;
  finishedAt: string | null;
  attempts?: number;
  retryOf?: string;
  rerunOf?: string;
  debouncedInto?: string;
  draft?: true;
  parentExecutionId?: string;
  children?: { executionId: string; workflowId: string; nodeId: string }[];
  /** Of a queued execution: the flow setting it waits for, and its key's value. */
  queuedFor?: { rule: 'concurrency' | 'rateLimit' | 'debounce'; key: string | null };
}

export interface ExecutionPage {
  items: ExecutionRecord[];
  nextCursor: string | null;
}
