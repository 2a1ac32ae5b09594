// settings.concurrency and settings.rateLimit on the execution queue: an intake and two `--role worker`
// processes on Redis; the test's own server records when each call began and ended, and which worker made it.
// A slot is a lease in Redis: a worker killed with SIGKILL while holding one gives it back, and every queued
// execution still runs, once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, type Weir } from '../../src/index.js';
import { flow } from '../_utils.js';
import { byKey, maxOverlap, outOfOrder, recordingServer, type Call } from '../runtime/_admission.js';
import { clusterConfig, clusterHome, dropRedisPrefix, MASTER_KEY, startHost, uniqueName, until, weirCli, type RunningHost } from './_scale.js';

const prefix = uniqueName('admitq');
const spec = { prefix, queue: { concurrency: 4, stalledMs: 1500 } };

let observer: Weir;
let home: string;
let intake: RunningHost;
const workers = new Map<string, RunningHost>();

const startWorker = async (tag: string) => workers.set(tag, await startHost(home, ['--role', 'worker'], tag));

test.before(async () => {
  home = clusterHome(spec);
  observer = await createWeir({ home, config: clusterConfig(spec), env: { WEIR_MASTER_KEY: MASTER_KEY } });
  [intake] = await Promise.all([startHost(home, ['--port', '0', '--role', 'intake'], 'I'), startWorker('W1'), startWorker('W2')]);
});

test.after(async () => {
  await Promise.all([intake, ...workers.values()].map((h) => h.stop('SIGKILL')));
  await observer.close();
  await dropRedisPrefix(prefix);
});

/** Publishes webhook (answers at once) -> http_request POST {key, n, id: "<worker tag> <execution id>"} with `settings`. */
async function publish(name: string, url: string, settings: Record<string, unknown>, waitFor?: string): Promise<string> {
  const call = (id: string, step: string) => ({ id, type: 'http_request', config: { method: 'POST', url, body: { key: `{{ $input.body.key }}${step}`, n: '{{ $input.body.n }}', id: '{{ $env.WEIR_HOST_TAG }} {{ $execution.id }}' }, timeoutMs: 60_000 } });
  // With `waitFor`: call, wait, call again (keys "<key>" and "<key>+").
  const nodes = waitFor ? [call('http_request-1', ''), { id: 'wait-2', type: 'wait', config: { for: waitFor } }, call('http_request-3', '+')] : [call('http_request-1', '')];
  const ids = ['webhook_trigger-1', ...nodes.map((n) => n.id)];
  const edges = ids.slice(1).map((target, i) => ({ id: `e${i + 1}`, source: ids[i], target }));
  const config = { ...flow({ type: 'webhook_trigger', config: { respondImmediately: true } }, nodes, edges), settings };
  const created = await observer.workflows.create(name, undefined, { config: config as never, publish: true });
  return created.webhookToken!;
}

