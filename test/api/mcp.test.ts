// weir as an MCP server: a real `weir serve` (the built CLI) on loopback, spoken to by the MCP SDK's own client
// over its streamable HTTP transport. Only published flows with `settings.mcp: true` are tools; a call runs the
// flow (its KV write is read back through the CLI), a failure is `isError` with the execution id, and `/mcp` is
// behind the host token. An in-process host shows the embedder's `authorize` deciding instead of the token.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { cli, flow, ROOT, startServe, tmpDir, writeJson } from '../_utils.js';
import { chain, homeWith, startHost } from '../host/_helpers.js';
import { createFlowTools } from '../../src/mcp/tools.js';

/** A manual-trigger flow with these params and nodes chained after it, opted in to MCP unless `mcp` is false. */
function toolFlow(inputParams: unknown[], nodes: Array<{ type: string; config?: Record<string, unknown> }>, mcp = true) {
  const { nodes: list, edges } = chain('manual_trigger', nodes);
  return { ...flow({ type: 'manual_trigger', config: { inputParams } }, list, edges), ...(mcp ? { settings: { mcp: true } } : {}) };
}

const INVOICE = toolFlow(
  [{ name: 'amount', type: 'number', required: true }, { name: 'customer', type: 'string', required: true }, { name: 'note', type: 'string' }],
  [
    { type: 'kv_set', config: { namespace: 'invoices', key: '{{ $input.customer }}', value: '{{ $input.amount }}' } },
    { type: 'set', config: { values: { invoiced: '{{ $input.amount }}', customer: '{{ $input.customer }}' } } },
  ],
);
const BROKEN = toolFlow([], [{ type: 'delay', config: { ms: 2000, timeoutMs: 10 } }]);
const PAUSE = toolFlow([], [{ type: 'wait', config: { for: '1h' } }]);
// docs/mcp.md's example: the flow config, then the tool a client lists for it.
const [DOC_FLOW, DOC_TOOL] = [...readFileSync(join(ROOT, 'docs/mcp.md'), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
const HIDDEN = toolFlow([{ name: 'customer', type: 'string' }], [{ type: 'kv_set', config: { namespace: 'invoices', key: 'hidden', value: 'ran' } }], false);

let home = '';
let serve: Awaited<ReturnType<typeof startServe>>;
let token = '';
let client: Client;

/** An SDK client connected to `/mcp` with the given Authorization header value (none when null). */
async function connect(url: string, authorization: string | null) {
  const c = new Client({ name: 'weir-test', version: '1.0.0' });
  const headers: Record<string, string> = authorization === null ? {} : { authorization };
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return c;
}

/** The text of a tool result's first content block. */
const textOf = (result: any): string => result.content[0].text;

test.before(async () => {
  home = await homeWith(async (weir) => {
    await weir.kv.init('invoices');
    await weir.workflows.create('send invoice', 'Sends an invoice to a customer', { config: INVOICE as any, publish: true });
    await weir.workflows.create('broken', undefined, { config: BROKEN as any, publish: true });
    await weir.workflows.create('pause', undefined, { config: PAUSE as any, publish: true });
    await weir.workflows.create('lookup-order', 'Looks up an order by its id', { config: DOC_FLOW, publish: true });
    await weir.workflows.create('hidden', 'Not for MCP clients', { config: HIDDEN as any, publish: true });
  });
  token = (await cli(['interface', 'token'], { home })).stdout.trim();
  serve = await startServe(home);
  client = await connect(serve.url, `Bearer ${token}`);
});

test.after(async () => {
  await client?.close();
  await serve?.stop();
});

test('tools/list names exactly the opted-in published flows, with their description and inputParams as the schema', async () => {
  const { tools } = await client.listTools();
  assert.equal(tools.map((t) => t.name), ['broken', 'lookup-order', 'pause', 'send_invoice']);
  const invoice = tools.find((t) => t.name === 'send_invoice')!;
  assert.is(invoice.description, 'Sends an invoice to a customer');
  assert.equal(invoice.inputSchema, {
    type: 'object',
    properties: { amount: { type: 'number' }, customer: { type: 'string' }, note: { type: 'string' } },
    required: ['amount', 'customer'],
  });
  assert.equal(tools.find((t) => t.name === 'broken')!.inputSchema, { type: 'object', properties: {} });
  assert.not.ok('description' in tools.find((t) => t.name === 'broken')!, 'a flow without a description lists none');
});

test("docs/mcp.md's example flow is listed as the tool the page shows and answers as it says", async () => {
  const { tools } = await client.listTools();
  assert.equal(tools.find((t) => t.name === 'lookup-order'), DOC_TOOL);
  const result: any = await client.callTool({ name: 'lookup-order', arguments: { orderId: 'A-17' } });
  assert.equal(result.structuredContent, { orderId: 'A-17', status: 'shipped' });
});

test('a tool call runs the published flow with the given input and answers its result, structured and as JSON text', async () => {
  const result: any = await client.callTool({ name: 'send_invoice', arguments: { amount: 42, customer: 'acme' } });
  assert.is(result.isError, undefined);
  assert.equal(result.structuredContent, { invoiced: 42, customer: 'acme' });
  assert.equal(JSON.parse(textOf(result)), { invoiced: 42, customer: 'acme' });
  const stored = await cli(['data', 'kv', 'get', 'invoices', 'acme'], { home });
  assert.is(stored.code, 0, stored.stderr);
  assert.is(stored.stdout.trim(), '42');
});

test('input that does not fit inputParams is a tool error naming each problem, and the flow does not run', async () => {
  const result: any = await client.callTool({ name: 'send_invoice', arguments: { amount: 'lots' } });
  assert.is(result.isError, true);
  assert.match(textOf(result), '"amount" must be a number, got string');
  assert.match(textOf(result), '"customer" is required');
  assert.is(result.structuredContent.error.code, 'INVALID_INPUT');
  const keys = await cli(['data', 'kv', 'keys', 'invoices', '--json'], { home });
  assert.equal(JSON.parse(keys.stdout), ['acme']);
});

test('a failing flow answers isError with its message and the id of the failed execution', async () => {
  const result: any = await client.callTool({ name: 'broken', arguments: {} });
  assert.is(result.isError, true);
  const { executionId, message, status } = result.structuredContent.error;
  assert.match(executionId, /\S/);
  assert.is(status, 'error');
  assert.ok(textOf(result).includes(message) && textOf(result).includes(`(execution ${executionId})`), textOf(result));
  const record = await cli(['workflows', 'execution', executionId, '--json'], { home });
  assert.is(record.code, 0, record.stderr);
  assert.is(JSON.parse(record.stdout).status, 'error');
});

test('a flow that waits answers isError saying so, with the execution id; the execution goes on waiting', async () => {
  const result: any = await client.callTool({ name: 'pause', arguments: {} });
  assert.is(result.isError, true);
  const { executionId, status } = result.structuredContent.error;
  assert.is(status, 'waiting');
  assert.match(textOf(result), `is waiting (a wait node or an approval): the execution goes on without this call (execution ${executionId})`);
  const record = await cli(['workflows', 'execution', executionId, '--json'], { home });
  assert.is(JSON.parse(record.stdout).status, 'waiting');
});

test('a published flow without settings.mcp is no tool: calling it is refused and it does not run', async () => {
  const err = await client.callTool({ name: 'hidden', arguments: {} }).then(() => null, (e: any) => e);
  assert.ok(err, 'the call was refused');
  assert.is(err.code, -32602);
  assert.match(err.message, 'unknown tool "hidden"');
  const runs = await cli(['workflows', 'executions', 'hidden', '--json'], { home });
  assert.is(runs.code, 0, runs.stderr);
  assert.equal(JSON.parse(runs.stdout), []);
  const key = await cli(['data', 'kv', 'keys', 'invoices', '--json'], { home });
  assert.not.ok(JSON.parse(key.stdout).includes('hidden'));
});

test('a flow published while the host runs is listed by the next tools/list, without a restart', async () => {
  const dir = tmpDir();
  const created = await cli(['workflows', 'create', 'late-tool', '--json'], { home });
  assert.is(created.code, 0, created.stderr);
  const config = toolFlow([{ name: 'x', type: 'boolean' }], [{ type: 'set', config: { values: { seen: '{{ $input.x }}' } } }]);
  assert.is((await cli(['workflows', 'save', 'late-tool', writeJson(dir, 'late.json', config)], { home })).code, 0);
  assert.is((await cli(['workflows', 'publish', 'late-tool'], { home })).code, 0);
  const { tools } = await client.listTools();
  assert.equal(tools.map((t) => t.name), ['broken', 'late-tool', 'lookup-order', 'pause', 'send_invoice']);
  const result: any = await client.callTool({ name: 'late-tool', arguments: { x: true } });
  assert.equal(result.structuredContent, { seen: true });
});

test('/mcp needs the host token: none is 401, a wrong one 403, for the SDK client and for a plain POST', async () => {
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  const post = (headers: Record<string, string>) =>
    fetch(`${serve.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: initialize });
  const none = await post({});
  assert.is(none.status, 401);
  assert.is((await none.json()).error.code, 'UNAUTHORIZED');
  const wrong = await post({ authorization: 'Bearer not-the-token' });
  assert.is(wrong.status, 403);
  assert.is((await wrong.json()).error.code, 'FORBIDDEN');
  const right = await post({ authorization: `Bearer ${token}` });
  assert.is(right.status, 200);
  assert.is((await right.json()).result.serverInfo.name, 'weir');
  for (const [authorization, status, says] of [[null, 401, 'needs the host access token'], ['Bearer not-the-token', 403, "not this host's access token"]] as const) {
    const err: any = await connect(serve.url, authorization).then(() => null, (e: Error) => e);
    assert.ok(err, `the SDK client is refused with ${authorization ?? 'no token'}`);
    assert.is(err.code, status);
    assert.match(err.message, says);
  }
});

test('GET and DELETE /mcp answer 405 (a stateless server has no stream to open or session to end)', async () => {
  for (const method of ['GET', 'DELETE']) {
    const res = await fetch(`${serve.url}/mcp`, { method, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
    assert.is(res.status, 405, method);
    assert.is(res.headers.get('allow'), 'POST');
    assert.is((await res.json()).error.code, -32000);
  }
  assert.is((await fetch(`${serve.url}/mcp`, { method: 'GET' })).status, 401);
});

test("an embedder's authorize decides who may use /mcp in place of the host token", async () => {
  const host = await startHost({ authorize: (req) => req.headers['x-user'] === 'admin' });
  try {
    await host.weir.workflows.create('echo', 'Echoes', { config: toolFlow([{ name: 'word', type: 'string' }], [{ type: 'set', config: { values: { word: '{{ $input.word }}' } } }]) as any, publish: true });
    const denied = await fetch(`${host.url}/mcp`, { method: 'POST', headers: { 'x-user': 'guest', 'content-type': 'application/json' }, body: '{}' });
    assert.is(denied.status, 403);
    const c = new Client({ name: 'weir-test', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), { requestInit: { headers: { 'x-user': 'admin' } } }));
    const result: any = await c.callTool({ name: 'echo', arguments: { word: 'hi' } });
    assert.equal(result.structuredContent, { word: 'hi' });
    await c.close();
  } finally {
    await host.close();
  }
});

test('tool names: characters MCP does not allow become _, at most 128; a second flow with the same tool name gets its id appended', async () => {
  const published = (name: string, id: string) => ({ id, name, config: { nodes: [], edges: [], settings: { mcp: true } } }) as any;
  const long = 'x'.repeat(200);
  const tools = createFlowTools({
    workflows: { listPublished: async () => [published('a:b', 'wf_000000000002'), published('a b', 'wf_000000000001'), published(long, 'wf_3'), published('ok.name-1', 'wf_4')] },
    nodes: { get: () => undefined },
    events: { executeFlow: async () => ({}) },
  });
  const names = (await tools.list()).map((t) => t.name);
  assert.equal(names, ['a_b', 'a_b_00000002', 'ok.name-1', 'x'.repeat(128)]);
  assert.ok(names.every((n) => /^[A-Za-z0-9_.-]{1,128}$/.test(n)));
});

test('without @modelcontextprotocol/sdk installed the host serves on, and /mcp answers 503 naming the package to install', async () => {
  // The built CLI beside a node_modules that holds every package but the MCP SDK.
  const root = tmpDir('weir-no-mcp-');
  cpSync(join(ROOT, 'dist'), join(root, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  mkdirSync(join(root, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name !== '@modelcontextprotocol') symlinkSync(join(ROOT, 'node_modules', name), join(root, 'node_modules', name));
  }
  const bare = await startServe(home, [], {}, join(root, 'dist/cli.js'));
  try {
    assert.is((await fetch(`${bare.url}/healthz`)).status, 200);
    const res = await fetch(`${bare.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    assert.is(res.status, 503);
    const { error } = await res.json();
    assert.is(error.code, 'UNAVAILABLE');
    assert.match(error.message, 'npm install @modelcontextprotocol/sdk');
  } finally {
    await bare.stop();
  }
});

test.run();
