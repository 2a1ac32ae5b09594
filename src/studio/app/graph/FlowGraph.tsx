import { applyNodeChanges, Background, Controls, Handle, MiniMap, Position, ReactFlow, useUpdateNodeInternals, type Edge, type Node, type NodeChange, type NodeProps, type ReactFlowProps } from '@xyflow/react';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FlowEdge, FlowNode, NodeStatus, NodeTypeInfo, WorkflowConfig } from '../types.js';
import { duration } from '../ui/parts.js';
import { positions } from './layout.js';

/** What the graph shows on one node besides its type: its last run, and its save problems. */
export interface NodeOverlay {
  status?: NodeStatus;
  durationMs?: number | null;
  attempts?: number;
  problems?: string[];
}

export interface WeirNodeData extends Record<string, unknown> {
  nodeId: string;
  type: string;
  label?: string;
  info?: NodeTypeInfo;
  /** The output handles of a node whose handles come from its config (see {@link nodeOutputs}). */
  outputs?: string[];
  overlay?: NodeOverlay;
}

export type WeirNode = Node<WeirNodeData, 'weir'>;

/** The output handles a node offers: what its type declares (`true`/`false`...), else one. */
export function outputsOf(info: NodeTypeInfo | undefined): string[] {
  const outs = info?.handles?.outputs;
  return outs && outs.length ? outs : ['main'];
}

/**
 * The output handles of a node whose type's handles come from its config (a switch's cases and default):
 * `known` (the host's answer for its config as it is), else the handles its edges leave by; undefined for a
 * type of fixed handles. The type's own `outputs` are those of its example config, not this node's.
 */
export function nodeOutputs(node: FlowNode, info: NodeTypeInfo | undefined, edges: FlowEdge[], known?: Record<string, string[]>): string[] | undefined {
  if (!info?.handles?.dynamic) return undefined;
  return known?.[node.id] ?? [...new Set(edges.filter((e) => e.source === node.id && e.sourceHandle).map((e) => e.sourceHandle!))];
}

/**
 * Tells React Flow a node's handles changed (a case added to a switch): it measures handles when a node is first
 * drawn, and an edge can only be drawn from a handle it has measured. Not on the first draw, which it measures.
 */
function useHandlesChanged(id: string, outs: string[]) {
  const update = useUpdateNodeInternals();
  const key = outs.join('\n');
  const drawn = useRef(key);
  useEffect(() => {
    if (drawn.current === key) return;
    drawn.current = key;
    update(id);
  }, [id, key, update]);
}

/** Pixels between two output handles at least: a node of many (a switch's cases) grows so their labels stay apart. */
const HANDLE_GAP = 28;

/** One node as drawn: type, id, last-run status, and problems; one target handle (none on a trigger), its output handles. */
export const WeirNodeView = memo(function WeirNodeView({ id, data, selected }: NodeProps<WeirNode>) {
  const outs = data.outputs ?? outputsOf(data.info);
  useHandlesChanged(id, outs);
  // A branching node's handles carry their names (as the edges' `sourceHandle`), even when it has only one.
  const branching = outs.length !== 1 || outs[0] !== 'main';
  const o = data.overlay ?? {};
  const problems = o.problems ?? [];
  const cls = ['wnode', o.status ? `wnode-${o.status}` : '', problems.length ? 'wnode-problem' : '', selected ? 'wnode-selected' : ''].join(' ');
  return (
    <div className={cls} data-node-id={data.nodeId} data-testid={`node-${data.nodeId}`} title={problems.join('\n') || undefined} style={outs.length > 2 ? { minHeight: outs.length * HANDLE_GAP } : undefined}>
      {!data.info?.trigger && <Handle type="target" position={Position.Left} />}
      <div className="wnode-type">{data.info?.title ?? data.type}</div>
      <div className="wnode-id">{data.label ?? data.nodeId}</div>
      {(o.status || o.durationMs != null) && (
        <div className="wnode-run">
          {o.status && <span className={`status status-${o.status}`}>{o.status}</span>}
          {o.durationMs != null && <span className="wnode-ms">{duration(o.durationMs)}</span>}
          {o.attempts && o.attempts > 1 ? <span className="wnode-attempts">×{o.attempts}</span> : null}
        </div>
      )}
      {problems.length > 0 && (
        <div className="wnode-problems" role="note">
          ⚠ {problems[0]}
          {problems.length > 1 ? ` (+${problems.length - 1})` : ''}
        </div>
      )}
      {outs.map((h, i) => (
        <Handle
          key={h}
          id={branching ? h : undefined}
          type="source"
          position={Position.Right}
          style={{ top: `${((i + 1) * 100) / (outs.length + 1)}%` }}
          title={h}
          data-handle={h}
        >
          {branching && <span className="handle-label">{h}</span>}
        </Handle>
      ))}
    </div>
  );
});