/** POSTs the webhook once per body, one after another (arrival order = n); resolves with the execution ids. */
async function deliver(token: string, bodies: Array<{ key: string; n: number }>): Promise<string[]> {
  const ids: string[] = [];
  for (const body of bodies) {
    const res = await fetch(`${intake.url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    ids.push(((await res.json()) as { executionId: string }).executionId);
  }
  return ids;
}

const workerOf = (call: Call) => call.id.split(' ')[0];
const executionOf = (call: Call) => call.id.split(' ')[1];

/** Waits until every execution has ended; resolves with their records. */
const ended = (ids: string[], ms = 60_000) =>
  until('every execution to end', async () => {
    const records = await Promise.all(ids.map((id) => observer.executions.get(id).catch(() => null)));
    return records.every((r) => r && ['success', 'error', 'cancelled'].includes(r.status)) && records.map((r) => r!);
  }, ms, 200);

test('concurrency 2 per key across two workers: never more than 2 of a key at once, in arrival order, keys side by side', async () => {
  const server = await recordingServer(400);
  try {
    const token = await publish('per-key', server.url, { concurrency: { limit: 2, key: '{{ $input.body.key }}' } });
    const bodies = Array.from({ length: 16 }, (_, n) => ({ key: n % 2 ? 'b' : 'a', n }));
    const ids = await deliver(token, bodies);
    // While the first ones run, the rest are stored queued, saying why.
    const queued = await until('a queued record', async () => {
      const records = await Promise.all(ids.map((id) => observer.executions.get(id).catch(() => null)));
      return records.find((r) => r?.status === 'queued');
    }, 20_000, 50);
    assert.equal(queued.queuedFor?.rule, 'concurrency');
    const records = await ended(ids);
    assert.ok(records.every((r) => r.status === 'success'), JSON.stringify(records.map((r) => [r.status, r.error])));
    const keys = byKey(server.calls);
    for (const key of ['a', 'b']) {
      const calls = keys.get(key)!;
      assert.is(calls.length, 8, key);
      assert.is(new Set(calls.map(executionOf)).size, 8, `${key}: each execution called once`);
      assert.is(maxOverlap(calls), 2, `${key}: at most 2 at once, and 2 did run together`);
      assert.equal(outOfOrder(calls, 300), [], `${key}: in arrival order`);
    }
    assert.ok(maxOverlap(server.calls) >= 3, `the keys ran side by side (${maxOverlap(server.calls)} at once)`);
    assert.equal([...new Set(server.calls.map(workerOf))].sort(), ['W1', 'W2'], 'both workers ran executions');
    assert.is((await observer.executions.open.list()).length, 0, 'no queued entry is left');
  } finally {
    await server.close();
  }
});

test('a queued execution cancelled from the CLI ends cancelled and never runs; the next one takes its turn', async () => {
  const server = await recordingServer();
  server.state.hold = true;
  try {
    const token = await publish('cancel-queued', server.url, { concurrency: { limit: 1 } });
    const ids = await deliver(token, [0, 1, 2].map((n) => ({ key: 'k', n })));
    await until('the first call', async () => server.calls.length === 1, 20_000, 20);
    await until('the third queued', async () => (await observer.executions.get(ids[2]).catch(() => null))?.status === 'queued', 20_000, 50);
    const cancelled = await weirCli(home, ['workflows', 'cancel', ids[1], '--json']);
    assert.is(cancelled.code, 0, cancelled.stderr);
    assert.is(cancelled.json().status, 'cancelled');
    server.state.hold = false;
    server.release();
    const records = await ended(ids);
    assert.equal(records.map((r) => r.status), ['success', 'cancelled', 'success']);
    assert.equal(server.calls.map((c) => c.n), [0, 2], 'the cancelled one never ran');
  } finally {
    await server.close();
  }
});

test('rate limit 5 per second across two workers: at most 5 starts in any second (±1), all run, in order', async () => {
  const server = await recordingServer();
  try {
    const token = await publish('rate', server.url, { rateLimit: { limit: 5, period: '1s' } });
    const ids = await deliver(token, Array.from({ length: 20 }, (_, n) => ({ key: 'r', n })));
    const records = await ended(ids);
    assert.ok(records.every((r) => r.status === 'success'));
    const starts = server.calls.map((c) => c.start).sort((a, b) => a - b);
    assert.is(starts.length, 20);
    // Any seven starts span a second (±1 per window); seen as calls, which leave a worker up to a few hundred
    // ms after their admission on a loaded machine. Unbounded, the twenty would come within a few hundred ms.
    for (let i = 6; i < starts.length; i++) assert.ok(starts[i] - starts[i - 6] >= 700, `starts ${i - 6} and ${i}: ${starts[i] - starts[i - 6]} ms apart`);
    assert.ok(starts[19] - starts[0] >= 2800, `20 starts at 5 a second take 3 s at least (${starts[19] - starts[0]} ms)`);
    assert.equal(outOfOrder(server.calls, 300), [], 'in arrival order');
    assert.equal([...new Set(server.calls.map(workerOf))].sort(), ['W1', 'W2'], 'both workers ran executions');
  } finally {
    await server.close();
  }
});

test('an execution in a wait node holds no slot; woken, it takes one again and waits its turn', async () => {
  const server = await recordingServer(1500);
  try {
    const token = await publish('waits', server.url, { concurrency: { limit: 1 } }, '1s');
    const ids = await deliver(token, [0, 1].map((n) => ({ key: 'w', n })));
    const records = await ended(ids);
    assert.ok(records.every((r) => r.status === 'success'), JSON.stringify(records.map((r) => [r.status, r.error])));
    const at = (key: string, n: number) => server.calls.find((c) => c.key === key && c.n === n)!;
    assert.is(server.calls.length, 4);
    assert.ok(at('w', 1).start < at('w+', 0).start, 'the second started while the first waited');
    assert.is(maxOverlap(server.calls), 1, 'a woken execution waited for the slot: one call at a time');
  } finally {
    await server.close();
  }
});

test('a worker SIGKILLed while holding the slot: the slot is taken over and every queued execution runs, once', async () => {
  const server = await recordingServer(100);
  server.state.hold = true;
  try {
    const token = await publish('killed', server.url, { concurrency: { limit: 1 } });
    const ids = await deliver(token, Array.from({ length: 6 }, (_, n) => ({ key: 'x', n })));
    const [first] = await until('the first call', async () => server.calls.length === 1 && server.calls, 20_000, 20);
    await until('the rest queued', async () => {
      const records = await Promise.all(ids.map((id) => observer.executions.get(id).catch(() => null)));
      return records.filter((r) => r?.status === 'queued').length === 5;
    }, 20_000, 50);
    const holder = workers.get(workerOf(first))!;
    await holder.stop('SIGKILL');
    server.state.hold = false;
    server.release();
    const records = await ended(ids);
    assert.ok(records.every((r) => r.status === 'success'), JSON.stringify(records.map((r) => [r.status, r.error])));
    const counts = new Map<string, number>();
    for (const c of server.calls) counts.set(executionOf(c), (counts.get(executionOf(c)) ?? 0) + 1);
    for (const id of ids.slice(1)) assert.is(counts.get(id), 1, `queued execution ${id} ran exactly once`);
    assert.ok((counts.get(ids[0]) ?? 0) <= 2, 'the killed one ran again at most once (resumed from its checkpoint)');
    // The call cut off by the kill was answered only now; without it, one at a time.
    assert.is(maxOverlap(server.calls.filter((c) => c !== first)), 1, 'one at a time');
    assert.ok(server.calls.filter((c) => c !== first).every((c) => workerOf(c) !== workerOf(first)), 'the survivor ran the rest');
  } finally {
    await server.close();
  }
});

test.run();
