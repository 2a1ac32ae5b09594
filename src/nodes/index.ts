import { WeirError } from '../errors.js';
import type { NodeDefinition } from './define.js';
// The trigger nodes live with their triggers (src/triggers/<kind>/node.ts).
import { errorTrigger } from '../triggers/error/node.js';
import { inboundCallTrigger } from '../triggers/inbound-call/node.js';
import { interfaceEventTrigger } from '../triggers/interface-event/node.js';
import { manualTrigger } from '../triggers/manual/node.js';
import { scheduleTrigger } from '../triggers/schedule/node.js';
import { smsReceivedTrigger } from '../triggers/sms/node.js';
import { webhookTrigger } from '../triggers/webhook/node.js';
import { agentNode } from './agent.js';
import { callFlowNode } from './call-flow.js';
import { codeNode } from './code.js';
import { conditionNode } from './condition.js';
import { switchNode } from './switch.js';
import { delayNode } from './delay.js';
import { foreachNode } from './foreach.js';
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

export { defineNode, type NodeDefinition, type NodeContext, type NodeDocs, type NodeHandles, type Problem } from './define.js';

/**
 * Every built-in node type by its `type`, triggers first: adding a node type is its file and one line here.
 * The keys give {@link NodeConfigs}, so a flow written in TypeScript is checked against each type's config.
 */
export const BUILTIN_NODES = {
  webhook_trigger: webhookTrigger,
  schedule_trigger: scheduleTrigger,
  manual_trigger: manualTrigger,
  interface_event_trigger: interfaceEventTrigger,
  inbound_call_trigger: inboundCallTrigger,
  sms_received_trigger: smsReceivedTrigger,
  error_trigger: errorTrigger,
  set: setNode,
  code: codeNode,
  condition: conditionNode,
  switch: switchNode,
  respond: respondNode,
  http_request: httpRequestNode,
  delay: delayNode,
  wait: waitNode,
  call_flow: callFlowNode,
  foreach: foreachNode,
  kv_get: kvGetNode,
  kv_set: kvSetNode,
  kv_delete: kvDeleteNode,
  table_query: tableQueryNode,
  table_insert: tableInsertNode,
  storage_get: storageGetNode,
  storage_put: storagePutNode,
  knowledge_search: knowledgeSearchNode,
  agent: agentNode,
};

/** Every built-in node type, triggers first. */
export const builtinNodes: NodeDefinition<any>[] = Object.values(BUILTIN_NODES);

/** The config type of each built-in node type, by type: what {@link FlowConfig} checks a node's config against. */
export type NodeConfigs = { [T in keyof typeof BUILTIN_NODES]: (typeof BUILTIN_NODES)[T] extends NodeDefinition<infer C> ? C : never };

/** Node types by name. */
export type NodeRegistry = Map<string, NodeDefinition<any>>;

/** The built-in nodes plus a host's own (a custom type may not replace a built-in one). */
export function createNodeRegistry(extra: NodeDefinition<any>[] = []): NodeRegistry {
  const registry: NodeRegistry = new Map(builtinNodes.map((n) => [n.type, n]));
  for (const node of extra) {
    if (registry.has(node.type)) {
      const whose = BUILTIN_NODES[node.type as keyof typeof BUILTIN_NODES] ? 'a built-in node type' : 'given twice';
      throw new WeirError('INVALID_CONFIG', `node type "${node.type}" is already defined (${whose})`, { hints: ['give your node type a name of its own'] });
    }
    registry.set(node.type, node);
  }
  return registry;
}
