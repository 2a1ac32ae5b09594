// Polling: a respondImmediately answer carries a status URL; GET on it follows the execution from running to
// its end, reveals nothing for a token weir did not sign, and keeps working after the host is killed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createListener } from '../../../adapters/node-http/index.js';
import { executionStatus } from '../../../src/runtime/status-tokens.js';
import { createUnfinished } from '../../../src/runtime/unfinished.js';
import { newExecutionId } from '../../../src/resources/executions/ids.js';
import { WeirError } from '../../../src/errors.js';
import { createWeir } from '../../../src/weir.js';
import { chain, publish, send, startServe, tmpDir, until } from '../../host/_helpers.js';

const NOT_FOUND = { error: { code: 'NOT_FOUND', message: 'not found' } };

/** A server that holds every request until `release()`; `arrived` settles when the first one comes in. */
async function gate() {
  const held: ServerResponse[] = [];
  let arrive!: () => void;
  const arrived = new Promise<void>((r) => (arrive = r));
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    held.push(res);
    arrive();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived,
    release: () => held.splice(0).forEach((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const json = { 'content-type': 'application/json' };
const get = (url: string) => send(url, { method: 'GET' });

test('weir serve: statusUrl goes from running to success; errors, forged tokens, duplicates and a kill -9 restart', async () => {
  const home = tmpDir('weir-status-');
  const slow = await gate();
  const setup = await createWeir({ home });
  const s = chain('webhook_trigger', [
    { type: 'http_request', config: { url: slow.url } },
    { type: 'code', config: { code: 'return { done: true, n: $input.body.n }' } },
  ]);
  const slowFlow = await publish(setup, 'slow', { type: 'webhook_trigger' }, s.nodes, s.edges);
  const f = chain('webhook_trigger', [{ type: 'code', config: { code: 'throw new Error("out of stock")' } }]);
  const failing = await publish(setup, 'failing', { type: 'webhook_trigger' }, f.nodes, f.edges);
  await setup.close();

  const first = await startServe(home);
  let second: Awaited<ReturnType<typeof startServe>> | null = null;
  try {
    const keyed = { ...json, 'idempotency-key': 'order-1' };
    const r = await send(`${first.url}/trigger/${slowFlow.token}`, { body: '{"n": 1}', headers: keyed });
    assert.is(r.status, 200);
    assert.equal(Object.keys(r.json), ['executionId', 'statusUrl']);
    const { executionId, statusUrl } = r.json;
    const token = statusUrl.slice(`${first.url}/executions/`.length);
    assert.ok(statusUrl.startsWith(`${first.url}/executions/${executionId}.`), statusUrl);
    assert.ok(token.length - executionId.length - 1 >= 22, 'at least 128 bits of MAC');

    await slow.arrived;
    const running = await get(statusUrl);
    assert.is(running.status, 200);
    assert.equal(running.json, { executionId, status: 'running' });
    assert.is(running.headers.get('cache-control'), 'no-store');

    const again = await send(`${first.url}/trigger/${slowFlow.token}`, { body: '{"n": 1}', headers: keyed });
    assert.equal(again.json, r.json, 'a duplicate delivery gets the same answer');

    slow.release();
    const done = await until(async () => {
      const polled = await get(statusUrl);
      return polled.json?.status === 'success' && polled;
    });
    assert.equal(done.json, { executionId, status: 'success', result: { done: true, n: 1 } });

    const e = await send(`${first.url}/trigger/${failing.token}`, { body: '{}', headers: json });
    const failed = await until(async () => {
      const polled = await get(e.json.statusUrl);
      return polled.json?.status === 'error' && polled;
    });
    assert.equal(failed.json, { executionId: e.json.executionId, status: 'error', error: { code: 'EXECUTION_FAILED', message: 'code: out of stock (line 1)', node: 'code-1' } });

    // Tokens weir did not sign: an altered MAC, another execution's id under this MAC, junk. One answer for all.
    const mac = token.slice(executionId.length + 1);
    const flipped = `${executionId}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    // The last character carries 2 bits of the MAC and 4 unused ones: changing only those is still refused.
    const lastBits = `${executionId}.${mac.slice(0, -1)}${mac.at(-1) === 'A' ? 'B' : 'A'}`;
    const swapped = `${e.json.executionId}.${mac}`;
    for (const forged of [flipped, lastBits, swapped, `${executionId}.${'A'.repeat(22)}`, executionId, 'nope']) {
      const polled = await get(`${first.url}/executions/${forged}`);
      assert.is(polled.status, 404, forged);
      assert.equal(polled.json, NOT_FOUND, forged);
      assert.is(polled.headers.get('cache-control'), 'no-store');
    }
    assert.is((await send(statusUrl, { method: 'POST', body: '{}', headers: json })).status, 404, 'GET only');

    await first.stop('SIGKILL');
    second = await startServe(home);
    const path = new URL(statusUrl).pathname;
    const after = await get(`${second.url}${path}`);
    assert.equal(after.json, done.json, 'the status key outlived the host');
    const replayed = await send(`${second.url}/trigger/${slowFlow.token}`, { body: '{"n": 1}', headers: keyed });
    assert.equal(replayed.json, r.json, 'a duplicate after the restart still gets the first answer, status URL included');
  } finally {
    await first.stop('SIGKILL');
    await second?.stop();
    await slow.close();
  }
});

test('embedded under a prefix: the status URL is on the public URL (prefix included), else the request\'s host plus the mount path', async () => {
  const weir = await createWeir({ home: tmpDir('weir-status-') });
  const { token } = await publish(weir, 'plain', { type: 'webhook_trigger' });
  const listeners = [createListener(weir, { schedules: false, prefix: '/weir', publicUrl: 'https://hooks.example.com/weir/' }), createListener(weir, { schedules: false, prefix: '/weir' })];
  const servers = listeners.map((l) => createServer((req, res) => l(req, res)));
  try {
    const urls: string[] = [];
    for (const server of servers) {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
    const pub = await send(`${urls[0]}/weir/trigger/${token}`, { body: '{}', headers: json });
    assert.ok(pub.json.statusUrl.startsWith(`https://hooks.example.com/weir/executions/${pub.json.executionId}.`), pub.json.statusUrl);
    const own = await send(`${urls[1]}/weir/trigger/${token}`, { body: '{}', headers: json });
    assert.ok(own.json.statusUrl.startsWith(`${urls[1]}/weir/executions/${own.json.executionId}.`), own.json.statusUrl);
    const polled = await until(async () => {
      const s = await get(own.json.statusUrl);
      return s.json?.status === 'success' && s;
    });
    assert.is(polled.json.executionId, own.json.executionId);
    const viaLibrary = await weir.runtime.status(own.json.statusUrl.split('/').pop());
    assert.equal(viaLibrary, polled.json);
  } finally {
    for (const server of servers) await new Promise<void>((r) => server.close(() => r()));
    for (const l of listeners) await l.close();
    await weir.close();
  }
});

test('an execution accepted here and not started yet is queued; without a record and not pending, nothing', async () => {
  const missing = async () => {
    throw new WeirError('NOT_FOUND', 'execution not found');
  };
  const tokens = { idOf: async (t: string) => (t.startsWith('ok.') ? t.slice(3) : null) };
  const status = executionStatus({ tokens, executions: { get: missing }, pending: (id) => id === 'exec_waiting' });
  assert.equal(await status('ok.exec_waiting'), { executionId: 'exec_waiting', status: 'queued' });
  assert.is(await status('ok.exec_pruned'), null);
  assert.is(await status('bad.exec_waiting'), null);
});

test('deliveries waiting or running here are unfinished, by their ids\' times while any waits; ended ones are not', () => {
  const unfinished = createUnfinished();
  const t0 = Date.UTC(2026, 0, 1);
  const [a, b, c] = [t0, t0 + 5000, t0 + 9000].map((t) => newExecutionId(t));
  const old = newExecutionId(t0 - 60_000);
  assert.not.ok(unfinished.has(a), 'nothing accepted yet');
  [t0, t0 + 5000, t0 + 9000].forEach((t) => unfinished.accepted(t));
  assert.ok(unfinished.has(a) && unfinished.has(b) && unfinished.has(c));
  assert.not.ok(unfinished.has(old), 'made before the oldest waiting delivery');
  assert.not.ok(unfinished.has('exec_chosen-elsewhere'));
  unfinished.started(a);
  unfinished.ended(a, true);
  unfinished.started(b);
  unfinished.ended(b, false);
  assert.ok(unfinished.has(c));
  assert.not.ok(unfinished.has(b), 'ended without a record: not queued');
  unfinished.started(c);
  assert.ok(unfinished.has(c), 'running');
  unfinished.ended(c, true);
  assert.not.ok(unfinished.has(c) || unfinished.has(b) || unfinished.has(a), 'nothing waits or runs');
});

test.run();
