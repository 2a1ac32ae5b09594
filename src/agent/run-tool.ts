import { childOf } from '../flow/children.js';
import { Suspend } from '../flow/suspend.js';
import type { Approval, ChildExecution, ExecutionRecord } from '../flow/types.js';
import { MAX_CALL_DEPTH } from '../nodes/call-flow.js';
import type { NodeContext } from '../nodes/define.js';
import { service } from '../nodes/resources/common.js';
import { checkInput } from '../triggers/input-params.js';
import { isObject } from '../util/json.js';
import type { ToolCall } from './model.js';
import type { AgentTool } from './tools.js';

/**
 * A tool call of the model's last answer, as stored in the node's progress: the execution id its flow runs
 * under (reserved in the checkpoint of the model's answer, before it starts, so a resume awaits that
 * execution instead of starting another), the approval it got, and whether its result is in the conversation.
 */
export interface PendingCall {
  call: ToolCall;
  executionId?: string;
  approval?: Approval;
  done?: boolean;
}

/** What one tool call gave: the text the model reads, and the output `toolCalls` records. */
export interface ToolResult {
  content: string;
  output: unknown;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** A failed tool call as the model reads it and `toolCalls` records it: `{error: {code, message, executionId?}}`. */
function failed(code: string, message: string, executionId?: string): ToolResult {
  const output = { error: { code, message, ...(executionId ? { executionId } : {}) } };
  return { content: JSON.stringify(output), output };
}

/** The result of a denied call: the model reads that a person denied it, and why. */
export function denied(approval: Approval): ToolResult {
  const reason = approval.reason?.trim();
  return { content: `denied by a person${reason ? `: ${reason}` : ''}`, output: { denied: true, ...(reason ? { reason } : {}) } };
}

/**
 * Runs one tool call: a flow as its own execution (trigger `agent`, child of this one) with exactly the input
 * the model gave, or a knowledge search. A failure of the tool (an input its `inputParams` refuse, a flow that
 * fails) is its result, so the model can correct itself; a flow that waits (a `wait` node) makes the node wait
 * until it ends.
 * @example
 * const result = await runTool(ctx, tools.get(call.name), { call, executionId: newExecutionId() }, false)
 */
export async function runTool(ctx: NodeContext<any>, tool: AgentTool | undefined, pending: PendingCall, resumed: boolean): Promise<ToolResult | Suspend> {
  const { call } = pending;
  if (!tool) return failed('NOT_FOUND', `there is no tool "${call.name}"; call one of the tools offered`);
  if (tool.kind === 'knowledge') {
    const input = call.input as { query?: unknown; limit?: unknown };
    if (!isObject(input) || typeof input.query !== 'string' || !input.query.trim()) return failed('INVALID_INPUT', '"query" is required (the words to search for)');
    const limit = typeof input.limit === 'number' && Number.isInteger(input.limit) ? Math.min(Math.max(input.limit, 1), 50) : 5;
    const hits = await service(ctx, 'knowledge').search(input.query, { limit });
    return { content: JSON.stringify(hits), output: hits };
  }
  const problems = isObject(call.input) ? checkInput(tool.params, call.input) : ['the input must be a JSON object'];
  if (problems.length) return failed('INVALID_INPUT', `invalid input for "${call.name}": ${problems.join('; ')}`);
  if (ctx.execution.depth + 1 > MAX_CALL_DEPTH) return failed('RULE', `flows nest more than ${MAX_CALL_DEPTH} deep (does a tool flow run this agent?)`);
  const record = await flowRun(ctx, tool.flow.name, pending, resumed);
  if (record.status === 'waiting') return new Suspend({ kind: 'children', executionIds: [record.id] });
  if (record.status === 'success') return { content: text(record.result), output: record.result ?? null };
  return failed(record.error?.code ?? 'EXECUTION_FAILED', record.error?.message ?? `the flow ended ${record.status}`, record.id);
}

/**
 * The flow's execution under the reserved id: on a resumed run, the one a run before a crash (or a wait)
 * started, else a new one.
 */
async function flowRun(ctx: NodeContext<any>, flow: string, pending: PendingCall, resumed: boolean): Promise<ExecutionRecord> {
  const depth = ctx.execution.depth + 1;
  const nodeId = ctx.node.id;
  const id = pending.executionId!;
  const found = resumed ? await service(ctx, 'awaitExecution')(id, ctx.signal) : null;
  if (found) {
    void ctx.execution.adopt({ executionId: found.id, workflowId: found.workflowId, nodeId }, false);
    return found;
  }
  // The id was stored with the model's answer: the link to this execution is durable without a checkpoint of the child's own.
  const parent = { ...childOf(ctx.execution, nodeId), adopt: (child: ChildExecution) => ctx.execution.adopt(child, false) };
  return service(ctx, 'run')(flow, pending.call.input, { published: true, trigger: 'agent', signal: ctx.signal, depth, parent, executionId: id });
}
