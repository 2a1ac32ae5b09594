import { WeirError } from '../errors.js';
import { Suspend } from '../flow/suspend.js';
import type { NodeContext } from '../nodes/define.js';
import { newExecutionId } from '../resources/executions/ids.js';
import { validateSchema, type JsonSchema } from '../util/json-schema.js';
import { approvalOf, needsApproval, type AwaitingApproval } from './approval.js';
import type { ChatModel, ModelMessage, ModelTurn, Usage } from './model.js';
import { denied, runTool, type PendingCall } from './run-tool.js';
import type { AgentTool } from './tools.js';

/** One tool call as the node's data (and a `MAX_STEPS` error) records it. */
export interface ToolCallRecord {
  name: string;
  input: unknown;
  output: unknown;
}

/** An agent node's data. */
export interface AgentData {
  text: string;
  toolCalls: ToolCallRecord[];
  usage: Usage;
  /** Model calls made. */
  steps: number;
  /** With `output: {schema}`: the parsed answer, valid against the schema. */
  output?: unknown;
}

/** What the loop needs besides the node's context. */
export interface AgentRun {
  model: ChatModel;
  system: string;
  prompt: string;
  tools: Map<string, AgentTool>;
  maxSteps: number;
  modelName?: string;
  output?: { schema: JsonSchema };
  approve?: boolean | string[];
}

/**
 * The node's progress (`ctx.saveProgress`), stored after each model call and each tool call: a resume after a
 * crash goes on from there, calling neither the model nor a tool again for a step that was stored.
 */
interface Progress extends AwaitingApproval {
  messages: ModelMessage[];
  toolCalls: ToolCallRecord[];
  usage: Usage;
  steps: number;
  /** The tool calls of the model's last answer, in order, until all of them have their results. */
  pending?: PendingCall[];
  /** The one retry of an answer that did not match `output.schema` was made. */
  retried?: boolean;
}

const ZERO: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/** The last thing the model said in words (its text beside tool calls counts), for a partial result. */
const lastText = (messages: ModelMessage[]): string => {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'assistant' && m.content) return m.content;
  }
  return '';
};

/**
 * The agent's loop: asks the model, runs the tool calls it asks for (one after another, each result back to it),
 * and repeats until it answers without tool calls; with `output`, that answer must be JSON valid against the
 * schema (one retry with the problems, then INVALID_OUTPUT). A model still asking for tools at its `maxSteps`-th
 * call fails the node with MAX_STEPS, the calls made and the last text in the error's `details`.
 * @example
 * const data = await runAgent(ctx, { model, system: 'You help.', prompt: 'Refund order 7', tools, maxSteps: 8 })
 */
export async function runAgent(ctx: NodeContext<any>, run: AgentRun): Promise<AgentData | Suspend> {
  const prior = ctx.progress as Progress | undefined;
  const progress: Progress = prior ?? { messages: [{ role: 'user', content: run.prompt }], toolCalls: [], usage: { ...ZERO }, steps: 0 };
  // The calls of a resumed run may have started before the crash: their executions are awaited, not started again.
  const resumed = new Set(prior?.pending?.map((p) => p.call.id));
  for (;;) {
    for (const pending of progress.pending ?? []) {
      if (pending.done) continue;
      const tool = run.tools.get(pending.call.name);
      let result;
      if (needsApproval(run.approve, tool)) {
        const decision = await approvalOf(ctx, progress, pending);
        if (decision instanceof Suspend) return decision;
        result = decision.approved ? await runTool(ctx, tool, pending, resumed.has(pending.call.id)) : denied(decision);
      } else {
        result = await runTool(ctx, tool, pending, resumed.has(pending.call.id));
      }
      if (result instanceof Suspend) return result;
      pending.done = true;
      progress.toolCalls.push({ name: pending.call.name, input: pending.call.input, output: result.output });
      progress.messages.push({ role: 'tool', toolCallId: pending.call.id, name: pending.call.name, content: result.content });
      // Not awaited: a flow's result is in its own record already (a resume awaits it by its reserved id), so
      // the model may be asked while this checkpoint is written. A write that fails fails the next checkpoint too,
      // which is awaited: the node fails there.
      ctx.saveProgress(progress).catch(() => {});
    }
    delete progress.pending;
    const turn = await ask(run, progress, ctx.signal);
    ctx.recordUsage(turn.model, turn.usage);
    progress.messages.push({ role: 'assistant', content: turn.text, ...(turn.toolCalls.length ? { toolCalls: turn.toolCalls } : {}) });
    if (turn.toolCalls.length) {
      if (progress.steps >= run.maxSteps) throw maxStepsError(run.maxSteps, progress);
      // The executions' ids are stored with the answer, before any of them starts.
      progress.pending = turn.toolCalls.map((call) => ({ call, ...(run.tools.get(call.name)?.kind === 'flow' ? { executionId: newExecutionId() } : {}) }));
      await ctx.saveProgress(progress);
      continue;
    }
    const data: AgentData = { text: turn.text, toolCalls: progress.toolCalls, usage: progress.usage, steps: progress.steps };
    if (!run.output) return data;
    const parsed = parseAnswer(turn.text, run.output.schema);
    if (parsed.ok) return { ...data, output: parsed.value };
    if (progress.retried) {
      throw new WeirError('INVALID_OUTPUT', `agent: the model's answer does not match output.schema, after one retry: ${parsed.problems.join('; ')}`, { details: { text: turn.text, problems: parsed.problems }, hints: ['describe the answer in the prompt, or loosen output.schema'] });
    }
    progress.retried = true;
    progress.messages.push({ role: 'user', content: `Your answer is not valid: ${parsed.problems.join('; ')}. Answer again with only the JSON value, matching the schema.` });
    await ctx.saveProgress(progress);
  }
}

/** One model call, counted in `steps` and `usage`. */
async function ask(run: AgentRun, progress: Progress, signal: AbortSignal): Promise<ModelTurn> {
  const turn = await run.model.complete({ system: run.system, messages: progress.messages, tools: [...run.tools.values()].map((t) => t.spec), model: run.modelName, output: run.output, signal });
  progress.steps++;
  const u = progress.usage;
  progress.usage = { promptTokens: u.promptTokens + turn.usage.promptTokens, completionTokens: u.completionTokens + turn.usage.completionTokens, totalTokens: u.totalTokens + turn.usage.totalTokens };
  return turn;
}

function maxStepsError(maxSteps: number, progress: Progress): WeirError {
  const { toolCalls, usage, steps } = progress;
  return new WeirError('MAX_STEPS', `agent: the model still asked for tools after ${maxSteps} step${maxSteps === 1 ? '' : 's'} (maxSteps ${maxSteps}); ${toolCalls.length} tool call${toolCalls.length === 1 ? '' : 's'} made, no answer`, {
    details: { text: lastText(progress.messages), toolCalls, usage, steps },
    hints: ['raise "maxSteps" on the node, or say in the prompt when the agent should stop and answer'],
  });
}

/** The answer as JSON valid against the schema (a ```json fence around it is allowed), or what is wrong with it. */
function parseAnswer(text: string, schema: JsonSchema): { ok: true; value: unknown } | { ok: false; problems: string[] } {
  const body = text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    return { ok: false, problems: [`it is not JSON (${(err as Error).message})`] };
  }
  const problems = validateSchema(value, schema).map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));
  return problems.length ? { ok: false, problems } : { ok: true, value };
}
