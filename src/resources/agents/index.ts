import { WeirError } from '../../errors.js';
import type { KeyValueStorage, Storages } from '../../storage/index.js';
import { readRecords } from '../../util/refs.js';
import { BUILTIN_AGENTS } from './builtins.js';
import type { Agents, Agent, AgentSummary, AgentCreateOptions } from '../../types/agents.js';

export type { Agents, Agent, AgentSummary, AgentCreateOptions } from '../../types/agents.js';

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Agents: the built-in ones (read-only, in code) and custom ones in the `cloud` mount (`agents:<id>`).
 * @example
 * await weir.agents.create('refunds', 'Refund helper', 'Drafts refund answers', { category: 'support' })
 * await weir.agents.setPrompt('refunds', 'You draft polite refund answers.')
 */
export function createAgents({ storage }: { storage: Storages }): Agents {
  const custom: KeyValueStorage = storage.view('cloud', 'agents');
  const builtIn = (id: string) => BUILTIN_AGENTS.find((a) => a.id === id);

  async function get(id: string): Promise<Agent> {
    const found = builtIn(id) ?? (ID.test(id) ? await custom.getItem<Agent>(id) : null);
    if (!found || typeof found !== 'object') throw new WeirError('NOT_FOUND', `agent "${id}" not found`, { hints: ['run `weir agent list` to see agent ids'] });
    return { ...found };
  }

  async function writable(id: string, action: string): Promise<Agent> {
    const agent = await get(id);
    if (agent.builtIn) {
      throw new WeirError('READ_ONLY', `agent "${id}" is built in and cannot be ${action}`, {
        hints: [`create a custom agent instead: weir agent create <id> <name> --prompt "..."`],
      });
    }
    return agent;
  }

  return {
    /** Built-in agents, then custom ones by id. */
    async list(): Promise<AgentSummary[]> {
      const mine = (await readRecords<Agent>(custom)).sort((a, b) => a.id.localeCompare(b.id));
      return [...BUILTIN_AGENTS, ...mine].map(({ id, name, type, category, builtIn: b }) => ({ id, name, type, category, builtIn: b }));
    },

    /** One agent with its system prompt. */
    get,

    /** Creates a custom agent; ids are unique (built-in ids included). */
    async create(id: string, name: string, description?: string, options: AgentCreateOptions = {}): Promise<Agent> {
      if (!ID.test(id)) throw new WeirError('INVALID_INPUT', `invalid agent id ${JSON.stringify(id)}: use letters, digits, "-" and "_" (at most 64)`);
      if (!name?.trim()) throw new WeirError('INVALID_INPUT', 'an agent name must not be empty');
      if (builtIn(id) || (await custom.hasItem(id))) throw new WeirError('EXISTS', `agent "${id}" already exists`);
      const now = new Date().toISOString();
      const desc = description ?? options.description;
      const agent: Agent = {
        id,
        name,
        ...(desc ? { description: desc } : {}),
        type: options.type || 'assistant',
        category: options.category || 'general',
        builtIn: false,
        systemPrompt: options.prompt ?? '',
        createdAt: now,
        updatedAt: now,
      };
      await custom.setItem(id, agent);
      return agent;
    },

    /** Deletes a custom agent; built-in agents refuse. */
    async delete(id: string): Promise<Agent> {
      const agent = await writable(id, 'deleted');
      await custom.removeItem(id);
      return agent;
    },

    /** The system prompt of an agent. */
    async getPrompt(id: string): Promise<string> {
      return (await get(id)).systemPrompt;
    },

    /** Replaces a custom agent's system prompt. */
    async setPrompt(id: string, prompt: string): Promise<Agent> {
      const agent = await writable(id, 'changed');
      const next = { ...agent, systemPrompt: prompt, updatedAt: new Date().toISOString() };
      await custom.setItem(id, next);
      return next;
    },
  };
}
