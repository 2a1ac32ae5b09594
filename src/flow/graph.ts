import { WeirError } from '../errors.js';
import type { Evaluate, Expressions } from '../expr/index.js';
import { handlesOf } from '../nodes/define.js';
import type { NodeDefinition, NodeRegistry } from '../nodes/index.js';
import type { WorkflowConfig } from '../resources/workflows/types.js';
import { validateConfig, type ConfigCheck } from '../resources/workflows/validate.js';
import { nodePolicy, type NodePolicy } from './policy.js';

/** One node, ready to run: its definition, compiled config and edge indexes. */
export interface GraphNode {
  index: number;
  info: { id: string; type: string; label?: string };
  def: NodeDefinition<any>;
  config: Record<string, unknown>;
  /** Resolves the config's templates; null when the config holds none (it is then passed as is). */
  render: Evaluate | null;
  /** The handles of a branching node, resolved from its config once here; null when it does not branch. */
  handles: readonly string[] | null;
  /** Outgoing edges by target index; `handle` only on edges leaving a branching node. */
  out: Array<{ target: number; handle?: string }>;
  /** Number of incoming edges; the node is settled once that many have delivered or been cut. */
  inCount: number;
  /** retry / timeoutMs; null when neither is set, so the plain path stays free of wrappers. */
  policy: NodePolicy | null;
  continueOnError: boolean;
}

/** A validated flow, indexed once and reused for every execution of the same config. */
export interface Graph {
  nodes: GraphNode[];
  trigger: number;
  /** `inCount` of every node, copied per run as the countdown of edges still to settle. */
  inCounts: Int32Array;
  /** Nodes other than the trigger with no incoming edge: nothing can start them, so they are skipped. */
  orphans: number[];
}

/**
 * Validates a flow config and indexes its graph: nodes in an array, edges as index lists in both directions.
 * Throws INVALID_CONFIG listing every problem.
 * @example
 * const graph = buildGraph(config, weir.nodes, expressions, checks)
 */
export function buildGraph(config: WorkflowConfig, registry: NodeRegistry, expressions: Expressions, checks: ConfigCheck[] = []): Graph {
  // Not the schemas: a flow published before one of its keys was refused keeps running as it was published.
  const problems = validateConfig(config, registry, checks, { schemas: false });
  if (problems.length) {
    throw new WeirError('INVALID_CONFIG', `the flow cannot run: ${problems.map((p) => `${p.path ? `${p.path}: ` : ''}${p.message}`).join('; ')}`, {
      details: problems,
    });
  }
  const byId = new Map<string, number>();
  let trigger = -1;
  const nodes: GraphNode[] = config.nodes.map((n, index) => {
    const def = registry.get(n.type)!;
    const cfg = n.config ?? {};
    byId.set(n.id, index);
    if (def.trigger) trigger = index;
    return {
      index,
      info: { id: n.id, type: n.type, ...(n.label ? { label: n.label } : {}) },
      def,
      config: cfg,
      render: def.trigger ? null : expressions.compileValue(cfg, def.deferredKeys ? [...(def.rawKeys ?? []), ...def.deferredKeys] : def.rawKeys),
      handles: handlesOf(def, cfg),
      out: [],
      inCount: 0,
      policy: nodePolicy(cfg, def.ownsTimeout),
      continueOnError: cfg.onError === 'continue',
    };
  });
  for (const e of config.edges ?? []) {
    const source = nodes[byId.get(e.source)!];
    const target = byId.get(e.target)!;
    source.out.push(source.handles && e.sourceHandle !== undefined ? { target, handle: String(e.sourceHandle) } : { target });
    nodes[target].inCount++;
  }
  const orphans = nodes.filter((n) => n.inCount === 0 && n.index !== trigger).map((n) => n.index);
  return { nodes, trigger, inCounts: Int32Array.from(nodes, (n) => n.inCount), orphans };
}
