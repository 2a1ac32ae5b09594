/** An AI agent of the organization: id chosen by its creator, type, category and system prompt. */
export interface Agent {
  id: string;
  name: string;
  description?: string;
  type: string;
  category: string;
  /** Shipped with weir: read-only. */
  builtIn: boolean;
  systemPrompt: string;
  createdAt: string;
  updatedAt: string;
}

export type AgentSummary = Pick<Agent, 'id' | 'name' | 'type' | 'category' | 'builtIn'>;

export interface AgentCreateOptions {
  description?: string;
  type?: string;
  category?: string;
  prompt?: string;
}

/**
 * AI agents of the organization (`weir.agents`): built-in ones (read-only) and custom ones.
 * @example
 * await weir.agents.create('triage', 'Triage', 'sorts tickets', { prompt: 'You sort support tickets.' })
 * await weir.agents.getPrompt('triage') // 'You sort support tickets.'
 */
export interface Agents {
  /** Built-in agents, then custom ones by id. */
  list(): Promise<AgentSummary[]>;
  /** One agent with its system prompt. */
  get(id: string): Promise<Agent>;
  /** Creates a custom agent; ids are unique (built-in ids included). */
  create(id: string, name: string, description?: string, options?: AgentCreateOptions): Promise<Agent>;
  /** Deletes a custom agent; built-in agents refuse. */
  delete(id: string): Promise<Agent>;
  /** The system prompt of an agent. */
  getPrompt(id: string): Promise<string>;
  /** Replaces a custom agent's system prompt. */
  setPrompt(id: string, prompt: string): Promise<Agent>;
}
