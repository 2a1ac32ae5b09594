import { WeirError } from '../../errors.js';
import type { JsonSchema } from '../../util/json-schema.js';
import type { ChatModel, ModelMessage, ModelRequest, ModelTurn, ToolCall } from '../model.js';
import { llmClient, modelNotFoundHint, type DriverOptions } from './client.js';

/** The part of a chat-completions answer weir reads. */
interface Completion {
  model?: string;
  choices?: {
    finish_reason?: string;
    message?: {
      content?: string | null;
      refusal?: string | null;
      tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
    };
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
}

/** The name of the JSON-schema answer format sent in `response_format` (the API requires one). */
const ANSWER_FORMAT = 'answer';

/** weir's messages in the chat-completions shape: `tool_calls` on assistant messages, `role: tool` answers. */
export function toOpenAiMessages(system: string, messages: ModelMessage[]): unknown[] {
  const out: unknown[] = system ? [{ role: 'system', content: system }] : [];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
    else if (m.toolCalls?.length) {
      out.push({
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input ?? {}) } })),
      });
    } else out.push({ role: 'assistant', content: m.content });
  }
  return out;
}

/**
 * Whether OpenAI's strict structured outputs accept a schema: every object closed
 * (`additionalProperties: false`) with all its properties required. A schema that is not is sent non-strict
 * (the answer is validated by the agent node either way) rather than refused by the API.
 */
export function strictCompatible(schema: JsonSchema): boolean {
  const objectLike = schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || schema.properties;
  if (objectLike) {
    const keys = Object.keys(schema.properties ?? {});
    if (schema.additionalProperties !== false) return false;
    if (!keys.every((k) => schema.required?.includes(k))) return false;
  }
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...(schema.items ? [schema.items] : []),
    ...(schema.anyOf ?? []),
    ...Object.values(schema.$defs ?? {}),
  ];
  return children.every(strictCompatible);
}

/** A tool call's `arguments` (a JSON string) as the input object; an empty string is no arguments. */
function parseArguments(raw: string | undefined, name: string, model: string, finish?: string): unknown {
  if (!raw || !raw.trim()) return {};
  try {
    return JSON.parse(raw);
  } catch {
    const cut = finish === 'length' ? ' (the answer was cut off at its token limit)' : '';
    throw new WeirError('PROVIDER', `the model "${model}" called the tool "${name}" with arguments that are not JSON${cut}: ${raw.slice(0, 200)}`, {
      hints: finish === 'length' ? ['raise providers.llm.maxTokens in weir.config.json'] : ['a model with better tool-calling support answers in JSON; retry the node or choose another model'],
    });
  }
}

/**
 * A ChatModel speaking the OpenAI chat-completions wire format (`POST <baseUrl>/v1/chat/completions`), which
 * OpenAI, Ollama, vLLM, llama.cpp and LM Studio serve. The key is sent as a Bearer token when there is one.
 * @example
 * const model = createOpenAiModel({ baseUrl: 'http://127.0.0.1:11434', model: 'llama3.2' })
 * const turn = await model.complete({ system: '', messages: [{ role: 'user', content: 'Hi' }], tools: [] })
 */
export function createOpenAiModel(options: DriverOptions & { service?: string }): ChatModel {
  const api = llmClient(
    { service: options.service ?? 'OpenAI', secret: 'OPENAI_API_KEY', headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {} },
    options,
  );
  return {
    driver: 'openai',
    model: options.model,
    async complete(request: ModelRequest): Promise<ModelTurn> {
      const model = request.model || options.model;
      const body: Record<string, unknown> = { model, messages: toOpenAiMessages(request.system, request.messages) };
      if (request.tools.length) {
        body.tools = request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
      }
      if (request.output) {
        const { schema } = request.output;
        body.response_format = { type: 'json_schema', json_schema: { name: ANSWER_FORMAT, schema, strict: strictCompatible(schema) } };
      }
      if (options.maxTokens) body.max_tokens = options.maxTokens;
      const res = await api.request<Completion>('POST', '/v1/chat/completions', { json: body, signal: request.signal, notFoundHint: modelNotFoundHint(model) });
      const choice = res?.choices?.[0];
      if (!choice?.message) throw new WeirError('PROVIDER', `the model "${model}" answered without a message (no choices[0].message)`);
      const { message } = choice;
      const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((c, i) => {
        const name = c.function?.name ?? '';
        return { id: c.id || `call_${i}`, name, input: parseArguments(c.function?.arguments, name, model, choice.finish_reason) };
      });
      const prompt = res.usage?.prompt_tokens ?? 0;
      const completion = res.usage?.completion_tokens ?? 0;
      return {
        text: message.content ?? message.refusal ?? '',
        toolCalls,
        usage: { promptTokens: prompt, completionTokens: completion, totalTokens: res.usage?.total_tokens ?? prompt + completion },
        model: res.model || model,
      };
    },
  };
}
