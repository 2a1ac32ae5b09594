// settings.debounce on the execution queue: two `weir serve` hosts (each an intake and a worker) on Redis take
// the deliveries of one burst in turn; the test's own server records the calls the runs make, and which host
// ran them. A burst is every host's: it runs once, with the last input, whichever host took which delivery,
// and still runs when the host that took its first delivery is SIGKILLed while it is pending.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, type Weir } from '../../src/index.js';
import type { ExecutionRecord } from '../../src/flow/types.js';
import { flow } from '../_utils.js';
import { maxOverlap, recordingServer, type Call } from '../runtime/_admission.js';
import { clusterConfig, clusterHome, dropRedisPrefix, MASTER_KEY, REDIS_URL, startHost, uniqueName, until, type RunningHost } from './_scale.js';

const prefix = uniqueName('debq');
const spec = { prefix, queue: { concurrency: 4, stalledMs: 1500 } };
const SECRET = 'tok-5ecr3t-debounce-7731';

let observer: Weir;
let home: string;
let hostA: RunningHost;
let hostB: RunningHost;

test.before(async () => {
  home = clusterHome(spec);
  observer = await createWeir({ home, config: clusterConfig(spec), env: { WEIR_MASTER_KEY: MASTER_KEY } });
  await observer.secrets.set('API_TOKEN', SECRET);
  [hostA, hostB] = await Promise.all([startHost(home, ['--port', '0'], 'A'), startHost(home, ['--port', '0'], 'B')]);
});

test.after(async () => {
  await Promise.all([hostA, hostB].map((h) => h?.stop('SIGKILL')));
  await observer.close();
  await dropRedisPrefix(prefix);
});

/** Publishes webhook (answers at once) -> http_request POST {key, n, id: "<host tag> <execution id>"} with settings.debounce. */
async function publish(name: string, url: string, debounce: Record<string, string>, more: { settings?: Record<string, unknown>; trigger?: Record<string, unknown> } = {}): Promise<{ id: string; token: string }> {
  const call = { id: 'http_request-1', type: 'http_request', config: { method: 'POST', url, body: { key: '{{ $input.body.key }}', n: '{{ $input.body.n }}', id: '{{ $env.WEIR_HOST_TAG }} {{ $execution.id }}' } } };
  const config = { ...flow({ type: 'webhook_trigger', config: more.trigger ?? {} }, [call], [{ id: 'e1', source: 'webhook_trigger-1', target: 'http_request-1' }]), settings: { debounce, ...more.settings } };
  const created = await observer.workflows.create(name, undefined, { config: config as never, publish: true });
  return { id: created.id, token: created.webhookToken! };
}

