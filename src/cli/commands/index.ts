import type { GroupSpec } from '../types.js';
import { pendingGroup } from './pending.js';
import { workflows } from './workflows.js';
import { voiceAgents } from './voice-agents.js';
import { interfaces } from './interface.js';
import { logs, preview, servers } from './devserver.js';
import { webviewCommands } from './webview.js';
import { project } from './project.js';

/** The whole command table (seed table 2.1); usage, checks and dispatch derive from it. */
export const root: GroupSpec = {
  name: 'weir',
  summary: 'weir: an embeddable workflow-automation runtime',
  commands: [
    workflows,
    interfaces,
    pendingGroup('agent', ['agents'], 'AI agents of the organization', 5),
    voiceAgents,
    pendingGroup('knowledge', ['kb'], 'Knowledge base documents and folders', 5),
    pendingGroup('data', [], 'SQL tables and KV namespaces', 5),
    pendingGroup('storage', [], 'Object storage', 5),
    pendingGroup('secrets', [], 'Organization secrets', 5),
    project,
    servers,
    logs,
    preview,
    ...webviewCommands,
  ],
};
