import type { GroupSpec } from '../types.js';
import { pendingGroup } from './pending.js';
import { workflows } from './workflows.js';

/** The whole command table (seed table 2.1); usage, checks and dispatch derive from it. */
export const root: GroupSpec = {
  name: 'weir',
  summary: 'weir: an embeddable workflow-automation runtime',
  commands: [
    workflows,
    pendingGroup('interface', ['i', 'interfaces'], 'Frontend interfaces that call flows', 7),
    pendingGroup('agent', ['agents'], 'AI agents of the organization', 5),
    pendingGroup('voice-agents', ['va', 'voice-agent'], 'Voice agents, phone numbers and inbound calls', 6),
    pendingGroup('knowledge', ['kb'], 'Knowledge base documents and folders', 5),
    pendingGroup('data', [], 'SQL tables and KV namespaces', 5),
    pendingGroup('storage', [], 'Object storage', 5),
    pendingGroup('secrets', [], 'Organization secrets', 5),
    pendingGroup('project', ['proj'], 'Push the project to a git host', 7),
  ],
};
