// `weir serve` with an SDK preloaded as docs/observability.md shows: a durable delivery whose host is killed
// while it runs is replayed from the journal by the next host, and its execution span there still has the
// webhook's `traceparent` as parent.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chain, homeWith, publish, send, startServe, until } from '../host/_helpers.js';

const PRELOAD = fileURLToPath(new URL('./_tracing-preload.mjs', import.meta.url));
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

test('a delivery replayed from the journal after a SIGKILL keeps the webhook traceparent as its parent', async () => {
  // Holds the first call (the host is killed meanwhile), answers the next.
  const calls: string[] = [];
  let arrive!: () => void;
  const arrived = new Promise<void>((r) => (arrive = r));
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    calls.push(String(req.headers.traceparent));
    if (calls.length === 1) {
      held.push(res);
      return arrive();
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let token = '';
  const home = await homeWith(async (weir) => {
    const c = chain('webhook_trigger', [{ type: 'http_request', config: { url: target } }]);
    token = (await publish(weir, 'replayed', { type: 'webhook_trigger' }, c.nodes, c.edges)).token;
  });
  const spansFile = join(home, 'spans.jsonl');
  const env = { NODE_OPTIONS: `--import ${PRELOAD}`, SPANS_FILE: spansFile };
  let host = await startServe(home, [], env);
  try {
    const res = await send(`${host.url}/trigger/${token}`, { body: '{}', headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` } });
    assert.is(res.status, 200);
    const { executionId } = res.json;
    await arrived;
    await host.stop('SIGKILL');
    held.forEach((r) => r.destroy());

    host = await startServe(home, [], env);
    const spans = await until(() => {
      const lines = existsSync(spansFile) ? readFileSync(spansFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
      return lines.some((s) => s.attributes['weir.execution.id'] === executionId) && lines;
    }, 15_000, 'the replayed execution span');
    const run = spans.find((s) => s.attributes['weir.execution.id'] === executionId);
    assert.is(run.traceId, TRACE_ID);
    assert.is(run.parent, CALLER_SPAN);
    assert.is(run.attributes['weir.execution.status'], 'success');
    const http = spans.find((s) => s.parent === run.spanId && s.attributes['weir.node.id'] === 'http_request-1');
    assert.is(calls.length, 2);
    assert.is(calls[1], `00-${TRACE_ID}-${http.spanId}-01`, 'the replayed call carries its node span');
    assert.is(calls[0].split('-')[1], TRACE_ID, 'so did the call the killed host made');
  } finally {
    await host.stop();
    server.close();
  }
});

test.run();
