// Edits of a flow config as pure functions: each returns a new config and leaves the nodes and edges it does not
// touch as they were (same objects), so the canvas redraws only what changed and the undo history is a list of configs.
import type { FlowEdge, FlowNode, WorkflowConfig } from '../types.js';

export interface XY {
  x: number;
  y: number;
}

/** The key the canvas and the edits know an edge by: its `id`, else its ends and handle (two such edges are one). */
export const edgeKey = (e: FlowEdge): string => e.id ?? `${e.source}->${e.target}${e.sourceHandle ? `#${e.sourceHandle}` : ''}`;

/** `<type>-<n>`, n one more than the highest of that type in the flow (ids are never reused while the node is there). */
export function nextNodeId(config: WorkflowConfig, type: string): string {
  let max = 0;
  for (const n of config.nodes) {
    const m = /^(.+)-(\d+)$/.exec(n.id);
    if (m && m[1] === type) max = Math.max(max, Number(m[2]));
  }
  return `${type}-${max + 1}`;
}

/** Adds a node of `type` with `nodeConfig` at `position`; answers the new config and the node's id. */
export function addNode(config: WorkflowConfig, type: string, nodeConfig: Record<string, unknown>, position: XY): { config: WorkflowConfig; id: string } {
  const id = nextNodeId(config, type);
  const node: FlowNode = { id, type, config: nodeConfig, position: { x: Math.round(position.x), y: Math.round(position.y) } };
  return { config: { ...config, nodes: [...config.nodes, node] }, id };
}

/** Removes the nodes (with every edge touching them) and the edges named. */
export function removeElements(config: WorkflowConfig, nodeIds: ReadonlySet<string>, edgeKeys: ReadonlySet<string>): WorkflowConfig {
  if (!nodeIds.size && !edgeKeys.size) return config;
  return {
    ...config,
    nodes: config.nodes.filter((n) => !nodeIds.has(n.id)),
    edges: config.edges.filter((e) => !edgeKeys.has(edgeKey(e)) && !nodeIds.has(e.source) && !nodeIds.has(e.target)),
  };
}

export interface Connection {
  source: string;
  target: string;
  /** The branch handle the edge leaves by; none for a node with one output. */
  sourceHandle?: string | null;
}

/** Why a connection is refused, or null when it may be made. */
export function connectionProblem(config: WorkflowConfig, c: Connection): string | null {
  if (c.source === c.target) return 'a node cannot lead into itself';
  // By ends and handle, not by key: an edge of the file may carry an `id`.
  if (config.edges.some((e) => e.source === c.source && e.target === c.target && (e.sourceHandle ?? null) === (c.sourceHandle ?? null))) return 'these nodes are already connected that way';
  return null;
}

const toEdge = (c: Connection): FlowEdge => ({ source: c.source, target: c.target, ...(c.sourceHandle ? { sourceHandle: c.sourceHandle } : {}) });

/** Adds the edge of a connection; the same config when it is refused (see {@link connectionProblem}). */
export function connect(config: WorkflowConfig, c: Connection): WorkflowConfig {
  if (connectionProblem(config, c)) return config;
  return { ...config, edges: [...config.edges, toEdge(c)] };
}

/** Moves an edge's ends (an end dragged to another handle); removing it when the new ends are refused. */
export function reconnect(config: WorkflowConfig, key: string, c: Connection): WorkflowConfig {
  const rest = removeElements(config, new Set(), new Set([key]));
  return connect(rest, c);
}

/** Sets the position of the nodes moved (rounded: positions are stored in the flow file). */
export function moveNodes(config: WorkflowConfig, moves: ReadonlyMap<string, XY>): WorkflowConfig {
  const changed = config.nodes.some((n) => {
    const to = moves.get(n.id);
    return to && (Math.round(to.x) !== n.position?.x || Math.round(to.y) !== n.position?.y);
  });
  if (!changed) return config;
  return {
    ...config,
    nodes: config.nodes.map((n) => {
      const to = moves.get(n.id);
      return to ? { ...n, position: { x: Math.round(to.x), y: Math.round(to.y) } } : n;
    }),
  };
}

/** Replaces one node's fields (`config`, `label`); an empty label is removed. */
export function updateNode(config: WorkflowConfig, id: string, patch: Partial<Pick<FlowNode, 'config' | 'label'>>): WorkflowConfig {
  return {
    ...config,
    nodes: config.nodes.map((n) => {
      if (n.id !== id) return n;
      const next: FlowNode = { ...n, ...patch };
      if (!next.label) delete next.label;
      return next;
    }),
  };
}

/** The config with every node placed: kept positions, the others where `at` says (the layout). */
export function withPositions(config: WorkflowConfig, at: ReadonlyMap<string, XY>): WorkflowConfig {
  if (config.nodes.every((n) => n.position)) return config;
  return { ...config, nodes: config.nodes.map((n) => (n.position ? n : { ...n, position: at.get(n.id) ?? { x: 0, y: 0 } })) };
}

/** The ids of the nodes that run before `id`: every node with a path of edges into it. */
export function ancestorsOf(config: WorkflowConfig, id: string): string[] {
  const into = new Map<string, string[]>();
  for (const e of config.edges) into.set(e.target, [...(into.get(e.target) ?? []), e.source]);
  const seen = new Set<string>();
  const stack = [...(into.get(id) ?? [])];
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n) || n === id) continue;
    seen.add(n);
    stack.push(...(into.get(n) ?? []));
  }
  // In the flow's order, so the list reads as the file does.
  return config.nodes.map((n) => n.id).filter((n) => seen.has(n));
}
