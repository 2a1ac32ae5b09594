import type { NodeDefinition } from './define.js';
import { scheduleTrigger } from './triggers/schedule.js';
import {
  inboundCallTrigger,
  interfaceEventTrigger,
  manualTrigger,
  smsReceivedTrigger,
  webhookTrigger,
} from './triggers/simple.js';

export { defineNode, type NodeDefinition, type NodeContext, type Problem } from './define.js';

/** Every built-in node type, triggers first. */
export const builtinNodes: NodeDefinition<any>[] = [
  webhookTrigger,
  scheduleTrigger,
  manualTrigger,
  interfaceEventTrigger,
  inboundCallTrigger,
  smsReceivedTrigger,
];

/** Node types by name. */
export type NodeRegistry = Map<string, NodeDefinition<any>>;

/** The built-in nodes plus a host's own (a custom type may not replace a built-in one). */
export function createNodeRegistry(extra: NodeDefinition<any>[] = []): NodeRegistry {
  const registry: NodeRegistry = new Map(builtinNodes.map((n) => [n.type, n]));
  for (const node of extra) {
    if (registry.has(node.type)) throw new Error(`node type "${node.type}" is already defined`);
    registry.set(node.type, node);
  }
  return registry;
}