/** POSTs one delivery to a host; resolves with its execution id and status URL. */
async function deliver(host: RunningHost, token: string, body: { key: string; n: number }): Promise<{ executionId: string; statusUrl: string }> {
  const res = await fetch(`${host.url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  assert.is(res.status, 200, text);
  return JSON.parse(text);
}

const record = (id: string) => observer.executions.get(id).catch(() => null);
const hostOf = (call: Call) => call.id.split(' ')[0];
const executionOf = (call: Call) => call.id.split(' ')[1];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until every execution has ended (the runs `success`, the others `debounced`); resolves with their records. */
const ended = (ids: string[], ms = 30_000) =>
  until('every delivery to end', async () => {
    const records = await Promise.all(ids.map(record));
    return records.every((r) => r && ['success', 'debounced', 'cancelled', 'error'].includes(r.status)) && (records as ExecutionRecord[]);
  }, ms, 200);

test('50 deliveries spread over two hosts run once, with the last input; the other 49 are debounced into that run', async () => {
  const server = await recordingServer();
  try {
    const { token } = await publish('burst', server.url, { period: '2s' });
    const answers: Array<{ executionId: string; statusUrl: string }> = [];
    for (let n = 0; n < 50; n++) answers.push(await deliver(n % 2 ? hostB : hostA, token, { key: 'k', n }));
    // Pending, the run is stored queued (every host sees it) and says why.
    const pending = await record(answers[0].executionId);
    assert.is(pending?.status, 'queued');
    assert.equal(pending?.queuedFor, { rule: 'debounce', key: null });
    const records = await ended(answers.map((a) => a.executionId));
    await sleep(2500); // a second run would come a period after the last delivery
    assert.is(server.calls.length, 1, `one run: ${JSON.stringify(server.calls)}`);
    const [call] = server.calls;
    assert.is(call.n, 49, "with the last delivery's input");
    assert.is(executionOf(call), answers[0].executionId, "the burst runs as its first delivery's execution");
    const ran = records.filter((r) => r.status === 'success');
    assert.is(ran.length, 1);
    assert.equal((ran[0].input as { body: unknown }).body, { key: 'k', n: 49 });
    const debounced = records.filter((r) => r.status === 'debounced');
    assert.is(debounced.length, 49);
    assert.ok(debounced.every((r) => r.debouncedInto === answers[0].executionId), 'each linked to the run');
    // A caller's status URL, read from the host that did not take its delivery, says what became of it.
    const status = await fetch(answers[7].statusUrl.replace(hostB.url!, hostA.url!));
    assert.equal(await status.json(), { executionId: answers[7].executionId, status: 'debounced', debouncedInto: answers[0].executionId });
    assert.is((await observer.executions.open.list()).length, 0, 'no queued entry is left');
  } finally {
    await server.close();
  }
});

test('maxWait bounds a stream over two hosts that never goes quiet: it runs every maxWait while deliveries keep coming', async () => {
  const server = await recordingServer();
  try {
    const { token } = await publish('stream', server.url, { period: '600ms', maxWait: '1500ms' });
    const end = Date.now() + 4000;
    for (let n = 0; Date.now() < end; n++) {
      await deliver(n % 2 ? hostB : hostA, token, { key: 's', n });
      await sleep(100);
    }
    const during = server.calls.length;
    assert.ok(during >= 2 && during <= 3, `runs every maxWait (1.5 s) during a 4 s stream: ${during}`);
    await until('the last burst to run after the stream', async () => server.calls.length === during + 1, 10_000, 50);
    const ns = server.calls.map((c) => c.n);
    assert.equal(ns, [...ns].sort((a, b) => a - b), 'each run takes its burst\'s last input, in order');
  } finally {
    await server.close();
  }
});

test('two keys debounce independently: interleaved over two hosts, one run per key with that key\'s last input', async () => {
  const server = await recordingServer();
  try {
    const { token } = await publish('keys', server.url, { period: '1500ms', key: '{{ $input.body.key }}' });
    const answers = [];
    for (let n = 0; n < 20; n++) answers.push(await deliver(n % 3 ? hostA : hostB, token, { key: n % 2 ? 'b' : 'a', n }));
    const records = await ended(answers.map((a) => a.executionId));
    await sleep(2000);
    assert.equal(server.calls.map((c) => `${c.key}/${c.n}`).sort(), ['a/18', 'b/19']);
    const runs = new Map(records.filter((r) => r.status === 'success').map((r) => [r.id, r]));
    assert.is(runs.size, 2);
    assert.equal([...runs.keys()].sort(), [answers[0].executionId, answers[1].executionId].sort(), "each key's run is its first delivery's");
    for (const r of records.filter((x) => x.status === 'debounced')) {
      const into = runs.get(r.debouncedInto!)!;
      assert.is((into.input as any).body.key, (r.input as any).body.key, "debounced into its own key's run");
    }
  } finally {
    await server.close();
  }
});

test('with a concurrency limit too: each key\'s burst runs once, then waits its turn in the flow\'s lane (one at a time)', async () => {
  const server = await recordingServer(700);
  try {
    const { token } = await publish('debounce-and-limit', server.url, { period: '1s', key: '{{ $input.body.key }}' }, { settings: { concurrency: { limit: 1 } } });
    const answers = [];
    for (let n = 0; n < 9; n++) answers.push(await deliver(n % 2 ? hostB : hostA, token, { key: ['a', 'b', 'c'][n % 3], n }));
    await ended(answers.map((a) => a.executionId));
    assert.equal(server.calls.map((c) => `${c.key}/${c.n}`).sort(), ['a/6', 'b/7', 'c/8']);
    assert.is(maxOverlap(server.calls), 1, 'the three runs, due together, ran one at a time');
    assert.is((await observer.executions.open.list()).length, 0, 'no queued entry is left');
  } finally {
    await server.close();
  }
});

test('a caller that waits for the flow is answered 202 at once, by either host: queued for the run, debounced for the others', async () => {
  const server = await recordingServer();
  try {
    const { token } = await publish('waiting-caller', server.url, { period: '500ms' }, { trigger: { respondImmediately: false } });
    const post = (host: RunningHost, n: number) => fetch(`${host.url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: 'w', n }) });
    const first = await post(hostA, 1);
    const second = await post(hostB, 2);
    const [a, b] = [await first.json(), await second.json()];
    assert.is(first.status, 202);
    assert.equal(a, { executionId: first.headers.get('x-execution-id'), status: 'queued' });
    assert.is(second.status, 202);
    assert.equal(b, { executionId: second.headers.get('x-execution-id'), status: 'debounced', debouncedInto: a.executionId });
    await until('the run', async () => (await record(a.executionId))?.status === 'success', 15_000, 100);
    assert.equal(server.calls.map((c) => c.n), [2]);
  } finally {
    await server.close();
  }
});

