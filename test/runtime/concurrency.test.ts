import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import type { ExecutionRecord } from '../../src/flow/types.js';
import { cli } from '../_utils.js';
import { send, startHost, startServe, tmpDir, until } from '../host/_helpers.js';
import { byKey, maxOverlap, outOfOrder, publishWithSettings, recordingServer, startedCalls } from './_admission.js';

const json = { 'content-type': 'application/json' };

test('concurrency per key, seen by the called server: never more than the limit at once per key, in arrival order', async () => {
  const server = await recordingServer(400);
  const host = await startHost();
  try {
    const { token } = await publishWithSettings(host.weir, 'per-tenant', server.url, { concurrency: { limit: 2, key: '{{ $input.body.key }}' } });
    const ids: string[] = [];
    // Sent one after another: the arrival order is the order of the answers.
    for (let n = 0; n < 24; n++) {
      const res = await send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ key: `t${n % 3}`, n }), headers: json });
      assert.is(res.status, 200);
      ids.push(res.json.executionId);
    }
    const queued = await until(async () => {
      const r = await host.weir.executions.get(ids[23]).catch(() => null);
      return r?.status === 'queued' && r;
    }, 5000, 'the last of a tenant to be stored queued');
    assert.equal(queued.queuedFor, { rule: 'concurrency', key: 't2' });
    await until(() => server.calls.filter((c) => c.end).length === 24, 20_000, 'every call to end');
    const keys = byKey(server.calls);
    assert.equal([...keys.keys()].sort(), ['t0', 't1', 't2']);
    for (const [key, calls] of keys) {
      assert.is(calls.length, 8, `${key}: each execution called once`);
      assert.is(maxOverlap(calls), 2, `${key}: at most 2 at once, and the limit was reached`);
    }
    // Tenants do not wait for each other: all three ran side by side.
    assert.ok(maxOverlap(server.calls) > 2, 'keys run side by side');
    await until(async () => (await Promise.all(ids.map((id) => host.weir.executions.get(id).catch(() => null)))).every((r) => r?.status === 'success'), 10_000, 'every execution to succeed');
    // Two let go at once (the first two, or two whose slots freed together) race each other.
    for (const [key, calls] of byKey(await startedCalls(host.weir, server.calls))) assert.equal(outOfOrder(calls, 200), [], `${key}: started in arrival order`);
  } finally {
    await host.close();
    await server.close();
  }
});

test('a caller waiting for the answer waits while its execution is queued; respondImmediately answers queued at once', async () => {
  const server = await recordingServer(300);
  const host = await startHost();
  try {
    const waiting = await publishWithSettings(host.weir, 'answered', server.url, { concurrency: { limit: 1 } }, { trigger: { respondImmediately: false } });
    const answers = await Promise.all([0, 1, 2].map((n) => send(`${host.url}/trigger/${waiting.token}`, { body: JSON.stringify({ key: 'a', n }), headers: json })));
    assert.equal(answers.map((a) => a.status), [200, 200, 200], 'each caller got its answer after waiting its turn');
    assert.is(maxOverlap(server.calls), 1);

    const quick = await publishWithSettings(host.weir, 'immediate', server.url, { concurrency: { limit: 1 } });
    server.state.hold = true;
    const first = await send(`${host.url}/trigger/${quick.token}`, { body: JSON.stringify({ key: 'b', n: 0 }), headers: json });
    const second = await send(`${host.url}/trigger/${quick.token}`, { body: JSON.stringify({ key: 'b', n: 1 }), headers: json });
    assert.ok(second.json.statusUrl, 'answered at once with the status URL');
    const status = await until(async () => {
      const s = await send(second.json.statusUrl, { method: 'GET' });
      return s.json?.status === 'queued' && s.json;
    }, 5000, 'the status URL to say queued');
    assert.is(status.executionId, second.json.executionId);
    await until(() => server.calls.length === 4, 5000, 'the first to call');
    server.state.hold = false;
    server.release();
    await until(async () => (await send(second.json.statusUrl, { method: 'GET' })).json?.status === 'success', 5000, 'the queued one to run');
    assert.is((await host.weir.executions.get(first.json.executionId)).status, 'success');
  } finally {
    await host.close();
    await server.close();
  }
});

