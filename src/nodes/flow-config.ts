import type { FlowEdge, NodeConfig } from '../resources/workflows/types.js';
import type { NodeConfigs } from './index.js';

/** A string holding a `{{ }}` expression: it may stand for a value of any type, resolved when the node runs. */
export type Template = `${string}{{${string}}}${string}`;

/** A node type's config as written in a flow: each key its own type or a template, plus the options every node takes. */
export type WrittenConfig<C> = { [K in keyof C]: C[K] | Template } & Pick<NodeConfig, 'retry' | 'timeoutMs' | 'onError'>;

/** One node of type `T` whose config is `C`: `config` may be left out only when none of its keys is required. */
export type TypedNode<T extends string, C> = {
  /** `<type>-<number>`, e.g. `set-1`. */
  id: `${T}-${number}`;
  type: T;
  label?: string;
  /** Where the Studio draws the node; the runtime ignores it. */
  position?: { x: number; y: number };
} & ({} extends C ? { config?: WrittenConfig<C> } : { config: WrittenConfig<C> });

/**
 * A flow written in TypeScript: its nodes are a union by `type`, each with the config type its node
 * definition declares, so the compiler refuses an unknown key or a missing required one. `M` adds an
 * embedder's node types (`FlowConfig<NodeConfigs & { greet: { name: string } }>`). Any `FlowConfig` is a
 * `WorkflowConfig`, which `weir.workflows.save` takes.
 * @example
 * const flow: FlowConfig = {
 *   nodes: [
 *     { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
 *     { id: 'set-1', type: 'set', config: { values: { greeting: 'hi {{ $input.name }}' } } },
 *   ],
 *   edges: [{ source: 'manual_trigger-1', target: 'set-1' }],
 * }
 */
export interface FlowConfig<M = NodeConfigs> {
  nodes: Array<{ [T in keyof M & string]: TypedNode<T, M[T]> }[keyof M & string]>;
  edges: FlowEdge[];
  variables?: Record<string, unknown>;
  metadata?: { description?: string; [key: string]: unknown };
}
