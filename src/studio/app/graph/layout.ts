import { Graph, layout } from '@dagrejs/dagre';
import type { WorkflowConfig } from '../types.js';

export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 64;

/**
 * Where each node is drawn: its kept `position`, else a left-to-right layered layout from the trigger
 * (dagre). Nodes placed by hand keep their place; only the others are laid out.
 */
export function positions(config: WorkflowConfig): Map<string, { x: number; y: number }> {
  const out = new Map<string, { x: number; y: number }>();
  const missing = config.nodes.filter((n) => !n.position);
  if (missing.length) {
    const g = new Graph();
    g.setGraph({ rankdir: 'LR', nodesep: 28, ranksep: 70 });
    g.setDefaultEdgeLabel(() => ({}));
    for (const n of config.nodes) g.setNode(n.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
    for (const e of config.edges) if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target);
    layout(g);
    for (const n of missing) {
      const p = g.node(n.id);
      out.set(n.id, { x: p.x - NODE_WIDTH / 2, y: p.y - NODE_HEIGHT / 2 });
    }
  }
  for (const n of config.nodes) if (n.position) out.set(n.id, n.position);
  return out;
}
