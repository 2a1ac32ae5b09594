import type { JsonSchema } from '../util/json-schema.js';
import { handlesOf, type NodeDefinition } from './define.js';
import type { NodeRegistry } from './index.js';
import { nodeConfigSchema } from './schema.js';

/** The plain input or output of a node: an edge leaving a node that does not branch carries no `sourceHandle`. */
export const MAIN_HANDLE = 'main';

/** A node type as an editor shows it: everything drawn from its definition in the registry. */
export interface NodeTypeInfo {
  type: string;
  title: string;
  description: string;
  category?: string;
  trigger: boolean;
  /** The config schema save checks against (with `retry`, `timeoutMs`, `onError`); null when the type declares none. */
  config: JsonSchema | null;
  handles: {
    /** `[]` for a trigger (nothing leads into it), else `['main']`. */
    inputs: string[];
    /** The handles a branching node's edges carry as `sourceHandle`; `['main']` for a node that does not branch. */
    outputs: string[];
    /** The outputs depend on the node's config: `outputs` are those of the example config. */
    dynamic?: true;
  };
  /** What the type's documentation says (its `docs` without the example); null when it has none. */
  docs: { summary: string; output: string } | null;
  /** A config that saves as it is; null when the type gives none. */
  example: unknown;
}

/** `http_request` -> `Http request`: the title of a type that gives none. */
const titleOf = (type: string) => {
  const words = type.split(/[_\-\s]+/).filter(Boolean).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * One node type as the Studio's palette and config forms need it.
 * @example
 * describeNodeType(conditionNode).handles // { inputs: ['main'], outputs: ['true', 'false'] }
 */
export function describeNodeType(def: NodeDefinition<any>): NodeTypeInfo {
  const example = def.docs?.example ?? null;
  const branches = handlesOf(def, example ?? {});
  return {
    type: def.type,
    title: def.title ?? titleOf(def.type),
    description: def.docs?.summary ?? '',
    ...(def.category ? { category: def.category } : {}),
    trigger: Boolean(def.trigger),
    config: nodeConfigSchema(def),
    handles: {
      inputs: def.trigger ? [] : [MAIN_HANDLE],
      outputs: branches ? [...branches] : [MAIN_HANDLE],
      ...(typeof def.handles === 'function' ? { dynamic: true as const } : {}),
    },
    docs: def.docs ? { summary: def.docs.summary, output: def.docs.output } : null,
    example,
  };
}

/**
 * Every node type of a registry (built-in and the instance's own), triggers first, in registry order.
 * @example
 * describeNodeTypes(weir.nodes).map((t) => t.type) // ['webhook_trigger', ..., 'my_custom_node']
 */
export const describeNodeTypes = (registry: Pick<NodeRegistry, 'values'>): NodeTypeInfo[] => {
  const all = [...registry.values()];
  return [...all.filter((d) => d.trigger), ...all.filter((d) => !d.trigger)].map(describeNodeType);
};

/**
 * The handles of each node of a flow config whose type's handles come from its config (a switch's cases), by
 * node id: what an editor draws on such a node, since `describeNodeType` can only give its example's. Reads
 * any JSON (a config being edited): what is not a node of a known type is passed over.
 * @example
 * configHandles({ nodes: [{ id: 'switch-1', type: 'switch', config: { cases: [{ when: '{{ true }}', handle: 'a' }] } }] }, weir.nodes) // { 'switch-1': ['a'] }
 */
export function configHandles(config: unknown, registry: Pick<NodeRegistry, 'get'>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const nodes = (config as { nodes?: unknown } | null)?.nodes;
  for (const node of Array.isArray(nodes) ? nodes : []) {
    const { id, type, config: nodeConfig } = (node ?? {}) as { id?: unknown; type?: unknown; config?: unknown };
    const def = typeof type === 'string' ? registry.get(type) : undefined;
    if (typeof id !== 'string' || typeof def?.handles !== 'function') continue;
    out[id] = [...(handlesOf(def, nodeConfig && typeof nodeConfig === 'object' ? nodeConfig : {}) ?? [])];
  }
  return out;
}
