// Runs started by hand (`weir.run`, the run route, `weir --remote workflows run`) pass the flow's concurrency
// and rate limit like webhook deliveries, on the host that runs them; they are never debounced.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cli, flow } from '../_utils.js';
import { send, startHost, tmpDir, until } from '../host/_helpers.js';
import { maxOverlap, publishWithSettings, recordingServer } from './_admission.js';
import { newExecutionId } from '../../src/resources/executions/index.js';

const json = { 'content-type': 'application/json' };
const webhookInput = (key: string, n: number) => ({ body: { key, n }, headers: {}, query: {}, method: 'POST' });

test('weir.run calls, run-route calls and webhook deliveries mixed on one host never exceed the limit, and all run', async () => {
  const server = await recordingServer(300);
  const host = await startHost();
  try {
    const { id, token } = await publishWithSettings(host.weir, 'mixed', server.url, { concurrency: { limit: 2 } });
    const access = await host.weir.interfaces.accessToken();
    const manual: Array<Promise<{ status: string }>> = [];
    const hooks: Array<Promise<{ status: number }>> = [];
    for (let n = 0; n < 12; n++) {
      if (n % 3 === 0) hooks.push(send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ key: 'k', n }), headers: json }));
      else if (n % 3 === 1) manual.push(host.weir.run('mixed', webhookInput('k', n), { published: true }));
      else {
        const call = fetch(`${host.url}/api/v1/workflows/${id}/run`, { method: 'POST', headers: { ...json, authorization: `Bearer ${access}` }, body: JSON.stringify({ published: true, input: webhookInput('k', n) }) });
        manual.push(call.then((res) => res.json() as Promise<{ status: string }>));
      }
    }
    assert.equal((await Promise.all(hooks)).map((r) => r.status), [200, 200, 200, 200]);
    const records = await Promise.all(manual);
    assert.equal(records.map((r) => r.status), Array(8).fill('success'), 'each run by hand waited its turn and ran');
    await until(() => server.calls.filter((c) => c.end).length === 12, 20_000, 'every call to end');
    assert.is(maxOverlap(server.calls), 2, 'at most 2 at once, and the limit was reached');
    assert.equal(server.calls.map((c) => c.n).sort((a, b) => a - b), [...Array(12).keys()], 'each execution called once');
  } finally {
    await host.close();
    await server.close();
  }
});

test('a manual run waits queued behind webhook runs, then runs; cancelled while queued it ends cancelled and never starts', async () => {
  const server = await recordingServer();
  server.state.hold = true;
  const host = await startHost();
  try {
    const { token } = await publishWithSettings(host.weir, 'one-at-a-time', server.url, { concurrency: { limit: 1 } });
    const first = await send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ key: 'k', n: 0 }), headers: json });
    await until(() => server.calls.length === 1, 5000, 'the webhook run to call');

    const waitingId = newExecutionId();
    const waiting = host.weir.run('one-at-a-time', webhookInput('k', 1), { published: true, executionId: waitingId });
    const queued = await until(async () => {
      const r = await host.weir.executions.get(waitingId).catch(() => null);
      return r?.status === 'queued' && r;
    }, 5000, 'the manual run to be stored queued');
    assert.equal(queued.queuedFor, { rule: 'concurrency', key: null });
    assert.is(queued.trigger, 'manual');

    const cancelledId = newExecutionId();
    const cancelled = host.weir.run('one-at-a-time', webhookInput('k', 2), { published: true, executionId: cancelledId });
    await until(async () => (await host.weir.executions.get(cancelledId).catch(() => null))?.status === 'queued', 5000, 'the second manual run to be queued');
    const byCancel = await host.weir.executions.cancel(cancelledId);
    assert.is(byCancel.status, 'cancelled');
    const answered = await cancelled;
    assert.is(answered.status, 'cancelled', "the caller of weir.run gets the cancelled record");
    assert.is(answered.id, cancelledId);

    assert.is(server.calls.length, 1, 'nothing ran past the limit meanwhile');
    server.state.hold = false;
    server.release();
    const ran = await waiting;
    assert.is(ran.status, 'success');
    assert.is(ran.id, waitingId);
    await until(async () => (await host.weir.executions.get(first.json.executionId)).status === 'success', 5000, 'the webhook run to end');
    assert.equal(server.calls.map((c) => c.n), [0, 1], 'the manual run called after the webhook run; the cancelled one never did');
    assert.is(maxOverlap(server.calls), 1);
    assert.is((await host.weir.executions.get(cancelledId)).status, 'cancelled');
  } finally {
    server.release();
    await host.close();
    await server.close();
  }
});

