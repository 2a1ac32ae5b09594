import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, type Weir } from '../../src/weir.js';
import type { ExecutionRecord } from '../../src/flow/types.js';
import { cli, flow } from '../_utils.js';
import { countingServer, send, startServe, tmpDir, until } from '../host/_helpers.js';

type Server = Awaited<ReturnType<typeof countingServer>>;

/** A home with one published webhook flow (debounced as given) that calls the test's server at /hit/<tenant>/<n>. */
async function homeWithFlow(server: Server, debounce: Record<string, string>) {
  const home = tmpDir('weir-debounce-');
  const weir = await createWeir({ home });
  const config = {
    ...flow({ type: 'webhook_trigger' }, [{ id: 'http_request-1', type: 'http_request', config: { url: `${server.url('/hit')}/{{ $input.body.tenant }}/{{ $input.body.n }}` } }], [{ id: 'e1', source: 'webhook_trigger-1', target: 'http_request-1' }]),
    settings: { debounce },
  };
  const created = await weir.workflows.create('debounced', undefined, { config: config as any, publish: true });
  await weir.close();
  return { home, id: created.id, token: created.webhookToken! };
}

const hitsOf = (server: Server) => Object.entries(server.hits).filter(([path]) => path.startsWith('/hit/'));
const total = (server: Server) => hitsOf(server).reduce((n, [, c]) => n + c, 0);

