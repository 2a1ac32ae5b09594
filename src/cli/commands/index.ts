import type { GroupSpec } from '../types.js';
import { workflows } from './workflows.js';
import { agent } from './agent.js';
import { data } from './data.js';
import { knowledge } from './knowledge.js';
import { secrets } from './secrets.js';
import { storage } from './storage.js';
import { voiceAgents } from './voice-agents.js';
import { interfaces } from './interface.js';
import { logs, preview, servers } from './devserver.js';
import { webviewCommands } from './webview.js';
import { project } from './project.js';
import { serve } from './serve.js';
import { nodes } from './nodes.js';
import { doctor } from './doctor.js';

/** The whole command table (groups, aliases, commands); usage, checks and dispatch derive from it. */
export const root: GroupSpec = {
  name: 'weir',
  summary: 'weir: an embeddable workflow-automation runtime',
  commands: [
    workflows,
    nodes,
    interfaces,
    agent,
    voiceAgents,
    knowledge,
    data,
    storage,
    secrets,
    project,
    servers,
    logs,
    preview,
    ...webviewCommands,
    serve,
    doctor,
  ],
};
