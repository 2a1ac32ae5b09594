import type { Expressions } from '../expr/index.js';
import { handlesOf } from '../nodes/define.js';
import type { NodeRegistry, Problem } from '../nodes/index.js';
import type { WorkflowConfig } from '../resources/workflows/types.js';
import { edgeName, type ConfigCheck } from '../resources/workflows/validate.js';

const quoted = (handles: readonly string[]) => (handles.length ? handles.map((h) => `"${h}"`).join(', ') : '(none)');

/** The first cycle among the edges, as node ids (`a -> b -> a`), or null. */
function findCycle(config: WorkflowConfig): string[] | null {
  const next = new Map<string, string[]>();
  for (const e of config.edges ?? []) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'open') return [...path.slice(path.indexOf(id)), id];
    state.set(id, 'open');
    path.push(id);
    for (const to of next.get(id) ?? []) {
      const cycle = visit(to);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const n of config.nodes) {
    const cycle = visit(n.id);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * The executor's save-time checks (run with the structural ones, on the nodes and edges that are well-formed;
 * nodes of an unknown type get no expression checks, their raw keys being unknown): every `{{ }}` parses
 * (except in a node type's `rawKeys`), edges leave branching nodes by a known handle, nothing points back at
 * the trigger, no cycles.
 * @example
 * createWorkflows({ storage, nodes, bus, checks: [flowChecks({ nodes, expressions })] })
 */
export function flowChecks({ nodes, expressions }: { nodes: NodeRegistry; expressions: Expressions }): ConfigCheck {
  return (config) => {
    const problems: Problem[] = [];
    const types = new Map(config.nodes.map((n) => [n.id, n.type]));
    const handles = new Map<string, readonly string[] | null>();
    // Nodes whose handles come from their config (a switch): every edge out of one must name its handle.
    const named = new Set<string>();
    for (const n of config.nodes) {
      const def = nodes.get(n.type);
      handles.set(n.id, def ? handlesOf(def, n.config ?? {}) : null);
      if (typeof def?.handles === 'function') named.add(n.id);
    }
    config.nodes.forEach((node, i) => {
      const def = nodes.get(node.type);
      if (!def || def.trigger) return;
      for (const p of expressions.problems(node.config ?? {}, `nodes[${i}].config`, def.rawKeys)) problems.push({ path: p.path, message: `${node.id}: ${p.message}` });
    });
    (config.edges ?? []).forEach((edge, i) => {
      const known = handles.get(edge.source);
      const handle = edge.sourceHandle as unknown;
      if (known && handle === undefined && named.has(edge.source)) {
        problems.push({ path: `edges[${i}].sourceHandle`, message: `edge ${edgeName(edge, i)}: an edge out of "${edge.source}" needs a "sourceHandle", one of ${quoted(known)}` });
      }
      if (known && handle !== undefined && !((typeof handle === 'string' || typeof handle === 'number') && known.includes(String(handle)))) {
        problems.push({ path: `edges[${i}].sourceHandle`, message: `edge ${edgeName(edge, i)}: "${edge.source}" has the handles ${quoted(known)}, not ${JSON.stringify(handle)}` });
      }
      if (nodes.get(types.get(edge.target) ?? '')?.trigger) {
        problems.push({ path: `edges[${i}].target`, message: `edge ${edgeName(edge, i)}: a trigger node cannot be the target of an edge` });
      }
    });
    const cycle = findCycle(config);
    if (cycle) problems.push({ path: 'edges', message: `the edges form a cycle: ${cycle.join(' -> ')}` });
    return problems;
  };
}
