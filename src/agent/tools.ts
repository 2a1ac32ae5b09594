import { WeirError } from '../errors.js';
import type { NodeContext } from '../nodes/define.js';
import { service } from '../nodes/resources/common.js';
import type { PublishedWorkflow } from '../resources/workflows/types.js';
import { inputParamsSchema, type InputParam } from '../triggers/input-params.js';
import { didYouMean } from '../util/nearest.js';
import type { ToolSpec } from './model.js';

/** The name of the tool `knowledge: true` adds. */
export const KNOWLEDGE_TOOL = 'knowledge_search';

/** A tool an agent node offers: a published flow (run as its own execution) or the knowledge base's search. */
export type AgentTool = { spec: ToolSpec; kind: 'flow'; ref: string; flow: PublishedWorkflow; params: InputParam[] | undefined } | { spec: ToolSpec; kind: 'knowledge'; ref: string };

const KNOWLEDGE_SPEC: ToolSpec = {
  name: KNOWLEDGE_TOOL,
  description: 'Full-text search of the knowledge base: the documents that match the words, best first, each with a snippet',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'The words to search for' },
      limit: { type: 'integer', minimum: 1, maximum: 50, description: 'At most this many hits (default 5)' },
    },
    required: ['query'],
  },
};

/**
 * The name a model calls a flow by: providers accept letters, digits, `_` and `-` (at most 64), so any other
 * character of the flow's name becomes `_`.
 * @example
 * agentToolName('look up order') // 'look_up_order'
 */
export const agentToolName = (flow: string): string => flow.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);

/**
 * The tools of an agent node by the name the model calls them: each listed published flow (looked up now, so
 * one renamed or unpublished since the flow was saved fails the node naming it) and `knowledge_search`.
 * @example
 * const tools = await agentTools(ctx, ['refund-order'], true) // Map { 'refund-order' => ..., 'knowledge_search' => ... }
 */
export async function agentTools(ctx: NodeContext<any>, flows: string[], knowledge: boolean): Promise<Map<string, AgentTool>> {
  const tools = new Map<string, AgentTool>();
  if (flows.length) {
    const published = service(ctx, 'published');
    const found = await Promise.all(flows.map((ref) => published.find(ref)));
    const missing = flows.filter((_, i) => !found[i]);
    if (missing.length) {
      const names = (await published.list()).map((w) => w.name);
      throw new WeirError('NOT_FOUND', `agent: no published flow ${missing.map((m) => `"${m}"`).join(', ')} to offer as a tool${didYouMean(missing[0], names)}`, { hints: ['publish the flow first (`weir workflows publish <name>`), or fix its name in "tools"'] });
    }
    for (const [i, flow] of (found as PublishedWorkflow[]).entries()) {
      const name = agentToolName(flow.name);
      if (tools.has(name) || name === KNOWLEDGE_TOOL) throw new WeirError('INVALID_CONFIG', `agent: two tools would be called "${name}"; rename one of the flows`);
      const trigger = flow.config.nodes.find((n) => n.type.endsWith('_trigger'));
      const params = trigger?.config?.inputParams as InputParam[] | undefined;
      const description = flow.description?.trim() || `Runs the flow "${flow.name}" and returns its result`;
      tools.set(name, { kind: 'flow', ref: flows[i], flow, params, spec: { name, description, parameters: inputParamsSchema(params) } });
    }
  }
  if (knowledge) tools.set(KNOWLEDGE_TOOL, { kind: 'knowledge', ref: KNOWLEDGE_TOOL, spec: KNOWLEDGE_SPEC });
  return tools;
}
