import { WeirError } from '../../errors.js';
import type { JsonSchema } from '../../util/json-schema.js';
import type { ChatModel, ModelMessage, ModelRequest, ModelTurn } from '../model.js';
import { llmClient, modelNotFoundHint, type DriverOptions } from './client.js';

/** Anthropic's required `max_tokens` unless `providers.llm.maxTokens` says otherwise; every current model allows it. */
export const DEFAULT_MAX_TOKENS = 4096;

/** The API version weir speaks (`anthropic-version`). */
export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * The tool a structured answer is given through: the Messages API has no JSON-schema answer mode, so the
 * documented way is a tool whose `input_schema` is the schema, which the model is made to call.
 */
export const ANSWER_TOOL = 'json_answer';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string };

/** The part of a Messages API answer weir reads. */
interface Message {
  model?: string;
  stop_reason?: string;
  content?: Block[];
  usage?: { input_tokens?: number; output_tokens?: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number };
}

/**
 * weir's messages as Messages API turns: tool calls as `tool_use` blocks, tool results as `tool_result` blocks
 * of a user turn; neighbouring turns of one role are merged, as the API wants roles to alternate.
 */
export function toAnthropicMessages(messages: ModelMessage[]): { role: 'user' | 'assistant'; content: Block[] }[] {
  const out: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks: Block[] = [];
    if (m.role === 'tool') blocks.push({ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content });
    // The API refuses empty text blocks: an assistant turn of tool calls only has none.
    else if (m.content) blocks.push({ type: 'text', text: m.content });
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input ?? {} });
    if (!blocks.length) continue;
    const last = out[out.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return out;
}

/** A tool's `input_schema` must describe an object: any other answer schema is wrapped as `{value}`. */
const answerSchema = (schema: JsonSchema): { inputSchema: JsonSchema; wrapped: boolean } =>
  schema.type === 'object' ? { inputSchema: schema, wrapped: false } : { inputSchema: { type: 'object', properties: { value: schema }, required: ['value'] }, wrapped: true };

/**
 * A ChatModel speaking Anthropic's Messages API (`POST <baseUrl>/v1/messages`). A structured answer
 * (`output.schema`) is asked for with the tool {@link ANSWER_TOOL}: forced when there are no other tools,
 * else the model must call some tool (`tool_choice: any`) and calling this one is its answer.
 * @example
 * const model = createAnthropicModel({ baseUrl: 'https://api.anthropic.com', apiKey, model: 'claude-sonnet-4-5' })
 */
export function createAnthropicModel(options: DriverOptions & { service?: string }): ChatModel {
  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  const api = llmClient({ service: options.service ?? 'Anthropic', secret: 'ANTHROPIC_API_KEY', headers }, options);
  return {
    driver: 'anthropic',
    model: options.model,
    async complete(request: ModelRequest): Promise<ModelTurn> {
      const model = request.model || options.model;
      const body: Record<string, unknown> = {
        model,
        max_tokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
        messages: toAnthropicMessages(request.messages),
      };
      if (request.system) body.system = request.system;
      const tools: unknown[] = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
      const answer = request.output ? answerSchema(request.output.schema) : undefined;
      if (answer) {
        if (request.tools.some((t) => t.name === ANSWER_TOOL)) {
          throw new WeirError('INVALID_INPUT', `a tool may not be named "${ANSWER_TOOL}" when a structured answer is asked for: Anthropic's answer is given through a tool of that name`);
        }
        tools.push({ name: ANSWER_TOOL, description: 'Give your final answer: its input is the answer, as JSON matching this schema.', input_schema: answer.inputSchema });
        body.tool_choice = request.tools.length ? { type: 'any' } : { type: 'tool', name: ANSWER_TOOL };
      }
      if (tools.length) body.tools = tools;
      const res = await api.request<Message>('POST', '/v1/messages', { json: body, signal: request.signal, notFoundHint: modelNotFoundHint(model) });
      if (!Array.isArray(res?.content)) throw new WeirError('PROVIDER', `the model "${model}" answered without content blocks`);
      const uses = res.content.filter((b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use');
      const given = answer && uses.find((b) => b.name === ANSWER_TOOL);
      const u = res.usage ?? {};
      const prompt = (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
      const completion = u.output_tokens ?? 0;
      const usage = { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion };
      if (given) {
        // The answer tool's input is the answer; other calls beside it are moot, the model has answered.
        const value = answer.wrapped ? (given.input as { value?: unknown })?.value : given.input;
        return { text: JSON.stringify(value), toolCalls: [], usage, model: res.model || model };
      }
      return {
        text: res.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
        toolCalls: uses.map((b) => ({ id: b.id, name: b.name, input: b.input })),
        usage,
        model: res.model || model,
      };
    },
  };
}
