// A weir on a fresh home whose `providers.llm` is a fake model server of the test's own, and a recording
// server a tool flow calls (its side effect, counted per path).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWeir, type Weir } from '../../src/index.js';
import type { ExecutionRecord } from '../../src/flow/types.js';
import { chain, publish, tmpDir } from '../host/_helpers.js';
import { modelServer, type ModelServer, type Reply } from './_model-server.js';

export type Dialect = 'openai' | 'anthropic';

/** The `providers.llm` of a weir.config.json pointing at a fake model server. */
export const llmConfig = (dialect: Dialect, model: ModelServer) => ({ providers: { llm: { driver: dialect, baseUrl: model.url, model: `${dialect}-test-model` } } });

/** A weir whose model is a fake server answering with `reply`; its API key secret is set. */
export async function agentWeir(dialect: Dialect, reply: (request: { body: any; n: number }) => Reply | Promise<Reply>, home = tmpDir('weir-agent-')) {
  const model = await modelServer(dialect, reply);
  const weir = await createWeir({ home, config: llmConfig(dialect, model), env: {} });
  await weir.secrets.set(dialect === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY', 'sk-test');
  return {
    weir,
    model,
    home,
    async close() {
      await weir.close();
      await model.close();
    },
  };
}

/** A server that records each request (path, body) and answers `{path, seen: n}` as JSON. */
export async function recordingServer() {
  const calls: Array<{ path: string; body: string }> = [];
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const path = new URL(req.url!, 'http://x').pathname;
    calls.push({ path, body });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path, seen: calls.length }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    calls,
    base,
    hits: (path: string) => calls.filter((c) => c.path === path).length,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * Publishes a tool flow: a manual trigger with `inputParams`, then an http_request POSTing the input to
 * `<base>/<path with expressions>`, then a `set` giving `{sent, answer}`.
 */
export async function publishToolFlow(weir: Weir, name: string, params: unknown[], url: string, description?: string) {
  const flow = chain('manual_trigger', [
    { type: 'http_request', id: 'http_request-1', config: { method: 'POST', url, body: '{{ $input }}' } },
    { type: 'set', id: 'set-1', config: { values: { sent: '{{ $input }}', answer: '{{ $node.http_request-1.data.body }}' } } },
  ]);
  const created = await weir.workflows.create(name, description, { config: { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: { inputParams: params } }, ...flow.nodes], edges: flow.edges, variables: {}, metadata: {} } as any, publish: true });
  return created.id;
}

/** Publishes a flow: a manual trigger then an agent node with `config` (id `agent-1`), then `after` nodes. */
export async function publishAgentFlow(weir: Weir, name: string, config: Record<string, unknown>, after: Array<{ type: string; id?: string; config?: Record<string, unknown> }> = []) {
  const flow = chain('manual_trigger', [{ type: 'agent', id: 'agent-1', config }, ...after]);
  return publish(weir, name, { type: 'manual_trigger' }, flow.nodes, flow.edges);
}

/** The agent node's record of an execution. */
export const agentRecord = (run: ExecutionRecord) => run.nodes['agent-1'] as { status: string; data: any; error?: any };