async function deliver(url: string, token: string, body: unknown): Promise<{ executionId: string; statusUrl: string }> {
  const res = await send(`${url}/trigger/${token}`, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  assert.is(res.status, 200, res.text);
  return res.json;
}

async function executionsOf(weir: Weir, workflowId: string, count: number): Promise<ExecutionRecord[]> {
  return until(async () => {
    const list = await weir.executions.list({ workflowId, limit: 500 });
    return list.length >= count && list.every((e) => e.status === 'success' || e.status === 'debounced') && list;
  }, 15_000, `${count} executions to end`);
}

test('50 deliveries in a burst run once, with the last input; the other 49 are debounced into that run', async () => {
  const server = await countingServer();
  const { home, id, token } = await homeWithFlow(server, { period: '1s' });
  const host = await startServe(home);
  const reader = await createWeir({ home });
  try {
    const answers: Array<{ executionId: string; statusUrl: string }> = [];
    for (let n = 0; n < 50; n++) answers.push(await deliver(host.url, token, { tenant: 't', n }));
    const list = await executionsOf(reader, id, 50);
    await new Promise((r) => setTimeout(r, 1500)); // a second run would come a period after the last delivery
    assert.equal(hitsOf(server), [['/hit/t/49', 1]], 'one call, with the last delivery\'s input');
    const ran = list.filter((e) => e.status === 'success');
    assert.is(ran.length, 1);
    assert.is(ran[0].id, answers[0].executionId, 'the burst runs as its first delivery\'s execution');
    assert.equal((ran[0].input as any).body, { tenant: 't', n: 49 });
    const debounced = list.filter((e) => e.status === 'debounced');
    assert.is(debounced.length, 49);
    assert.ok(debounced.every((e) => e.debouncedInto === ran[0].id));
    assert.equal(new Set(debounced.map((e) => e.id)), new Set(answers.slice(1).map((a) => a.executionId)));

    // The caller's status URL says what became of its delivery.
    const status = await send(answers[7].statusUrl, { method: 'GET' });
    assert.equal(status.json, { executionId: answers[7].executionId, status: 'debounced', debouncedInto: ran[0].id });
    const listed = await cli(['workflows', 'executions', id, '--status', 'debounced', '--limit', '100', '--json'], { home });
    assert.is(listed.code, 0, listed.stderr);
    assert.is(listed.json<unknown[]>().length, 49);
    const text = await cli(['workflows', 'executions', id, '--limit', '3'], { home });
    assert.match(text.stdout, `debounced into ${ran[0].id}`);
  } finally {
    await host.stop();
    await reader.close();
    await server.close();
  }
});

test('per key: deliveries of two tenants, interleaved, run once per tenant with that tenant\'s last input', async () => {
  const server = await countingServer();
  const { home, id, token } = await homeWithFlow(server, { period: '800ms', key: '{{ $input.body.tenant }}' });
  const host = await startServe(home);
  const reader = await createWeir({ home });
  try {
    for (let n = 0; n < 20; n++) await deliver(host.url, token, { tenant: n % 2 ? 'b' : 'a', n });
    const list = await executionsOf(reader, id, 20);
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal(hitsOf(server).sort(), [['/hit/a/18', 1], ['/hit/b/19', 1]]);
    const ran = list.filter((e) => e.status === 'success');
    assert.is(ran.length, 2);
    for (const e of list.filter((x) => x.status === 'debounced')) {
      const into = ran.find((r) => r.id === e.debouncedInto)!;
      assert.is((into.input as any).body.tenant, (e.input as any).body.tenant, 'debounced into its own tenant\'s run');
    }
  } finally {
    await host.stop();
    await reader.close();
    await server.close();
  }
});

test('maxWait bounds a stream that never goes quiet: it runs while deliveries keep coming', async () => {
  const server = await countingServer();
  const { home, token } = await homeWithFlow(server, { period: '600ms', maxWait: '1500ms' });
  const host = await startServe(home);
  try {
    const end = Date.now() + 4000;
    for (let n = 0; Date.now() < end; n++) {
      await deliver(host.url, token, { tenant: 't', n });
      await new Promise((r) => setTimeout(r, 100));
    }
    const during = total(server);
    assert.ok(during >= 2 && during <= 3, `runs every maxWait (1.5 s) during a 4 s stream: ${during}`);
    await until(() => total(server) === during + 1, 5000, 'the last burst to run after the stream');
  } finally {
    await host.stop();
    await server.close();
  }
});

test('a host whose flows are not debounced keeps no debounce log; the first debounced delivery starts one', async () => {
  const server = await countingServer();
  const home = tmpDir('weir-debounce-');
  const weir = await createWeir({ home });
  const plain = flow({ type: 'webhook_trigger' }, [{ id: 'http_request-1', type: 'http_request', config: { url: server.url('/hit/plain/{{ $input.body.n }}') } }], [{ id: 'e1', source: 'webhook_trigger-1', target: 'http_request-1' }]);
  const created = await weir.workflows.create('plain', undefined, { config: plain as any, publish: true });
  await weir.close();
  let host = await startServe(home);
  try {
    await deliver(host.url, created.webhookToken!, { n: 1 });
    await until(() => server.hits['/hit/plain/1'] === 1, 5000, 'the plain run');
    assert.not.ok(existsSync(join(home, 'debounce')), 'no debounce log for a host without debounced flows');
    await host.stop();
    const { token } = await (async () => {
      const w = await createWeir({ home });
      const made = await w.workflows.create('debounced', undefined, { config: { ...plain, settings: { debounce: { period: '50ms' } } } as any, publish: true });
      await w.close();
      return { token: made.webhookToken! };
    })();
    host = await startServe(home);
    await deliver(host.url, token, { n: 2 });
    await until(() => server.hits['/hit/plain/2'] === 1, 5000, 'the debounced run');
    assert.ok(existsSync(join(home, 'debounce')), 'the burst was logged');
  } finally {
    await host.stop();
    await server.close();
  }
});

test('kill -9 with a pending burst: after the restart it runs exactly once (at once when overdue)', async () => {
  const server = await countingServer();
  const { home, id, token } = await homeWithFlow(server, { period: '2s' });
  let host = await startServe(home);
  const reader = await createWeir({ home });
  try {
    const answers: Array<{ executionId: string; statusUrl: string }> = [];
    for (let n = 0; n < 5; n++) answers.push(await deliver(host.url, token, { tenant: 't', n }));
    // Stored: the run queued, the four others debounced into it.
    await until(async () => (await reader.executions.list({ workflowId: id })).filter((e) => e.status === 'debounced').length === 4, 5000, 'the debounced records');
    const queued = await reader.executions.get(answers[0].executionId);
    assert.is(queued.status, 'queued');
    await host.stop('SIGKILL');
    assert.is(total(server), 0);
    await new Promise((r) => setTimeout(r, 2200)); // past its time while no host runs
    host = await startServe(home);
    const restarted = Date.now();
    const ran = await until(async () => {
      const r = await reader.executions.get(answers[0].executionId).catch(() => null);
      return r?.status === 'success' && r;
    }, 10_000, 'the burst to run after the restart');
    assert.ok(Date.now() - restarted < 3000, 'an overdue burst runs at once');
    assert.equal((ran.input as any).body, { tenant: 't', n: 4 });

    // A second burst, killed before its time: the restarted host runs it on time, once; a second restart does not run it again.
    const b = await deliver(host.url, token, { tenant: 't', n: 5 });
    await deliver(host.url, token, { tenant: 't', n: 6 });
    await until(async () => (await reader.executions.list({ workflowId: id })).filter((e) => e.status === 'debounced').length === 5, 5000, 'the next debounced record');
    await host.stop('SIGKILL');
    host = await startServe(home);
    await until(async () => (await reader.executions.get(b.executionId).catch(() => null))?.status === 'success', 10_000, 'the second burst');
    await host.stop('SIGKILL');
    host = await startServe(home);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(hitsOf(server).sort(), [['/hit/t/4', 1], ['/hit/t/6', 1]], 'each burst ran exactly once');
  } finally {
    await host.stop();
    await reader.close();
    await server.close();
  }
});

test('a caller that waits for the flow is answered 202 at once: queued for the run, debounced for the others', async () => {
  const server = await countingServer();
  const home = tmpDir('weir-debounce-');
  const weir = await createWeir({ home });
  const config = {
    ...flow({ type: 'webhook_trigger', config: { respondImmediately: false } }, [{ id: 'http_request-1', type: 'http_request', config: { url: server.url('/hit/x/{{ $input.body.n }}') } }], [{ id: 'e1', source: 'webhook_trigger-1', target: 'http_request-1' }]),
    settings: { debounce: { period: '300ms' } },
  };
  const created = await weir.workflows.create('debounced-wait', undefined, { config: config as any, publish: true });
  await weir.close();
  const host = await startServe(home);
  try {
    const post = (n: number) => send(`${host.url}/trigger/${created.webhookToken}`, { body: JSON.stringify({ n }), headers: { 'content-type': 'application/json' } });
    const first = await post(1);
    const second = await post(2);
    assert.is(first.status, 202);
    assert.equal(first.json, { executionId: first.headers.get('x-execution-id'), status: 'queued' });
    assert.is(second.status, 202);
    assert.equal(second.json, { executionId: second.headers.get('x-execution-id'), status: 'debounced', debouncedInto: first.json.executionId });
    await until(() => server.hits['/hit/x/2'] === 1, 5000, 'the run');
  } finally {
    await host.stop();
    await server.close();
  }
});

test.run();
