// kill -9 of `weir serve` in the middle of a foreach of 200 sub-flow items, 8 at a time: after the restart the
// items that ended are not run again, the ones the crash cut off run under their own execution ids (so a
// request they repeat carries the same Idempotency-Key), and the data is in item order.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import type { ExecutionRecord } from '../../src/flow/types.js';
import { chain, countingServer, publish, send, startServe, tmpDir, until } from '../host/_helpers.js';
import { cli } from '../_utils.js';

const ITEMS = 200;

/** The test's own server: `/item/<n>` answers `{n}` after 25 ms, counting each call and its Idempotency-Key per item. */
async function itemServer() {
  const hits = new Map<number, number>();
  const keys = new Map<number, Set<string>>();
  const server: Server = createServer((req, res) => {
    const n = Number(/^\/item\/(\d+)$/.exec(req.url ?? '')?.[1]);
    hits.set(n, (hits.get(n) ?? 0) + 1);
    const key = String(req.headers['idempotency-key']);
    keys.set(n, (keys.get(n) ?? new Set()).add(key));
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ n })), 25);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const total = () => [...hits.values()].reduce((a, b) => a + b, 0);
  return {
    hits,
    keys,
    total,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

test('kill -9 mid-foreach of 200 sub-flow items, parallelism 8: after the restart each item ran once, results in order', async () => {
  const items = await itemServer();
  const home = tmpDir('weir-foreach-crash-');
  const setup = await createWeir({ home });
  const sub = chain('manual_trigger', [{ type: 'http_request', id: 'http_request-1', config: { method: 'GET', url: `${items.base}/item/{{ $input.index }}` } }]);
  await publish(setup, 'hit-item', { type: 'manual_trigger' }, sub.nodes, sub.edges);
  const loop = chain('webhook_trigger', [{ type: 'foreach', id: 'foreach-1', config: { items: '{{ $input.body.items }}', flow: 'hit-item', parallelism: 8 } }]);
  const { id: workflowId, token } = await publish(setup, 'loop-items', { type: 'webhook_trigger', config: { respondImmediately: true } }, loop.nodes, loop.edges);
  await setup.close();
  let host = await startServe(home, ['--quiet']);
  const weir = await createWeir({ home });
  try {
    const started = await send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ items: Array.from({ length: ITEMS }, (_, i) => i) }), headers: { 'content-type': 'application/json' } });
    assert.ok(started.status < 300, JSON.stringify(started.json));
    await until(() => items.total() >= 70, 30_000, 'the loop to be well under way');
    await host.stop('SIGKILL');
    const atKill = items.total();
    assert.ok(atKill < ITEMS, `killed mid-loop (${atKill} calls)`);
    host = await startServe(home, ['--quiet']);
    const [parent] = await until(async () => {
      const list = await weir.executions.list({ workflowId, limit: 5 });
      return list.length === 1 && list[0].status !== 'running' && list;
    }, 60_000, 'the resumed loop to end');
    const record: ExecutionRecord = await weir.executions.get(parent.id);
    assert.is(record.status, 'success', JSON.stringify(record.error));
    assert.ok((record.attempts ?? 1) >= 2, 'resumed, not started again');
    const results = record.result as Array<{ status: number; body: { n: number } }>;
    assert.equal(results.map((r) => [r.status, r.body.n]), Array.from({ length: ITEMS }, (_, i) => [200, i]), 'results in item order');
    // Every item reached the server under one key (its one execution); only the calls the kill cut off repeat.
    for (let n = 0; n < ITEMS; n++) assert.is(items.keys.get(n)?.size, 1, `item ${n}: ${[...(items.keys.get(n) ?? [])].join(', ')}`);
    const repeated = [...items.hits.values()].filter((h) => h > 1).length;
    assert.ok(repeated <= 8, `${repeated} items called twice: at most the 8 running at the kill`);
    assert.ok([...items.hits.values()].every((h) => h <= 2));
    const children = record.children!.map((c) => c.executionId);
    assert.is(new Set(children).size, ITEMS, 'one child execution per item');
    const inputs = await Promise.all(children.map(async (id) => ((await weir.executions.get(id)).input as { index: number }).index));
    assert.equal(inputs.sort((a, b) => a - b), Array.from({ length: ITEMS }, (_, i) => i));
  } finally {
    await host.stop();
    await weir.close();
    await items.close();
  }
});

test('`weir workflows cancel` of a foreach parent cancels its running children on the host and starts no more', async () => {
  const server = await countingServer();
  const home = tmpDir('weir-foreach-cancel-');
  const setup = await createWeir({ home });
  const sub = chain('manual_trigger', [{ type: 'http_request', id: 'http_request-1', config: { method: 'GET', url: server.url('/slow'), timeoutMs: 600_000 } }]);
  await publish(setup, 'slow-item', { type: 'manual_trigger' }, sub.nodes, sub.edges);
  const loop = chain('webhook_trigger', [{ type: 'foreach', id: 'foreach-1', config: { items: '{{ $input.body.items }}', flow: 'slow-item', parallelism: 2 } }]);
  const { token } = await publish(setup, 'slow-loop', { type: 'webhook_trigger', config: { respondImmediately: true } }, loop.nodes, loop.edges);
  await setup.close();
  const host = await startServe(home, ['--quiet']);
  const weir = await createWeir({ home });
  try {
    const started = await send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ items: [1, 2, 3, 4, 5, 6] }), headers: { 'content-type': 'application/json' } });
    const parentId = started.json.executionId as string;
    await until(() => server.hits['/slow'] === 2, 20_000, 'two children to call');
    const cancelled = await cli(['workflows', 'cancel', parentId], { home });
    assert.is(cancelled.code, 0, cancelled.stderr);
    const parent = await until(async () => {
      const r = await weir.executions.get(parentId).catch(() => null);
      return r?.status === 'cancelled' && r;
    }, 20_000, 'the parent to be cancelled');
    assert.is(parent.children!.length, 2);
    const children = await until(async () => {
      const list = await Promise.all(parent.children!.map((c) => weir.executions.get(c.executionId)));
      return list.every((c) => c.status === 'cancelled') && list;
    }, 20_000, 'the children to be cancelled');
    assert.equal(children.map((c) => [c.status, c.parentExecutionId]), [['cancelled', parentId], ['cancelled', parentId]]);
    assert.is(server.hits['/slow'], 2, 'no item started after the cancel');
  } finally {
    await host.stop();
    await weir.close();
    await server.close();
  }
});

test.run();
