import type { HostRequest, HostResponse } from '../types/http.js';
import { didYouMean } from '../util/nearest.js';
import { loadOptional } from '../util/optional.js';
import type { FlowTools } from './tools.js';

declare const __WEIR_VERSION__: string;

/** The parts of the MCP SDK `/mcp` uses, loaded on the first request (hosts that never serve MCP never load it). */
const loadSdk = () =>
  loadOptional('@modelcontextprotocol/sdk', 'the MCP endpoint /mcp', async () => {
    const [server, transport, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return { ...server, ...transport, ...types };
  });

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/**
 * The answer to GET and DELETE: without sessions there is no stream to open and nothing to end (what the SDK's
 * stateless examples answer).
 */
export const methodNotAllowed = (): HostResponse => ({
  status: 405,
  headers: { allow: 'POST' },
  body: { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless, send POST' }, id: null },
});

/** An MCP server over the current tools: the low-level `Server`, since the tools' schemas are JSON data, not zod. */
function mcpServer(sdk: Sdk, tools: FlowTools) {
  const server = new sdk.Server({ name: 'weir', version: typeof __WEIR_VERSION__ === 'string' ? __WEIR_VERSION__ : '0.0.0-dev' }, { capabilities: { tools: {} } });
  server.setRequestHandler(sdk.ListToolsRequestSchema, async () => ({
    tools: (await tools.list()).map(({ name, description, inputSchema }) => ({ name, description, inputSchema: inputSchema as { type: 'object' } })),
  }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async ({ params }) => {
    const result = await tools.call(params.name, params.arguments);
    if (result) return result;
    const known = (await tools.list()).map((t) => t.name);
    throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `unknown tool "${params.name}"${didYouMean(params.name, known)}`);
  });
  return server;
}

/** A POST as the Web standard `Request` the SDK's transport reads. */
function webRequest(req: HostRequest): Request {
  const url = `${req.origin ?? 'http://localhost'}${req.base ?? ''}${req.path}${req.rawQuery ? `?${req.rawQuery}` : ''}`;
  return new Request(url, { method: 'POST', headers: req.headers, body: new Uint8Array(req.rawBody), signal: req.signal });
}

/**
 * Answers a POST of MCP's streamable HTTP transport (JSON-RPC messages) over the flows `tools` offers. Stateless:
 * each request gets a fresh server and transport, so any host of a cluster answers any request and a publish
 * shows in the next `tools/list`. Answers are JSON (`enableJsonResponse`), never a held-open stream: a tool call
 * answers once its execution ended. The SDK (`@modelcontextprotocol/sdk`, an optional peer) loads on the first
 * request; without it the request is UNAVAILABLE (503) naming the package to install.
 * @example
 * const handle = createMcpHandler(createFlowTools({ workflows, nodes, events }))
 * const res = await handle(req) // { status: 200, headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0",...}' }
 */
export function createMcpHandler(tools: FlowTools): (req: HostRequest) => Promise<HostResponse> {
  let sdk: Promise<Sdk> | undefined;
  return async (req) => {
    // A failed load is tried again by the next request rather than answered from memory.
    sdk ??= loadSdk().catch((err) => {
      sdk = undefined;
      throw err;
    });
    const loaded = await sdk;
    const server = mcpServer(loaded, tools);
    const transport = new loaded.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const res = await transport.handleRequest(webRequest(req));
      return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
    } finally {
      await server.close();
    }
  };
}
