import { runAgent } from '../agent/loop.js';
import { WeirError } from '../errors.js';
import { agentTools, KNOWLEDGE_TOOL } from '../agent/tools.js';
import type { JsonSchema } from '../util/json-schema.js';
import { isObject } from '../util/json.js';
import { check, defineNode, type Problem } from './define.js';
import { isTemplate } from './fields.js';
import { service } from './resources/common.js';

/** Model calls an agent node makes at most unless its `maxSteps` says otherwise. */
export const DEFAULT_MAX_STEPS = 8;
/** The most `maxSteps` may be: a loop this long is a mistake, not a plan. */
export const MAX_MAX_STEPS = 100;

/** The config of an agent node. */
export interface AgentConfig {
  /** The agent (id) whose system prompt is sent. */
  agent: string;
  /** The user's message: text with expressions (a value an expression gives whole is sent as JSON). */
  prompt: string;
  /** Published flows (names or ids) the model may call as tools. */
  tools?: string[];
  /** Adds the `knowledge_search` tool. */
  knowledge?: boolean;
  maxSteps?: number;
  /** Overrides the model of `providers.llm`. */
  model?: string;
  /** Asks for a JSON answer valid against `schema`: `data.output` is the parsed answer. */
  output?: { schema: JsonSchema };
  /** Tool calls that wait for a person's approval: `true` for all, or the tools named. */
  approve?: boolean | string[];
}

/**
 * `{"agent": "<agent-id>", "prompt": "<text with expressions>", "tools": ["<flow>"...], "knowledge", "maxSteps",
 * "model", "output": {"schema"}, "approve"}`: sends the agent's system prompt and the prompt to the configured
 * model (`providers.llm`) and runs the tool calls it asks for until it answers with text. A tool is a published
 * flow (its trigger's `inputParams` are the tool's input schema) run as its own execution, child of this one,
 * with exactly the model's input; its result, or its error as `{error: {code, message, executionId}}`, is what
 * the model reads back. Each model call and each tool call is a checkpoint: a resume repeats neither.
 * @example
 * { "id": "agent-1", "type": "agent", "config": { "agent": "support-triage", "prompt": "{{ $input.body.message }}", "tools": ["refund-order"], "knowledge": true, "approve": ["refund-order"] } }
 */
export const agentNode = defineNode<AgentConfig>({
  type: 'agent',
  category: 'ai',
  docs: {
    summary: "Asks the configured model with an agent's system prompt, running published flows and the knowledge search as its tools until it answers",
    output: '`{text, toolCalls: [{name, input, output}], usage: {promptTokens, completionTokens, totalTokens}, steps}`, and `output` (the parsed, validated answer) with `output.schema`',
    example: { agent: 'assistant', prompt: 'Where is order {{ $input.orderId }}?', tools: ['order-status'], knowledge: true, maxSteps: 6 },
  },
  rawKeys: ['output'],
  config: {
    type: 'object',
    properties: {
      agent: { type: 'string', description: 'The id of the agent whose system prompt is sent (`weir agent list`)' },
      prompt: { type: 'string', description: "The user's message to the model: text with expressions" },
      tools: { type: 'array', items: { type: 'string' }, description: "Published flows (names or ids) the model may call; each one's trigger inputParams are the tool's input schema" },
      knowledge: { type: 'boolean', description: 'true: the model may also call knowledge_search (full-text search of the knowledge base)' },
      maxSteps: { type: 'integer', minimum: 1, maximum: MAX_MAX_STEPS, description: `Model calls at most; a model still asking for tools at the last one fails the node with MAX_STEPS (default ${DEFAULT_MAX_STEPS})` },
      model: { type: 'string', description: 'The model to ask instead of the one in providers.llm' },
      output: {
        type: 'object',
        properties: { schema: { type: 'object', description: 'A JSON schema the answer must match' } },
        required: ['schema'],
        additionalProperties: false,
        description: 'Ask for a JSON answer: {schema}; an answer that does not match is retried once, then fails the node with INVALID_OUTPUT',
      },
      approve: { anyOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string' } }], description: 'Tool calls that wait (status waiting) for a person to approve or deny them: true for every tool, or a list of tools' },
    },
    required: ['agent', 'prompt'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    check.required(config as unknown as Record<string, unknown>, 'agent', problems);
    check.required(config as unknown as Record<string, unknown>, 'prompt', problems);
    const tools = Array.isArray(config.tools) ? config.tools : [];
    tools.forEach((t, i) => {
      if (typeof t !== 'string' || !t.trim()) problems.push({ path: `tools[${i}]`, message: 'a tool is the name or id of a published flow' });
      else if (tools.indexOf(t) !== i) problems.push({ path: `tools[${i}]`, message: `"${t}" is listed twice` });
      else if (t === KNOWLEDGE_TOOL) problems.push({ path: `tools[${i}]`, message: `"${KNOWLEDGE_TOOL}" is not a flow: set "knowledge": true instead` });
    });
    if (Array.isArray(config.approve)) {
      const known = [...tools.filter((t): t is string => typeof t === 'string'), ...(config.knowledge === true ? [KNOWLEDGE_TOOL] : [])];
      config.approve.forEach((name, i) => {
        if (typeof name === 'string' && !known.includes(name)) problems.push({ path: `approve[${i}]`, message: `"${name}" is not one of the node's tools (${known.map((k) => `"${k}"`).join(', ') || 'it has none'})` });
      });
    }
    const schema = config.output?.schema;
    if (isObject(schema) && schema.type !== undefined && typeof schema.type !== 'string' && !Array.isArray(schema.type)) problems.push({ path: 'output.schema.type', message: 'a JSON schema "type" is a string or a list of them' });
    if (typeof config.model === 'string' && !config.model.trim() && !isTemplate(config.model)) problems.push({ path: 'model', message: '"model" must not be empty (leave it out for the configured model)' });
    return problems;
  },
  async run(ctx) {
    const { config } = ctx;
    const model = await service(ctx, 'chatModel')();
    const agent = await service(ctx, 'agents').get(String(config.agent));
    const tools = await agentTools(ctx, config.tools ?? [], config.knowledge === true);
    const rendered: unknown = config.prompt;
    const prompt = typeof rendered === 'string' ? rendered : JSON.stringify(rendered ?? null);
    return runAgent(ctx, {
      model,
      system: agent.systemPrompt,
      prompt,
      tools,
      maxSteps: maxStepsOf(config.maxSteps),
      modelName: config.model || undefined,
      output: config.output,
      approve: config.approve,
    });
  },
});

/** `maxSteps` as it came out of its expression: a whole number from 1 to {@link MAX_MAX_STEPS}. */
function maxStepsOf(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_STEPS;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_MAX_STEPS) return value;
  throw new WeirError('INVALID_INPUT', `agent: "maxSteps" must be a whole number from 1 to ${MAX_MAX_STEPS}, got ${JSON.stringify(value)}`);
}
