import type { NodeDefinition } from './define.js';
import { scheduleTrigger } from './triggers/schedule.js';
import {
  inboundCallTrigger,
  interfaceEventTrigger,
  manualTrigger,
  smsReceivedTrigger,
  webhookTrigger,
} from './triggers/simple.js';
import { callFlowNode } from './call-flow.js';
import { codeNode } from './code.js';
import { conditionNode } from './condition.js';
import { delayNode } from './delay.js';
import { waitNode } from './wait.js';
import { httpRequestNode } from './http-request.js';
import { respondNode } from './respond.js';
import { setNode } from './set.js';
import { knowledgeSearchNode } from './resources/knowledge-search.js';
import { kvDeleteNode } from './resources/kv-delete.js';
import { kvGetNode } from './resources/kv-get.js';
import { kvSetNode } from './resources/kv-set.js';
import { storageGetNode } from './resources/storage-get.js';
import { storagePutNode } from './resources/storage-put.js';
import { tableInsertNode } from './resources/table-insert.js';
import { tableQueryNode } from './resources/table-query.js';

export { defineNode, type NodeDefinition, type NodeContext, type Problem } from './define.js';

/** Every built-in node type, triggers first. */
export const builtinNodes: NodeDefinition<any>[] = [
  webhookTrigger,
  scheduleTrigger,
  manualTrigger,
  interfaceEventTrigger,
  inboundCallTrigger,
  smsReceivedTrigger,
  setNode,
  codeNode,
  conditionNode,
  respondNode,
  httpRequestNode,
  delayNode,
  waitNode,
  callFlowNode,
  kvGetNode,
  kvSetNode,
  kvDeleteNode,
  tableQueryNode,
  tableInsertNode,
  storageGetNode,
  storagePutNode,
  knowledgeSearchNode,
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