test('cancel of a queued execution, from the host and from another process: it ends cancelled and never starts', async () => {
  const server = await recordingServer();
  server.state.hold = true;
  const host = await startHost();
  try {
    const { id: workflowId, token } = await publishWithSettings(host.weir, 'cancel-queued', server.url, { concurrency: { limit: 1 } });
    const ids: string[] = [];
    for (let n = 0; n < 4; n++) ids.push((await send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ key: 'k', n }), headers: json })).json.executionId);
    await until(async () => (await host.weir.executions.get(ids[3]).catch(() => null))?.status === 'queued', 5000, 'the last to be queued');
    await until(() => server.calls.length === 1, 5000, 'the first to call');

    const listed = await cli(['workflows', 'executions', workflowId], { home: host.home });
    assert.is(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /queued \(concurrency\)/, 'the listing says why it waits');

    const here = await host.weir.executions.cancel(ids[1]);
    assert.is(here.status, 'cancelled');
    const other = await cli(['workflows', 'cancel', ids[2]], { home: host.home });
    assert.is(other.code, 0, other.stderr);
    assert.is((await host.weir.executions.get(ids[2])).status, 'cancelled');
    const again = await cli(['workflows', 'cancel', ids[2]], { home: host.home });
    assert.is(again.code, 1, 'an ended execution cannot be cancelled again');

    server.state.hold = false;
    server.release();
    await until(async () => (await host.weir.executions.get(ids[3]).catch(() => null))?.status === 'success', 5000, 'the last to run');
    assert.equal(server.calls.map((c) => c.n), [0, 3], 'the cancelled executions never called');
    const records = await Promise.all(ids.map((id) => host.weir.executions.get(id)));
    assert.equal(records.map((r) => r.status), ['success', 'cancelled', 'cancelled', 'success']);
    assert.is(records[1].queuedFor, undefined, 'an ended execution waits for nothing');
  } finally {
    await host.close();
    await server.close();
  }
});

test('a waiting execution (wait node) holds no slot: with limit 1, three wait at once, then each takes its slot again', async () => {
  const server = await recordingServer();
  const host = await startHost();
  try {
    const after = [
      { id: 'wait-1', type: 'wait', config: { for: '1s' } },
      { id: 'http_request-2', type: 'http_request', config: { method: 'POST', url: server.url, body: { key: 'after', n: '{{ $input.body.n }}', id: '{{ $execution.id }}' } } },
    ];
    const { token } = await publishWithSettings(host.weir, 'waits', server.url, { concurrency: { limit: 1 } }, { after });
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.push((await send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ key: 'before', n }), headers: json })).json.executionId);
    await until(async () => (await Promise.all(ids.map((id) => host.weir.executions.get(id).catch(() => null)))).every((r) => r?.status === 'waiting'), 5000, 'all three to wait at once');
    await until(async () => (await Promise.all(ids.map((id) => host.weir.executions.get(id).catch(() => null)))).every((r) => r?.status === 'success'), 10_000, 'all three to end');
    const calls = byKey(server.calls);
    assert.is(calls.get('before')!.length, 3);
    assert.is(calls.get('after')!.length, 3);
    assert.is(maxOverlap(server.calls), 1, 'never two running at once, woken ones included');
  } finally {
    await host.close();
    await server.close();
  }
});

test('kill -9 of a host holding slots with executions queued: after the restart every one runs, none stays queued', async () => {
  const server = await recordingServer();
  server.state.hold = true;
  const home = tmpDir('weir-concurrency-');
  const setup = await createWeir({ home });
  const journaled = await publishWithSettings(setup, 'killed-journal', server.url, { concurrency: { limit: 2 } });
  const answered = await publishWithSettings(setup, 'killed-answer', server.url, { concurrency: { limit: 1 } }, { trigger: { respondImmediately: false, responseTimeoutMs: 60_000 } });
  await setup.close();
  const weir = await createWeir({ home });
  const statuses = async (ids: string[]) => (await Promise.all(ids.map((id) => weir.executions.get(id).catch(() => null)))).map((r) => r?.status);
  let host = await startServe(home);
  try {
    const ids: string[] = [];
    for (let n = 0; n < 6; n++) ids.push((await send(`${host.url}/trigger/${journaled.token}`, { body: JSON.stringify({ key: 'j', n }), headers: json })).json.executionId);
    // Callers that wait: their connections die with the host, their executions must not.
    const callers = [0, 1, 2].map((n) => send(`${host.url}/trigger/${answered.token}`, { body: JSON.stringify({ key: 'a', n }), headers: json }).catch(() => null));
    await until(() => server.calls.length === 3, 5000, 'two journaled and one answered execution to call');
    await until(async () => (await statuses(ids)).filter((s) => s === 'queued').length === 4, 5000, 'four journaled executions to be stored queued');
    const answeredQueued = async () => (await weir.executions.list({ workflowId: answered.id })).filter((r) => r.status === 'queued').length;
    await until(async () => (await answeredQueued()) === 2, 5000, 'two answered executions to be stored queued');
    // The ones holding the slots are stored as running too (a run stores its first record 150 ms in).
    await until(async () => (await statuses(ids)).filter((s) => s === 'running').length === 2, 5000, 'two journaled executions to be stored running');
    await until(async () => (await weir.executions.list({ workflowId: answered.id })).some((r) => r.status === 'running'), 5000, 'an answered execution to be stored running');
    await host.stop('SIGKILL');
    await Promise.all(callers);
    const listed = await cli(['workflows', 'executions', journaled.id, '--json'], { home });
    assert.is(listed.json<ExecutionRecord[]>().filter((r) => r.status === 'queued').length, 4, 'queued executions are stored, seen without a host');

    server.state.hold = false;
    server.release();
    const before = server.calls.length;
    host = await startServe(home);
    await until(async () => (await statuses(ids)).every((s) => s === 'success'), 20_000, 'every journaled execution to succeed');
    const answeredRuns = () => weir.executions.list({ workflowId: answered.id });
    await until(async () => {
      const runs = await answeredRuns();
      return runs.length === 3 && runs.every((r) => r.status === 'success');
    }, 20_000, 'every answered execution to succeed');
    const after = server.calls.slice(before);
    assert.ok(maxOverlap(after.filter((c) => c.key === 'j')) <= 2, 'the limit holds after the restart');
    assert.ok(maxOverlap(after.filter((c) => c.key === 'a')) <= 1, 'the limit holds after the restart (answered)');
    const ran = new Set(server.calls.filter((c) => c.key === 'j').map((c) => c.id));
    assert.equal([...ran].sort(), [...ids].sort(), 'every journaled execution called');
    const queuedLeft = (await weir.executions.list({ limit: 100 })).filter((r) => r.status === 'queued' || r.status === 'running');
    assert.equal(queuedLeft, [], 'none stays queued');
  } finally {
    await host.stop();
    await weir.close();
    await server.close();
  }
});