test('a delivery sent again to the other host under its Idempotency-Key stays what it became: it does not join the burst twice', async () => {
  const server = await recordingServer();
  try {
    const { token } = await publish('idempotent', server.url, { period: '2s' });
    const post = async (host: RunningHost, n: number, key?: string) => {
      const res = await fetch(`${host.url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) }, body: JSON.stringify({ key: 'i', n }) });
      assert.is(res.status, 200);
      return ((await res.json()) as { executionId: string }).executionId;
    };
    const run = await post(hostA, 0);
    const once = await post(hostB, 1, 'dup-1');
    const last = await post(hostA, 2);
    assert.is(await post(hostA, 1, 'dup-1'), once, 'the same execution');
    await ended([run, once, last]);
    assert.equal(server.calls.map((c) => c.n), [2], 'the run kept the last input');
    assert.is((await record(once))?.debouncedInto, run);
  } finally {
    await server.close();
  }
});

test('an input holding a secret is stored masked (records and the burst in Redis), and the run takes its real value', async () => {
  const server = await recordingServer();
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL);
  try {
    const { id, token } = await publish('secret', server.url, { period: '2s' });
    const answers = [];
    for (let n = 0; n < 3; n++) answers.push(await deliver(n % 2 ? hostB : hostA, token, { key: `k-${SECRET}-${n}`, n }));
    const stored = await redis.hget(`${prefix}:weir:debounce:${id}:`, 'data');
    assert.ok(stored?.includes('***') && !stored.includes(SECRET), `the burst's data is masked: ${stored?.slice(0, 300)}`);
    const queued = await record(answers[0].executionId);
    assert.is((queued?.input as any).body.key, 'k-***-0');
    const records = await ended(answers.map((a) => a.executionId));
    assert.equal(server.calls.map((c) => c.key), [`k-${SECRET}-2`], 'the run had the real input');
    for (const r of records) assert.not.ok(JSON.stringify(r).includes(SECRET), `record ${r.id} (${r.status}) is masked`);
  } finally {
    redis.disconnect();
    await server.close();
  }
});

test('the host that took the first delivery is SIGKILLed while the burst is pending: the burst still runs, once, with the last input', async () => {
  const server = await recordingServer();
  const hostC = await startHost(home, ['--port', '0'], 'C');
  try {
    const { token } = await publish('killed', server.url, { period: '3s' });
    const answers = [await deliver(hostC, token, { key: 'x', n: 0 })];
    for (let n = 1; n < 6; n++) answers.push(await deliver(n % 2 ? hostB : hostC, token, { key: 'x', n }));
    assert.is((await record(answers[0].executionId))?.status, 'queued');
    await hostC.stop('SIGKILL');
    assert.is(server.calls.length, 0, 'nothing ran before the kill');
    const records = await ended(answers.map((a) => a.executionId), 30_000);
    await sleep(3500); // a second run would come a period later
    assert.is(server.calls.length, 1, `exactly one run: ${JSON.stringify(server.calls)}`);
    assert.is(server.calls[0].n, 5, 'with the last input');
    assert.is(executionOf(server.calls[0]), answers[0].executionId);
    assert.ok(['A', 'B'].includes(hostOf(server.calls[0])), 'run by a surviving host');
    assert.equal(records.map((r) => r.status), ['success', 'debounced', 'debounced', 'debounced', 'debounced', 'debounced']);
  } finally {
    await hostC.stop('SIGKILL');
    await server.close();
  }
});

test('the pending run cancelled from the other host never runs; the next delivery opens a new burst', async () => {
  const server = await recordingServer();
  try {
    const { token } = await publish('cancelled', server.url, { period: '2s' });
    const answers = [];
    for (let n = 0; n < 4; n++) answers.push(await deliver(n % 2 ? hostB : hostA, token, { key: 'c', n }));
    const run = answers[0].executionId;
    // From host B's management API, while host A took the first delivery.
    const access = await observer.interfaces.accessToken();
    const res = await fetch(`${hostB.url}/api/v1/executions/${run}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' }, body: '{}' });
    const cancelled = (await res.json()) as ExecutionRecord;
    assert.is(res.status, 200, JSON.stringify(cancelled));
    assert.is(cancelled.status, 'cancelled');
    const next = await deliver(hostA, token, { key: 'c', n: 9 });
    assert.is.not(next.executionId, run);
    await until('the new burst to run', async () => (await record(next.executionId))?.status === 'success', 15_000, 100);
    await sleep(2500); // the cancelled run's time is long past
    assert.equal(server.calls.map((c) => c.n), [9], 'the cancelled run never ran; the new burst did');
    assert.is((await record(run))?.status, 'cancelled');
    for (const a of answers.slice(1)) assert.is((await record(a.executionId))?.debouncedInto, run);
  } finally {
    await server.close();
  }
});

test.run();
