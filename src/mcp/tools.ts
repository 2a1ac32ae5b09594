import { WeirError } from '../errors.js';
import type { NodeRegistry } from '../nodes/index.js';
import type { PublishedWorkflow, Workflows } from '../resources/workflows/index.js';
import { inputParamsSchema, type InputParam } from '../triggers/input-params.js';
import type { InterfaceEvents } from '../triggers/interface-event/events.js';
import { isObject } from '../util/json.js';
import type { JsonSchema } from '../util/json-schema.js';

/** A published flow offered as an MCP tool. */
export interface FlowTool {
  /** The flow's name with every character MCP does not allow in a tool name replaced by `_` (see {@link mcpToolName}). */
  name: string;
  /** The published copy's description, when it has one. */
  description?: string;
  /** The JSON schema of the trigger's `inputParams` (any object when it declares none). */
  inputSchema: JsonSchema;
  flowId: string;
}

/** What a tool call answers (MCP's `CallToolResult`): the result as JSON text and as structured content. */
export interface FlowToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

/** What {@link createFlowTools} uses of a weir instance. */
export interface FlowToolsDeps {
  workflows: Pick<Workflows, 'listPublished'>;
  nodes: Pick<NodeRegistry, 'get'>;
  /** The server-side caller path: runs a published flow with its input checked against `inputParams`. */
  events: Pick<InterfaceEvents, 'executeFlow'>;
}

/** The published flows that opted in, and a call of one of them by its tool name. */
export interface FlowTools {
  /** Every published flow with `settings.mcp: true`, read from storage at each call (a publish shows at once). */
  list(): Promise<FlowTool[]>;
  /** Runs the flow behind a tool; null when no published flow with `settings.mcp: true` has that tool name. */
  call(name: string, args: unknown): Promise<FlowToolResult | null>;
}

/** MCP's tool names: 1 to 128 of `A-Z a-z 0-9 _ - .`. */
const MAX_NAME = 128;

/**
 * A flow name as an MCP tool name: each character outside `A-Z a-z 0-9 _ - .` becomes `_`, at most 128 of them.
 * @example
 * mcpToolName('send invoice') // 'send_invoice'
 */
export const mcpToolName = (flowName: string): string => flowName.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, MAX_NAME) || '_';

const triggerParams = (nodes: FlowToolsDeps['nodes'], pub: PublishedWorkflow) =>
  pub.config.nodes.find((n) => nodes.get(n.type)?.trigger)?.config?.inputParams as InputParam[] | undefined;

/** JSON text of a value, `null` for none (a flow that ends without data). */
const json = (value: unknown) => JSON.stringify(value ?? null);

/**
 * The tools `/mcp` offers: published flows whose published copy says `settings.mcp: true`. A call runs the
 * flow like `weir.executeFlow` (input checked against `inputParams` first) and answers its result; a refused
 * input or a failed execution answers `isError: true` with the message (and the execution id), so the
 * client's model can read what went wrong.
 * @example
 * const tools = createFlowTools({ workflows, nodes, events: runtime.events })
 * await tools.call('send_invoice', { amount: 3 }) // { content: [{ type: 'text', text: '{"sent":true}' }], structuredContent: { sent: true } }
 */
export function createFlowTools(deps: FlowToolsDeps): FlowTools {
  async function list(): Promise<FlowTool[]> {
    const flows = (await deps.workflows.listPublished()).filter((pub) => pub.config.settings?.mcp === true).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const taken = new Set<string>();
    return flows.map((pub) => {
      let name = mcpToolName(pub.name);
      // Two flow names that differ only in characters MCP does not allow would give one tool name.
      if (taken.has(name)) name = `${name.slice(0, MAX_NAME - 9)}_${pub.id.slice(-8)}`;
      taken.add(name);
      return { name, ...(pub.description ? { description: pub.description } : {}), inputSchema: inputParamsSchema(triggerParams(deps.nodes, pub)), flowId: pub.id };
    });
  }

  return {
    list,
    async call(name, args) {
      const tool = (await list()).find((t) => t.name === name);
      if (!tool) return null;
      try {
        const result = await deps.events.executeFlow(tool.flowId, args ?? {});
        return { content: [{ type: 'text', text: json(result) }], structuredContent: isObject(result) ? result : { result: result ?? null } };
      } catch (err) {
        if (!(err instanceof WeirError)) throw err;
        // An execution that did not succeed: its details name it, its status and the code it failed with (TIMEOUT, a node's own...).
        const { executionId, code, status } = (err.details ?? {}) as { executionId?: string; code?: string; status?: string };
        const waiting = status === 'waiting';
        const message = waiting ? `flow "${tool.name}" is waiting (a wait node or an approval): the execution goes on without this call` : err.message;
        // A waiting execution has not failed: it has a status, no error code.
        const error = { ...(waiting ? {} : { code: code ?? err.code }), message, ...(executionId ? { executionId, status } : {}) };
        const text = executionId ? `${message} (execution ${executionId})` : message;
        return { content: [{ type: 'text', text }], structuredContent: { error }, isError: true };
      }
    },
  };
}
