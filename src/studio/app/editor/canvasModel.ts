// The editor's config as React Flow nodes and edges. Each rebuild keeps the node and edge objects whose flow node
// (or edge), type and problems did not change, so React Flow redraws only those that did (a 200-node flow stays
// smooth while one node is edited), and keeps what the canvas itself holds: selection, measured size.
import type { Edge } from '@xyflow/react';
import { nodeOutputs, type NodeOverlay, type WeirNode } from '../graph/FlowGraph.js';
import type { FlowEdge, FlowNode, NodeTypeInfo, WorkflowConfig } from '../types.js';
import { edgeKey } from './flowEdit.js';

/** A canvas node, with the flow node it was made from (to tell when it changed). */
type EditorNode = WeirNode & { data: WeirNode['data'] & { source?: FlowNode; run?: NodeOverlay } };

const sameList = (a: string[] | undefined, b: string[] | undefined) => (a ?? []).join('\n') === (b ?? []).join('\n');

/**
 * The canvas's nodes for `config`: each with its problems, the flow's last run on it (`lastRun`) and, for a node
 * whose handles come from its config, those the host answered (`handles`), reusing
 * the node objects that did not change, so React Flow redraws only the others.
 */
export function syncNodes(
  prev: WeirNode[],
  config: WorkflowConfig,
  types: Map<string, NodeTypeInfo>,
  problems: Map<string, string[]>,
  select?: string,
  lastRun: Record<string, NodeOverlay> = {},
  handles?: Record<string, string[]>,
): WeirNode[] {
  const before = new Map((prev as EditorNode[]).map((n) => [n.id, n]));
  return config.nodes.map((n) => {
    const old = before.get(n.id);
    const info = types.get(n.type);
    const nodeProblems = problems.get(n.id);
    const selected = select ? n.id === select : old?.selected ?? false;
    const run = lastRun[n.id];
    const outputs = nodeOutputs(n, info, config.edges, handles);
    const overlay = run || nodeProblems?.length ? { ...run, problems: nodeProblems?.length ? nodeProblems : undefined } : undefined;
    if (old && old.data.source === n && old.data.info === info && old.data.run === run && sameList(old.data.outputs, outputs) && sameList(old.data.overlay?.problems, nodeProblems) && (old.selected ?? false) === selected) return old;
    const node: EditorNode = {
      ...(old ?? {}),
      id: n.id,
      type: 'weir',
      position: n.position ?? { x: 0, y: 0 },
      selected,
      data: { nodeId: n.id, type: n.type, label: n.label, info, outputs, overlay, source: n, run },
    };
    return node;
  });
}

type EditorEdge = Edge & { data?: { source?: FlowEdge } };

export function syncEdges(prev: Edge[], config: WorkflowConfig): Edge[] {
  const before = new Map((prev as EditorEdge[]).map((e) => [e.id, e]));
  return config.edges.map((e) => {
    const id = edgeKey(e);
    const old = before.get(id);
    if (old && old.data?.source === e) return old;
    return {
      id,
      source: e.source,
      target: e.target,
      sourceHandle: e.sourceHandle ?? null,
      label: e.sourceHandle,
      selected: old?.selected,
      ariaLabel: `Edge ${e.source}${e.sourceHandle ? ` (${e.sourceHandle})` : ''} to ${e.target}`,
      data: { source: e },
    } satisfies EditorEdge;
  });
}
