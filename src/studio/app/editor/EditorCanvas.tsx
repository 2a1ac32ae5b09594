import { applyEdgeChanges, applyNodeChanges, useReactFlow, type Connection, type Edge, type EdgeChange, type NodeChange, type OnSelectionChangeParams } from '@xyflow/react';
import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import { FlowGraph, type NodeOverlay, type WeirNode } from '../graph/FlowGraph.js';
import type { NodeTypeInfo, WorkflowConfig } from '../types.js';
import { useLatest } from '../ui/hooks.js';
import { syncEdges, syncNodes } from './canvasModel.js';
import { connect, connectionProblem, moveNodes, reconnect, removeElements, type XY } from './flowEdit.js';
import { NODE_TYPE_DRAG } from './Palette.js';

export interface Selection {
  nodes: string[];
  edges: string[];
}

interface Props {
  config: WorkflowConfig;
  types: Map<string, NodeTypeInfo>;
  /** Each node's problems, drawn on it. */
  problems: Map<string, string[]>;
  /** The flow's last run on each node it reached (status, duration, attempts). */
  lastRun?: Record<string, NodeOverlay>;
  /** The handles of each node whose handles come from its config (a switch), as the host last answered. */
  handles?: Record<string, string[]>;
  /** A node to select once drawn (the one just added), with a counter so the same id can be asked again. */
  select?: { id: string; seq: number };
  onEdit(next: WorkflowConfig): void;
  onAdd(type: string, at: XY): void;
  onSelection(selection: Selection): void;
}

const DELETE_KEYS = ['Delete', 'Backspace'];

/**
 * The editable canvas: nodes moved (the position kept when the drag ends), edges drawn between handles (a branching
 * node offers one handle per output its type declares), an edge's end dragged off its handle removes it, Delete
 * removes the selection, and node types dropped from the palette are added where they land.
 */
export function EditorCanvas({ config, types, problems, lastRun, handles, select, onEdit, onAdd, onSelection }: Props) {
  const flow = useReactFlow<WeirNode, Edge>();
  const latest = useLatest(config);
  // Drawn from the first render, so React Flow fits the view to the flow as it opens.
  const [nodes, setNodes] = useState<WeirNode[]>(() => syncNodes([], config, types, problems, undefined, lastRun, handles));
  const [edges, setEdges] = useState<Edge[]>(() => syncEdges([], config));
  const handled = useRef(0);

  useEffect(() => {
    const pick = select && select.seq !== handled.current ? select.id : undefined;
    if (select) handled.current = select.seq;
    setNodes((prev) => syncNodes(prev, config, types, problems, pick, lastRun, handles));
  }, [config, types, problems, select, lastRun, handles]);
  useEffect(() => setEdges((prev) => syncEdges(prev, config)), [config]);

  // Removals go through the config (one undo step for a node and its edges), not through React Flow's own state.
  const onNodesChange = useCallback((changes: NodeChange<WeirNode>[]) => setNodes((ns) => applyNodeChanges(changes.filter((c) => c.type !== 'remove'), ns)), []);
  const onEdgesChange = useCallback((changes: EdgeChange[]) => setEdges((es) => applyEdgeChanges(changes.filter((c) => c.type !== 'remove'), es)), []);
  const onDelete = useCallback(
    ({ nodes: gone, edges: cut }: { nodes: WeirNode[]; edges: Edge[] }) => onEdit(removeElements(latest.current, new Set(gone.map((n) => n.id)), new Set(cut.map((e) => e.id)))),
    [onEdit, latest],
  );
  const onNodeDragStop = useCallback(
    (_: unknown, _node: WeirNode, dragged: WeirNode[]) => onEdit(moveNodes(latest.current, new Map(dragged.map((n) => [n.id, n.position])))),
    [onEdit, latest],
  );
  const onConnect = useCallback((c: Connection) => onEdit(connect(latest.current, c)), [onEdit, latest]);
  const isValidConnection = useCallback((c: Connection | Edge) => !connectionProblem(latest.current, { source: c.source, target: c.target, sourceHandle: c.sourceHandle }), [latest]);

  // An edge end dropped on another handle moves the edge; dropped anywhere else, it disconnects (removes) it.
  const reconnected = useRef(false);
  const onReconnectStart = useCallback(() => (reconnected.current = false), []);
  const onReconnect = useCallback(
    (old: Edge, c: Connection) => {
      reconnected.current = true;
      onEdit(reconnect(latest.current, old.id, c));
    },
    [onEdit, latest],
  );
  const onReconnectEnd = useCallback(
    (_: unknown, edge: Edge) => {
      if (!reconnected.current) onEdit(removeElements(latest.current, new Set(), new Set([edge.id])));
    },
    [onEdit, latest],
  );

  const onSelectionChange = useCallback(({ nodes: n, edges: e }: OnSelectionChangeParams) => onSelection({ nodes: n.map((x) => x.id), edges: e.map((x) => x.id) }), [onSelection]);

  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(NODE_TYPE_DRAG)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  }, []);
  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = e.dataTransfer.getData(NODE_TYPE_DRAG);
      if (!type) return;
      e.preventDefault();
      const at = flow.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      // The node's top-left a little up and left of the pointer, so it lands under the pointer.
      onAdd(type, { x: at.x - 40, y: at.y - 20 });
    },
    [flow, onAdd],
  );

  return (
    <div className="canvas" onDragOver={onDragOver} onDrop={onDrop}>
      <FlowGraph
        nodes={nodes}
        edges={edges}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onDelete={onDelete}
        onNodeDragStop={onNodeDragStop}
        onConnect={onConnect}
        isValidConnection={isValidConnection}
        edgesReconnectable
        onReconnectStart={onReconnectStart}
        onReconnect={onReconnect}
        onReconnectEnd={onReconnectEnd}
        onSelectionChange={onSelectionChange}
        deleteKeyCode={DELETE_KEYS}
      />
    </div>
  );
}