test('kill -9 with an execution queued by a rate limit: the next host starts it at once, and it reads ended, not queued', async () => {
  const server = await recordingServer();
  const home = tmpDir('weir-concurrency-');
  const setup = await createWeir({ home });
  const paced = await publishWithSettings(setup, 'killed-paced', server.url, { rateLimit: { limit: 1, period: '1h' } }, { trigger: { respondImmediately: false, responseTimeoutMs: 60_000 } });
  await setup.close();
  const weir = await createWeir({ home });
  let host = await startServe(home);
  try {
    const first = await send(`${host.url}/trigger/${paced.token}`, { body: JSON.stringify({ key: 'p', n: 0 }), headers: json });
    assert.is(first.status, 200);
    // Its caller dies with the host; the execution waits for the next hour's window, stored queued.
    const caller = send(`${host.url}/trigger/${paced.token}`, { body: JSON.stringify({ key: 'p', n: 1 }), headers: json }).catch(() => null);
    const queued = await until(async () => (await weir.executions.list({ workflowId: paced.id })).find((r) => r.status === 'queued'), 5000, 'the second to be stored queued');
    await host.stop('SIGKILL');
    await caller;
    // A new process's rate window is empty: the recovered execution is admitted at once.
    host = await startServe(home);
    await until(() => server.calls.length === 2, 20_000, 'the queued execution to call');
    await until(async () => (await weir.executions.get(queued.id)).status === 'success', 5000, 'it to read success');
    assert.equal((await weir.executions.list({ workflowId: paced.id })).map((r) => r.status), ['success', 'success']);
  } finally {
    await host.stop();
    await weir.close();
    await server.close();
  }
});

test('a debounced flow with a concurrency limit: each burst, once quiet, waits its turn like any delivery', async () => {
  const server = await recordingServer();
  const host = await startHost();
  try {
    const { token } = await publishWithSettings(host.weir, 'debounced-limited', server.url, { debounce: { period: '300ms', key: '{{ $input.body.key }}' }, concurrency: { limit: 1 } });
    server.state.hold = true;
    const ids: string[] = [];
    for (const key of ['a', 'b', 'c']) {
      for (let n = 0; n < 3; n++) {
        const res = await send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ key, n }), headers: json });
        assert.is(res.status, 200);
        ids.push(res.json.executionId);
      }
    }
    const runs = [ids[0], ids[3], ids[6]];
    await until(() => server.calls.length === 1, 10_000, 'the first burst to call');
    // The other two bursts are quiet too, yet they wait for the one slot rather than run past it.
    const waiting = await until(async () => {
      const records = await Promise.all(runs.map((id) => host.weir.executions.get(id)));
      const queued = records.filter((r) => r.status === 'queued' && r.queuedFor?.rule === 'concurrency');
      return queued.length === 2 && queued;
    }, 10_000, 'two bursts queued behind the concurrency limit');
    assert.equal(waiting.map((r) => r.queuedFor), [{ rule: 'concurrency', key: null }, { rule: 'concurrency', key: null }]);
    assert.is(server.calls.length, 1, 'one run at a time');
    server.state.hold = false;
    server.release();
    await until(() => server.calls.filter((c) => c.end).length === 3, 20_000, 'every burst to run');
    assert.is(maxOverlap(server.calls), 1, 'never two at once');
    assert.equal(server.calls.map((c) => c.n), [2, 2, 2], 'each burst with its last input');
    assert.equal(new Set(server.calls.map((c) => c.id)), new Set(runs));
  } finally {
    server.state.hold = false;
    server.release();
    await host.close();
    await server.close();
  }
});