test('a retry and a call_flow child wait queued like any run; cancelling the parent cancels its queued child', async () => {
  const server = await recordingServer();
  const host = await startHost();
  const queuedOf = (workflowId: string) =>
    until(async () => (await host.weir.executions.list({ workflowId })).find((r) => r.status === 'queued'), 5000, 'an execution to be stored queued');
  try {
    // Calls the server, then fails (a delay past its timeout): its retry starts again from the failed node.
    const failing = await publishWithSettings(host.weir, 'fails-after-call', server.url, { concurrency: { limit: 1 } }, { after: [{ id: 'delay-1', type: 'delay', config: { ms: 2000, timeoutMs: 10 } }] });
    const failed = await host.weir.run('fails-after-call', webhookInput('f', 0), { published: true });
    assert.is(failed.status, 'error');
    server.state.hold = true;
    await send(`${host.url}/trigger/${failing.token}`, { body: JSON.stringify({ key: 'f', n: 1 }), headers: json });
    await until(() => server.calls.length === 2, 5000, 'the webhook run to hold the slot');
    const retry = host.weir.executions.retry(failed.id);
    const queuedRetry = await queuedOf(failing.id);
    server.state.hold = false;
    server.release();
    const retried = await retry;
    assert.is(retried.id, queuedRetry.id, 'the retry waited queued under its own id');
    assert.is(retried.retryOf, failed.id);
    assert.is(retried.status, 'error', 'it ran from the failed node on');
    assert.is(server.calls.length, 2, "the retry reused the first run's call");

    // A parent without limits calls a limited flow whose slot a delivery holds.
    server.state.hold = true;
    const limited = await publishWithSettings(host.weir, 'limited-child', server.url, { concurrency: { limit: 1 } });
    const parentConfig = flow({ type: 'manual_trigger' }, [{ id: 'call_flow-1', type: 'call_flow', config: { flow: 'limited-child', input: webhookInput('c', 3) } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'call_flow-1' }]);
    await host.weir.workflows.create('parent', undefined, { config: parentConfig as any, publish: true });
    await send(`${host.url}/trigger/${limited.token}`, { body: JSON.stringify({ key: 'c', n: 2 }), headers: json });
    await until(() => server.calls.length === 3, 5000, 'the delivery to hold the slot');
    const parentId = newExecutionId();
    const parent = host.weir.run('parent', {}, { published: true, executionId: parentId });
    const child = await queuedOf(limited.id);
    assert.is(child.trigger, 'call_flow');
    await host.weir.executions.cancel(parentId);
    assert.is((await parent).status, 'cancelled');
    const childRecord = await until(async () => {
      const r = await host.weir.executions.get(child.id);
      return r.status !== 'queued' && r;
    }, 5000, 'the queued child to end');
    assert.is(childRecord.status, 'cancelled', 'the queued child was cancelled with its parent');
    server.state.hold = false;
    server.release();
    await until(async () => (await host.weir.executions.list({ workflowId: limited.id })).every((r) => r.status !== 'running'), 5000, 'the delivery to end');
    assert.equal(server.calls.map((c) => c.n), [0, 1, 2], 'the cancelled child never called');
  } finally {
    server.release();
    await host.close();
    await server.close();
  }
});

test('`weir --remote workflows run` waits its turn on the host, under its rate limit', async () => {
  const server = await recordingServer();
  const host = await startHost();
  try {
    await publishWithSettings(host.weir, 'rated', server.url, { rateLimit: { limit: 1, period: '1s' } });
    const env = { WEIR_TOKEN: await host.weir.interfaces.accessToken() };
    const remote = (n: number) => cli(['--remote', host.url, 'workflows', 'run', 'rated', '--published', '--input', JSON.stringify({ key: 'r', n }), '--json'], { env, cwd: tmpDir('weir-remote-') });
    const runs = await Promise.all([remote(0), remote(1), remote(2)]);
    assert.equal(runs.map((r) => r.code), [0, 0, 0], runs.map((r) => r.stderr).join('\n'));
    const starts = server.calls.map((c) => c.start).sort((a, b) => a - b);
    assert.is(starts.length, 3);
    // One start per second: the third starts at least two periods after the first (timers fire late, never early).
    assert.ok(starts[2] - starts[0] >= 1900, `starts spread over the periods: ${starts.map((s) => s - starts[0]).join(', ')} ms`);
  } finally {
    await host.close();
    await server.close();
  }
});

test('a manual run of a debounced flow is not debounced: it runs at once and its caller gets its result', async () => {
  const host = await startHost();
  try {
    const config = {
      ...flow({ type: 'manual_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { got: '{{ $input.n }}' } } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }]),
      settings: { debounce: { period: '1h' } },
    };
    await host.weir.workflows.create('collapsed', undefined, { config: config as any, publish: true });
    const [a, b] = await Promise.all([host.weir.run('collapsed', { n: 1 }, { published: true }), host.weir.run('collapsed', { n: 2 }, { published: true })]);
    assert.equal([a.status, b.status], ['success', 'success'], 'both ran, neither waits an hour');
    assert.equal([a.result, b.result], [{ got: 1 }, { got: 2 }]);
    assert.is(a.debouncedInto, undefined);
    const local = await cli(['workflows', 'run', 'collapsed', '--published', '--input', '{"n":3}', '--json'], { home: host.home });
    assert.is(local.code, 0, local.stderr);
    assert.equal(local.json().result, { got: 3 });
  } finally {
    await host.close();
  }
});

test('an execution that waited queued is read back ended the moment it ends, never queued again', async () => {
  const server = await recordingServer();
  const host = await startHost();
  try {
    await publishWithSettings(host.weir, 'one-by-one', server.url, { concurrency: { limit: 1 } });
    const ids = Array.from({ length: 6 }, () => newExecutionId());
    // What a read started as each execution ends finds (the record of its run's end, or the queued one it ran from).
    const reads: Array<Promise<string>> = [];
    host.weir.bus.on('execution:end', (e) => void reads.push(host.weir.executions.get(e.executionId).then((r) => `${e.executionId}: ${r.status}`)));
    const runs = ids.map((executionId, n) => host.weir.run('one-by-one', webhookInput('k', n), { published: true, executionId }));
    assert.equal((await Promise.all(runs)).map((r) => r.status), Array(6).fill('success'));
    assert.is(server.calls.length, 6);
    assert.equal((await Promise.all(reads)).sort(), ids.map((id) => `${id}: success`).sort());
  } finally {
    await host.close();
    await server.close();
  }
});

test.run();
