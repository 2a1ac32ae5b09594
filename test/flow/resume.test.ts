import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWeir } from '../../src/weir.js';
import { CLI, writeJson } from '../_utils.js';
import { chain, publish, startServe, tmpDir, until } from '../host/_helpers.js';

/**
 * A server of the test's own that counts side effects: every call by path and Idempotency-Key. `/hang`
 * answers nothing the first time (the host gets killed meanwhile), 200 afterwards.
 */
async function sideEffects() {
  const calls: Array<{ path: string; key: string | undefined }> = [];
  let hung = 0;
  const server: Server = createServer((req, res) => {
    calls.push({ path: req.url!, key: req.headers['idempotency-key'] as string | undefined });
    if (req.url === '/hang' && hung++ === 0) return;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url, n: calls.length }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    count: (path: string) => calls.filter((c) => c.path === path).length,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const flowNodes = (url: string) =>
  chain('webhook_trigger', [
    { type: 'http_request', id: 'http_request-1', config: { method: 'POST', url: `${url}/first` } },
    { type: 'http_request', id: 'http_request-2', config: { method: 'POST', url: `${url}/hang`, timeoutMs: 60000 } },
    { type: 'set', id: 'set-3', config: { values: { first: '{{ $node.http_request-1.data.body.n }}' } } },
  ]);

test('kill -9 mid-flow: after a restart the execution resumes under its id; the finished node does not run again', async () => {
  const effects = await sideEffects();
  const home = tmpDir('weir-resume-');
  const setup = await createWeir({ home });
  const c = flowNodes(effects.url);
  const { id, token } = await publish(setup, 'resume', { type: 'webhook_trigger' }, c.nodes, c.edges);
  await setup.close();

  const first = await startServe(home);
  const res = await fetch(`${first.url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order":7}' });
  assert.is(res.status, 200);
  const { executionId } = await res.json();
  await until(() => effects.count('/hang') === 1, 10000, 'the second node to call');
  await first.stop('SIGKILL');

  const second = await startServe(home);
  const weir = await createWeir({ home });
  try {
    const record = await until(async () => {
      const r = await weir.executions.get(executionId).catch(() => null);
      return r?.status === 'success' && r;
    }, 20000, 'the execution to finish');
    assert.is(effects.count('/first'), 1, 'the node that finished before the crash ran once');
    assert.is(effects.count('/hang'), 2, 'the node cut off by the crash ran again');
    const keys = effects.calls.filter((c) => c.path === '/hang').map((c) => c.key);
    assert.equal(keys, [`${executionId}:http_request-2`, `${executionId}:http_request-2`], 'both calls carry the same Idempotency-Key');
    assert.is(effects.calls.find((c) => c.path === '/first')!.key, `${executionId}:http_request-1`);
    assert.is(record.attempts, 2);
    assert.ok(record.resumedAt && record.resumedAt > record.nodes['http_request-1'].finishedAt!, 'resumedAt after the first node finished');
    assert.is((record.nodes['set-3'].data as { first: number }).first, 1, 'later nodes see the first node\'s original data');
    const all = await weir.executions.list({ workflowId: id, limit: 10 });
    assert.equal(all.map((r) => r.id), [executionId], 'one execution, not a second one');
  } finally {
    await weir.close();
    await second.stop();
    await effects.close();
  }
});

test('a manual run whose process was killed is resumed by the next host on the home', async () => {
  const effects = await sideEffects();
  const home = tmpDir('weir-resume-');
  writeJson(home, 'weir.config.json', {});
  const setup = await createWeir({ home });
  const c = chain('manual_trigger', [
    { type: 'http_request', id: 'http_request-1', config: { method: 'POST', url: `${effects.url}/first` } },
    { type: 'http_request', id: 'http_request-2', config: { method: 'POST', url: `${effects.url}/hang`, timeoutMs: 60000 } },
  ]);
  const { id } = await publish(setup, 'manual-resume', { type: 'manual_trigger' }, c.nodes, c.edges);
  await setup.close();

  const child = spawn(process.execPath, [CLI, 'workflows', 'run', id, '--published'], { env: { ...process.env, WEIR_HOME: home }, stdio: 'ignore' });
  await until(() => effects.count('/hang') === 1, 10000, 'the second node to call');
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));

  const host = await startServe(home);
  const weir = await createWeir({ home });
  try {
    const [record] = await until(async () => {
      const list = await weir.executions.list({ workflowId: id, limit: 5 });
      return list.length === 1 && list[0].status === 'success' && list;
    }, 20000, 'the killed run to finish');
    assert.is(effects.count('/first'), 1);
    assert.is(effects.count('/hang'), 2);
    assert.is(record.attempts, 2);
  } finally {
    await weir.close();
    await host.stop();
    await effects.close();
  }
});

test('table_insert run again in the same execution stores one row', async () => {
  const weir = await createWeir({ home: tmpDir('weir-resume-') });
  try {
    await weir.tables.init('user.orders');
    const ctx = { execution: { id: 'exec_x' }, node: { id: 'table_insert-1', type: 'table_insert' } };
    const { derivedRowId } = await import('../../src/nodes/side-effects.js');
    const key = derivedRowId(ctx);
    const a = await weir.tables.insert('user.orders', { sku: 'A' }, { keyIfAbsent: key });
    const b = await weir.tables.insert('user.orders', { sku: 'A' }, { keyIfAbsent: key });
    assert.is(a.id, key);
    assert.is(b.id, key);
    assert.is((await weir.tables.query('user.orders', 'SELECT count(*) AS n FROM "user.orders"'))[0].n, 1);
    assert.match(key, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  } finally {
    await weir.close();
  }
});

test.run();
