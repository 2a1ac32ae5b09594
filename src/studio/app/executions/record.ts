import type { NodeOverlay } from '../graph/FlowGraph.js';
import type { ErrorInfo, ExecutionRecord, ExecutionStatus, FlowEdge, NodeRecord, NodeStatus, WorkflowConfig } from '../types.js';

// Pure helpers of the run inspector: an execution record as the events of its stream change it, what the graph
// shows on each node, and the input each node received.

/** An execution as the inspector holds it: the record (large values cut) plus the node a `call_flow` child came from. */
export type Inspected = ExecutionRecord & { parentNodeId?: string };

/** Statuses after which nothing more happens to an execution unless someone acts (waiting goes on later). */
export const ENDED: ReadonlySet<ExecutionStatus> = new Set(['success', 'error', 'cancelled', 'debounced']);

/** Whether an execution can still change, so its event stream is worth following. */
export const isGoing = (status: ExecutionStatus) => !ENDED.has(status);

/** The stand-in the API answers for a value too large to send (`maxValueBytes`): its size and the start of its JSON. */
export interface CutValue {
  $cut: true;
  bytes: number;
  preview: string;
}

export const isCut = (v: unknown): v is CutValue => typeof v === 'object' && v !== null && (v as CutValue).$cut === true && typeof (v as CutValue).bytes === 'number';

/** The largest value the inspector asks for whole; larger ones come cut, with a download of the whole. */
export const MAX_VALUE_BYTES = 65536;

/** Milliseconds between two ISO times, or null when either is missing. */
export function spanMs(startedAt: string | null | undefined, finishedAt: string | null | undefined): number | null {
  if (!startedAt || !finishedAt) return null;
  return Date.parse(finishedAt) - Date.parse(startedAt);
}

/**
 * What each node of the graph shows of this run: status, duration, attempts. A node has no record while it
 * runs, so in a running execution a node whose predecessors all settled, by an edge taken, shows as running
 * (the stream's `node:start` for it may have come before the page followed it).
 */
export function overlaysOf(record: Inspected, config?: WorkflowConfig): Record<string, NodeOverlay> {
  const out: Record<string, NodeOverlay> = {};
  for (const [id, n] of Object.entries(record.nodes)) out[id] = { status: n.status, durationMs: spanMs(n.startedAt, n.finishedAt), attempts: n.attempts };
  if (record.status !== 'running' || !config) return out;
  for (const node of config.nodes) {
    if (record.nodes[node.id]) continue;
    const incoming = config.edges.filter((e) => e.target === node.id);
    const settled = incoming.every((e) => SETTLED.has(record.nodes[e.source]?.status));
    if (incoming.length && settled && incoming.some((e) => taken(e, record.nodes[e.source]))) out[node.id] = { status: 'running' };
  }
  return out;
}

const SETTLED = new Set<NodeStatus | undefined>(['success', 'skipped', 'error']);

/** Where a node's input came from: one predecessor's data as is, several as an object by node id (as the executor delivers it). */
export interface NodeInput {
  /** The execution's own input (the trigger's). */
  trigger?: true;
  /** The predecessors whose data made the input, in edge order. */
  from: string[];
  value: unknown;
}

/** An edge was taken when its source ran and, for a branching source, left by that edge's handle. */
function taken(edge: FlowEdge, source: NodeRecord | undefined): boolean {
  if (!source || source.status !== 'success') return false;
  const { handle } = source;
  if (!edge.sourceHandle || handle === undefined) return !edge.sourceHandle || !handle;
  return typeof handle === 'string' ? edge.sourceHandle === handle : handle.includes(edge.sourceHandle);
}

/** The input a node received in this run, rebuilt from the records of the nodes before it. */
export function inputOf(record: Inspected, config: WorkflowConfig | undefined, nodeId: string): NodeInput {
  const incoming = config?.edges.filter((e) => e.target === nodeId) ?? [];
  if (!incoming.length) return { trigger: true, from: [], value: record.input };
  const from = [...new Set(incoming.filter((e) => taken(e, record.nodes[e.source])).map((e) => e.source))];
  if (from.length === 1) return { from, value: record.nodes[from[0]].data };
  return { from, value: Object.fromEntries(from.map((id) => [id, record.nodes[id].data])) };
}

/** The config the execution ran: the draft for a draft run, the published copy of its version, else the nearest there is. */
export function configFor(details: { config: WorkflowConfig; published: { config: WorkflowConfig; version: number } | null }, record: Inspected): { config: WorkflowConfig; note?: string } {
  if (record.draft) return { config: details.config, note: 'ran the draft; drawn on the draft as it is now' };
  const published = details.published;
  if (published && published.version === record.version) return { config: published.config };
  if (published) return { config: published.config, note: `ran version ${record.version ?? '?'}; drawn on the published version ${published.version}` };
  return { config: details.config, note: 'the flow has no published copy now; drawn on its draft' };
}

/** A graph of the record's nodes alone, for an execution whose flow is gone. */
export const configOfRecord = (record: Inspected): WorkflowConfig => ({ nodes: Object.keys(record.nodes).map((id) => ({ id, type: '' })), edges: [] });

type EventData = Record<string, any>;

/** The record after one event of `GET /executions/:id/events` (a new object when it changed, for React). */
export function applyEvent(record: Inspected, name: string, data: EventData): Inspected {
  if (data.executionId !== undefined && data.executionId !== record.id) return record;
  switch (name) {
    case 'snapshot':
      return mergeSnapshot(record, data as Inspected);
    case 'execution:start':
      return { ...record, status: 'running' };
    case 'node:start':
      return withNode(record, data.nodeId, (n) => ({ ...n, status: 'running' as NodeStatus, startedAt: data.startedAt, finishedAt: null, error: undefined }));
    case 'node:end':
      return withNode(record, data.nodeId, (n) => ({ ...n, status: data.status, startedAt: data.startedAt, finishedAt: data.finishedAt, error: data.error as ErrorInfo | undefined }));
    case 'execution:log':
      return withNode(record, data.nodeId, (n) => ({ ...n, logs: [...(n.logs ?? []), { at: new Date().toISOString(), level: data.level, message: data.message, data: data.data }] }));
    case 'execution:end':
      return { ...record, status: data.status, finishedAt: data.finishedAt ?? null, error: data.error };
    default:
      return record;
  }
}

function withNode(record: Inspected, nodeId: string, change: (n: NodeRecord) => NodeRecord): Inspected {
  const before: NodeRecord = record.nodes[nodeId] ?? { status: 'running', startedAt: null, finishedAt: null };
  return { ...record, nodes: { ...record.nodes, [nodeId]: change(before) } };
}

/**
 * A snapshot is the whole record, its values uncut: its statuses are taken, while the data already held (cut
 * where large) is kept, so a large value never lands in the page by this way.
 */
function mergeSnapshot(record: Inspected, snap: Inspected): Inspected {
  const nodes: Record<string, NodeRecord> = {};
  for (const [id, n] of Object.entries(snap.nodes ?? {})) {
    const { data: _data, ...rest } = n;
    nodes[id] = { ...rest, data: record.nodes[id]?.data };
  }
  return { ...record, status: snap.status, finishedAt: snap.finishedAt, error: snap.error, nodes: { ...record.nodes, ...nodes } };
}
