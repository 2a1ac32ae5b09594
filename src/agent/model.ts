import type { JsonSchema } from '../util/json-schema.js';

/** A tool call the model asked for: its id (to answer it), the tool's name and the input the model gave. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** One message of a conversation with a model, in weir's own shape; each driver maps it to its wire format. */
export type ModelMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** A tool offered to the model: its name, what it does, and the JSON schema of its input. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** Tokens one model call (or a sum of them) took. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** One call to a model: the system prompt, the conversation so far and the tools it may call. */
export interface ModelRequest {
  system: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  /** Overrides the configured model (a node's `model`). */
  model?: string;
  /** Asks for a JSON answer matching this schema, in the provider's JSON-schema mode where it has one. */
  output?: { schema: JsonSchema };
  signal?: AbortSignal;
}

/** What the model answered: text (empty when it only calls tools), the tool calls it asks for, and the tokens. */
export interface ModelTurn {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** The model that answered, as the provider names it. */
  model: string;
}

/**
 * A configured language model (`providers.llm`), whatever its wire format.
 * @example
 * const turn = await model.complete({ system: 'You are terse.', messages: [{ role: 'user', content: 'Hi' }], tools: [] })
 */
export interface ChatModel {
  readonly driver: 'openai' | 'anthropic';
  /** The configured default model. */
  readonly model: string;
  complete(request: ModelRequest): Promise<ModelTurn>;
}