const nodeTypes = { weir: WeirNodeView };

/** The xyflow nodes and edges of a flow config, laid out, with each node's overlay. */
export function toGraph(config: WorkflowConfig, types: Map<string, NodeTypeInfo>, overlays: Record<string, NodeOverlay> = {}): { nodes: WeirNode[]; edges: Edge[] } {
  const at = positions(config);
  const nodes: WeirNode[] = config.nodes.map((n) => ({
    id: n.id,
    type: 'weir',
    position: at.get(n.id)!,
    data: { nodeId: n.id, type: n.type, label: n.label, info: types.get(n.type), outputs: nodeOutputs(n, types.get(n.type), config.edges), overlay: overlays[n.id] },
  }));
  const edges: Edge[] = config.edges.map((e, i) => ({
    id: e.id ?? `e${i}-${e.source}-${e.target}`,
    source: e.source,
    target: e.target,
    sourceHandle: e.sourceHandle ?? null,
    label: e.sourceHandle,
    animated: overlays[e.source]?.status === 'running',
    className: overlays[e.target]?.status && overlays[e.target]?.status !== 'skipped' ? 'edge-taken' : undefined,
  }));
  return { nodes, edges };
}

/** A small flow is fitted at no more than its natural size. */
const FIT = { maxZoom: 1, padding: 0.2 };

/** Past this many nodes the minimap is drawn, for finding one's way around a large flow. */
const MINIMAP_FROM = 12;

/**
 * Past this many nodes only those in view are drawn. Not sooner: with 200 nodes (test/studio/editor-large.test.ts)
 * drawing them all kept zoom frames shorter than culling did, since each zoom step changes the set in view.
 */
const CULL_FROM = 300;

export interface FlowGraphProps extends Omit<ReactFlowProps<WeirNode, Edge>, 'nodes' | 'edges' | 'nodeTypes'> {
  nodes: WeirNode[];
  edges: Edge[];
}

/**
 * The nodes of a read-only graph, with the sizes React Flow measured kept on them. React Flow hides a node given
 * without a size and measures it again only when its drawn size changes, so a node rebuilt without one (a live
 * run's status changing) just after it was measured would stay hidden. Sizes and rebuilt nodes meet in one state,
 * updated in order, as the editor's canvas keeps its own.
 */
function useMeasured(given: WeirNode[]) {
  const [nodes, setNodes] = useState(given);
  useEffect(() => setNodes((prev) => withSizes(given, prev)), [given]);
  const onNodesChange = useCallback((changes: NodeChange<WeirNode>[]) => setNodes((ns) => applyNodeChanges(changes.filter((c) => c.type === 'dimensions'), ns)), []);
  return { nodes, onNodesChange };
}

function withSizes(nodes: WeirNode[], prev: WeirNode[]): WeirNode[] {
  const sizes = new Map(prev.map((n) => [n.id, n.measured]));
  return nodes.map((n) => (n.measured || !sizes.get(n.id) ? n : { ...n, measured: sizes.get(n.id) }));
}

/** The canvas: pan, zoom, fit, controls, and a minimap on large flows. Read-only unless handlers are given. */
export function FlowGraph(props: FlowGraphProps) {
  return props.onNodesChange ? <Canvas {...props} readOnly={false} /> : <ReadOnlyCanvas {...props} />;
}

function ReadOnlyCanvas({ nodes: given, ...rest }: FlowGraphProps) {
  const { nodes, onNodesChange } = useMeasured(given);
  return <Canvas {...rest} nodes={nodes} onNodesChange={onNodesChange} readOnly />;
}

function Canvas({ nodes, edges, children, readOnly, ...rest }: FlowGraphProps & { readOnly: boolean }) {
  const defaults = useMemo(() => ({ type: 'smoothstep' as const }), []);
  return (
    <ReactFlow<WeirNode, Edge>
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      defaultEdgeOptions={defaults}
      fitView
      fitViewOptions={FIT}
      minZoom={0.1}
      nodesDraggable={!readOnly}
      nodesConnectable={!readOnly}
      onlyRenderVisibleElements={nodes.length > CULL_FROM}
      proOptions={{ hideAttribution: true }}
      {...rest}
    >
      <Background gap={16} />
      <Controls showInteractive={false} />
      {nodes.length >= MINIMAP_FROM && <MiniMap pannable zoomable />}
      {children}
    </ReactFlow>
  );
}

/** The node types by name, for drawing. */
export const typesByName = (list: NodeTypeInfo[] | undefined) => new Map((list ?? []).map((t) => [t.type, t]));
