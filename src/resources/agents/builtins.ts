import type { Agent } from '../../types/agents.js';

const SHIPPED = '2024-01-01T00:00:00.000Z';

/** Agents shipped with weir: read-only (they cannot be deleted or have their prompt replaced). */
export const BUILTIN_AGENTS: readonly Agent[] = Object.freeze([
  {
    id: 'assistant',
    name: 'General assistant',
    description: 'Answers questions and drafts text for the team',
    type: 'assistant',
    category: 'general',
    builtIn: true,
    systemPrompt: 'You are a helpful assistant for this organization. Answer clearly and briefly, say when you are unsure, and never invent facts.',
    createdAt: SHIPPED,
    updatedAt: SHIPPED,
  },
  {
    id: 'support-triage',
    name: 'Support triage',
    description: 'Classifies incoming support messages by topic and urgency',
    type: 'classifier',
    category: 'support',
    builtIn: true,
    systemPrompt:
      'You triage customer support messages. Reply with JSON {"topic": one of "billing", "bug", "account", "other", "urgency": "low" | "normal" | "high", "summary": one sentence}.',
    createdAt: SHIPPED,
    updatedAt: SHIPPED,
  },
  {
    id: 'summarizer',
    name: 'Summarizer',
    description: 'Summarizes documents and conversations',
    type: 'assistant',
    category: 'content',
    builtIn: true,
    systemPrompt: 'Summarize the given text in at most five bullet points, keeping names, numbers and dates exact.',
    createdAt: SHIPPED,
    updatedAt: SHIPPED,
  },
]);