test('publish refuses a flow that runs itself under a concurrency limit without a key: it would wait for its own slot', async () => {
  const home = tmpDir();
  const weir = await createWeir({ home });
  const calling = (name: string, settings: Record<string, unknown>, type = 'call_flow') => ({
    nodes: [
      { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
      { id: 'set-2', type: 'set', config: { values: { ok: true } } },
      type === 'foreach' ? { id: 'foreach-3', type: 'foreach', config: { items: '{{ $input.items }}', flow: name } } : { id: 'call_flow-3', type: 'call_flow', config: { flow: name } },
    ],
    edges: [{ id: 'e1', source: 'manual_trigger-1', target: 'set-2' }, { id: 'e2', source: 'set-2', target: 'call_flow-3'.replace('call_flow', type) }],
    settings,
  });
  try {
    const created = await weir.workflows.create('recursive', undefined, { config: calling('recursive', { concurrency: { limit: 1 } }) as never });
    const refused = await cli(['workflows', 'publish', 'recursive'], { home });
    assert.is(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, 'call_flow-3 runs this flow, whose concurrency limit 1 counts its callers');
    assert.match(refused.stderr, 'hint: move the part that repeats into a flow of its own');
    assert.is(await weir.workflows.findPublished('recursive'), null, 'nothing published');
    // By id, and through a foreach: the same.
    await weir.workflows.save('recursive', calling(created.id, { concurrency: { limit: 4 } }, 'foreach') as never);
    const byId = await cli(['workflows', 'publish', 'recursive'], { home });
    assert.is(byId.code, 1, byId.stderr);
    assert.match(byId.stderr, 'foreach-3 runs this flow, whose concurrency limit 4');
    // With a key (a call may take another key's slot), or calling another flow, it publishes.
    await weir.workflows.save('recursive', calling('recursive', { concurrency: { limit: 1, key: '{{ $input.depth }}' } }) as never);
    assert.is((await cli(['workflows', 'publish', 'recursive'], { home })).code, 0);
    await weir.workflows.create('caller', undefined, { config: calling('recursive', { concurrency: { limit: 1 } }) as never });
    assert.is((await cli(['workflows', 'publish', 'caller'], { home })).code, 0);

    // Through another flow (A -> B -> A): refused whichever flow of the loop holds the keyless limit, once the
    // other one is published (a call runs the published copy).
    await weir.workflows.create('ping', undefined, { config: calling('pong', { concurrency: { limit: 1 } }) as never });
    await weir.workflows.create('pong', undefined, { config: calling('ping', {}) as never });
    assert.is((await cli(['workflows', 'publish', 'ping'], { home })).code, 0, 'pong is not published yet: nothing runs ping again');
    const closing = await cli(['workflows', 'publish', 'pong'], { home });
    assert.is(closing.code, 1, closing.stderr);
    assert.match(closing.stderr, 'call_flow-3 runs this flow again through "ping"; "ping" (limit 1) has a concurrency limit without a key');
    assert.is(await weir.workflows.findPublished('pong'), null, 'nothing published');
    // The limit on the flow being published, two flows away (A -> B -> C -> A); without a limit, a loop publishes.
    await weir.workflows.save('ping', calling('pong', {}) as never);
    assert.is((await cli(['workflows', 'publish', 'ping'], { home })).code, 0);
    await weir.workflows.save('pong', calling('relay', {}) as never);
    await weir.workflows.create('relay', undefined, { config: calling('ping', {}) as never });
    assert.is((await cli(['workflows', 'publish', 'relay'], { home })).code, 0);
    assert.is((await cli(['workflows', 'publish', 'pong'], { home })).code, 0, 'ping -> pong -> relay -> ping, none limited');
    await weir.workflows.save('ping', calling('pong', { concurrency: { limit: 3 } }) as never);
    const far = await cli(['workflows', 'publish', 'ping'], { home });
    assert.is(far.code, 1, far.stderr);
    assert.match(far.stderr, 'call_flow-3 runs this flow again through "pong" -> "relay"; this flow (limit 3) has a concurrency limit without a key');
    // With a key on the limit, the loop is the flows' own business.
    await weir.workflows.save('ping', calling('pong', { concurrency: { limit: 3, key: '{{ $input.depth }}' } }) as never);
    assert.is((await cli(['workflows', 'publish', 'ping'], { home })).code, 0);
  } finally {
    await weir.close();
  }
});

test.run();
