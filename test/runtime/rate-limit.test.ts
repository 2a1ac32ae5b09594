import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { send, startHost, until } from '../host/_helpers.js';
import { byKey, outOfOrder, publishWithSettings, recordingServer, startedCalls } from './_admission.js';

const json = { 'content-type': 'application/json' };

/** How many calls fell in each `periodMs` window from the first call on. */
const perWindow = (starts: number[], periodMs: number): number[] => {
  const first = Math.min(...starts);
  const counts: number[] = [];
  for (const at of starts) {
    const w = Math.floor((at - first) / periodMs);
    counts[w] = (counts[w] ?? 0) + 1;
  }
  return Array.from(counts, (c) => c ?? 0);
};

test('a rate limit of 5 per 1 s held over 10 s: 50 deliveries at once start 5 per window (±1), in order, none dropped', async () => {
  const server = await recordingServer();
  const host = await startHost();
  try {
    const { token } = await publishWithSettings(host.weir, 'paced', server.url, { rateLimit: { limit: 5, period: '1s' } });
    const ids: string[] = [];
    for (let n = 0; n < 50; n++) ids.push((await send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ key: 'r', n }), headers: json })).json.executionId);
    const queued = await until(async () => {
      const r = await host.weir.executions.get(ids[49]).catch(() => null);
      return r?.status === 'queued' && r;
    }, 5000, 'the last to be stored queued');
    assert.equal(queued.queuedFor, { rule: 'rateLimit', key: null });
    await until(() => server.calls.length === 50, 15_000, 'all 50 to call');
    const windows = perWindow(server.calls.map((c) => c.start), 1000);
    assert.is(windows.length, 10, `10 windows of 1 s: ${windows.join(',')}`);
    for (const [w, count] of windows.entries()) assert.ok(count >= 4 && count <= 6, `window ${w}: ${count} starts (${windows.join(',')})`);
    assert.equal(server.calls.map((c) => c.n).sort((a, b) => a - b), [...Array(50).keys()], 'each delivery called once');
    await until(async () => (await Promise.all(ids.map((id) => host.weir.executions.get(id).catch(() => null)))).every((r) => r?.status === 'success'), 5000, 'all to succeed');
    // The five let go together race each other, so the order is held to within 200 ms.
    assert.equal(outOfOrder(await startedCalls(host.weir, server.calls), 200), [], 'started in arrival order');
  } finally {
    await host.close();
    await server.close();
  }
});

test('a rate limit per key: each key has its own window; with concurrency too, both hold', async () => {
  const server = await recordingServer(150);
  const host = await startHost();
  try {
    const settings = { rateLimit: { limit: 2, period: '500ms', key: '{{ $input.body.key }}' }, concurrency: { limit: 1, key: '{{ $input.body.key }}' } };
    const { id, token } = await publishWithSettings(host.weir, 'paced-keys', server.url, settings);
    await Promise.all(Array.from({ length: 12 }, (_, n) => send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ key: `k${n % 2}`, n }), headers: json })));
    await until(() => server.calls.filter((c) => c.end).length === 12, 15_000, 'all 12 to call');
    const records = await host.weir.executions.list({ workflowId: id, limit: 100 });
    for (const [key, calls] of byKey(server.calls)) {
      assert.is(calls.length, 6, key);
      // The starts as the records have them: a call leaves a little after its execution started, later
      // for some than for others on a loaded machine.
      const starts = records.filter((r) => (r.input as { body: { key: string } }).body.key === key).map((r) => Date.parse(r.startedAt)).sort((a, b) => a - b);
      assert.is(starts.length, 6, key);
      // Any two starts two apart are a period apart (less a few ms between admission and the record's start).
      for (let i = 2; i < starts.length; i++) assert.ok(starts[i] - starts[i - 2] >= 490, `${key}: starts ${i - 2} and ${i} ${starts[i] - starts[i - 2]} ms apart`);
      for (let i = 1; i < calls.length; i++) assert.ok(calls[i].start >= calls[i - 1].end!, `${key}: one at a time`);
    }
    // Keys do not wait for each other: the first calls of both keys came together.
    const firsts = [...byKey(server.calls).values()].map((calls) => calls[0].start);
    assert.ok(Math.abs(firsts[0] - firsts[1]) < 300, 'the keys start side by side');
  } finally {
    await host.close();
    await server.close();
  }
});

test('a flow saved with a bad rate limit is refused, naming the setting', async () => {
  const host = await startHost();
  try {
    const err = await publishWithSettings(host.weir, 'bad', 'http://127.0.0.1:1/x', { rateLimit: { limit: 0, period: 'soon' } }).catch((e) => e);
    assert.is(err.code, 'INVALID_CONFIG');
    assert.match(JSON.stringify(err.details), /settings\.rateLimit/);
  } finally {
    await host.close();
  }
});

test.run();
