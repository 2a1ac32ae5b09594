import { checkAccess, type ApiAccess } from '../../api/access.js';
import { createMcpHandler, methodNotAllowed } from '../../mcp/server.js';
import { createFlowTools, type FlowToolsDeps } from '../../mcp/tools.js';
import type { Route } from '../types.js';

const WHAT = 'the MCP endpoint /mcp';

/**
 * `/mcp`: the published flows with `settings.mcp: true` as MCP tools (streamable HTTP, stateless), behind the
 * management API's access (the host access token, or the embedder's `authorize`): 401 without a token, 403
 * with a wrong one. POST carries JSON-RPC; GET and DELETE answer 405, as a server without sessions does.
 */
export function mcpRoutes(deps: FlowToolsDeps, access: ApiAccess): Route[] {
  const handle = createMcpHandler(createFlowTools(deps));
  return [
    {
      methods: ['POST'],
      path: '/mcp',
      async handle(req) {
        await checkAccess(req, access, WHAT);
        return handle(req);
      },
    },
    {
      methods: ['GET', 'DELETE'],
      path: '/mcp',
      async handle(req) {
        await checkAccess(req, access, WHAT);
        return methodNotAllowed();
      },
    },
  ];
}
