// Queue mode: an intake host and two `--role worker` processes on Redis (storage and the BullMQ queue). A
// worker killed with SIGKILL mid-flow leaves its job locked; once the lock lapses (`stalledMs`) the other
// worker takes the job and goes on from the execution's checkpoints under the same id.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWeir, type Weir } from '../../src/index.js';
import { chain } from '../host/_helpers.js';
import { flow, writeJson } from '../_utils.js';
import { clusterConfig, clusterHome, dropRedisPrefix, MASTER_KEY, publishFlow, startHost, uniqueName, until, weirCli, type RunningHost } from './_scale.js';

const prefix = uniqueName('resumeq');
const spec = { prefix, queue: { concurrency: 4, stalledMs: 1000 } };

let observer: Weir;
const hosts: RunningHost[] = [];

/**
 * The test's own server that counts side effects: every call with its path, Idempotency-Key and the tag of
 * the worker that made it. `/hang` answers nothing the first time (its worker gets killed meanwhile).
 */
async function sideEffects() {
  const calls: Array<{ path: string; key?: string; host?: string; auth?: string }> = [];
  let hung = 0;
  const header = (req: IncomingMessage, name: string) => req.headers[name] as string | undefined;
  const server: Server = createServer((req, res) => {
    calls.push({ path: req.url!, key: header(req, 'idempotency-key'), host: header(req, 'x-host'), auth: header(req, 'authorization') });
    if (req.url === '/hang' && hung++ === 0) return;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url, n: calls.length }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    of: (path: string) => calls.filter((c) => c.path === path),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const tagged = (url: string) => ({ method: 'POST', url, headers: { 'x-host': '{{ $env.WEIR_HOST_TAG }}' }, timeoutMs: 60_000 });

test.before(async () => {
  observer = await createWeir({ home: clusterHome(spec), config: clusterConfig(spec), env: { WEIR_MASTER_KEY: MASTER_KEY } });
});

test.after(async () => {
  await Promise.all(hosts.map((h) => h.stop('SIGKILL')));
  await observer.close();
  await dropRedisPrefix(prefix);
});

const byTag = new Map<string, RunningHost>();
/** Starts a cluster member; `tag` (unique in this file) names it in the calls it makes and in `byTag`. */
async function member(home: string, role: 'intake' | 'worker', tag: string): Promise<RunningHost> {
  const host = await startHost(home, role === 'intake' ? ['--port', '0', '--role', role] : ['--role', role], tag);
  hosts.push(host);
  byTag.set(tag, host);
  return host;
}

/**
 * Publishes webhook -> http_request (/first) -> http_request (/hang) -> `last` on a fresh intake and two
 * fresh workers, POSTs the webhook and SIGKILLs the worker whose call hangs (any worker of the file's queue
 * may have taken the job). Resolves with the answer to the POST (once it comes) and who was killed.
 */
async function killMidFlow(effects: Awaited<ReturnType<typeof sideEffects>>, name: string, respondImmediately: boolean, last: { type: string; id: string; config: Record<string, unknown> }) {
  const home = clusterHome(spec);
  const c = chain('webhook_trigger', [
    { type: 'http_request', id: 'http_request-1', config: tagged(`${effects.url}/first`) },
    { type: 'http_request', id: 'http_request-2', config: tagged(`${effects.url}/hang`) },
    last,
  ]);
  const { id, token } = await publishFlow(home, name, flow({ type: 'webhook_trigger', config: { respondImmediately } }, c.nodes, c.edges));
  const [intake] = await Promise.all([member(home, 'intake', `${name}-I`), member(home, 'worker', `${name}-W1`), member(home, 'worker', `${name}-W2`)]);
  const answer = fetch(`${intake.url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order":7}' }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const [hung] = await until('the second node to call', async () => effects.of('/hang').length === 1 && effects.of('/hang'), 20_000, 20);
  const victim = byTag.get(hung.host!);
  assert.ok(victim && /-W\d$/.test(hung.host!), `the call names a worker: ${JSON.stringify(hung)}`);
  await victim.stop('SIGKILL');
  return { workflowId: id, answer, killed: hung.host! };
}
test('a worker killed mid-flow: another worker resumes its job under the same id; the finished node does not run again', async () => {
  const effects = await sideEffects();
  try {
    const last = { type: 'set', id: 'set-3', config: { values: { first: '{{ $node.http_request-1.data.body.n }}', host: '{{ $env.WEIR_HOST_TAG }}' } } };
    const { workflowId, answer, killed } = await killMidFlow(effects, 'async', true, last);
    const { status, body: { executionId, statusUrl } } = await answer;
    assert.is(status, 200);
    const record = await until('the execution to finish', async () => {
      const r = await observer.executions.get(executionId).catch(() => null);
      return r && r.status !== 'running' && r;
    }, 30_000, 100);
    assert.is(record.status, 'success', JSON.stringify(record.error));
    assert.equal(effects.of('/first').map((c) => c.key), [`${executionId}:http_request-1`], 'the node that finished before the kill ran once');
    assert.equal(effects.of('/hang').map((c) => c.key), [`${executionId}:http_request-2`, `${executionId}:http_request-2`], 'the node cut off ran again with the same Idempotency-Key');
    const survivor = effects.of('/hang')[1].host!;
    assert.ok(survivor !== killed && /-W\d$/.test(survivor), `another worker made the second call: ${survivor}`);
    assert.is(record.attempts, 2);
    assert.ok(record.resumedAt && record.resumedAt > record.nodes['http_request-1'].finishedAt!, 'resumedAt after the first node finished');
    assert.equal(record.nodes['set-3'].data, { first: 1, host: survivor }, 'later nodes see the first node\'s original data');
    const all = await observer.executions.list({ workflowId, limit: 10 });
    assert.equal(all.map((r) => r.id), [executionId], 'one execution, not a second one');
    assert.is(await observer.executions.open.get(executionId), null, 'no open entry is left');
    const polled = await (await fetch(statusUrl)).json();
    assert.equal([polled.executionId, polled.status], [executionId, 'success'], 'the intake\'s status URL says so too');
  } finally {
    await effects.close();
  }
});

test('a caller waiting for a Respond answer gets it from the worker that resumed the execution', async () => {
  const effects = await sideEffects();
  try {
    const last = { type: 'respond', id: 'respond-3', config: { status: 201, body: { first: '{{ $node.http_request-1.data.body.n }}', host: '{{ $env.WEIR_HOST_TAG }}' } } };
    const { workflowId, answer, killed } = await killMidFlow(effects, 'respond', false, last);
    const { status, body } = await answer;
    const survivor = effects.of('/hang')[1]?.host;
    assert.equal({ status, body }, { status: 201, body: { first: 1, host: survivor } });
    assert.ok(survivor !== killed);
    assert.is(effects.of('/first').length, 1);
    const all = await until('the final record', async () => {
      const list = await observer.executions.list({ workflowId, limit: 10 });
      return list.every((r) => r.status === 'success') && list;
    }, 10_000, 100);
    assert.is(all.length, 1, 'one execution');
    assert.is(all[0].attempts, 2);
  } finally {
    await effects.close();
  }
});

test('cancel from the CLI reaches the worker running the execution; the node after it never runs', async () => {
  const effects = await sideEffects();
  const home = clusterHome(spec);
  try {
    const c = chain('webhook_trigger', [
      { type: 'http_request', id: 'http_request-1', config: tagged(`${effects.url}/hang`) },
      { type: 'http_request', id: 'http_request-2', config: tagged(`${effects.url}/after`) },
    ]);
    const { token } = await publishFlow(home, 'cancelled', flow({ type: 'webhook_trigger', config: { respondImmediately: true } }, c.nodes, c.edges));
    const started = await Promise.all([member(home, 'intake', 'cancel-I'), member(home, 'worker', 'cancel-W1')]);
    const { executionId } = await (await fetch(`${started[0].url}/trigger/${token}`, { method: 'POST' })).json();
    await until('the hanging call', async () => effects.of('/hang').length === 1, 20_000, 20);
    const cancelled = await weirCli(home, ['workflows', 'cancel', executionId, '--json']);
    assert.is(cancelled.code, 0, cancelled.stderr);
    assert.is(cancelled.json().status, 'cancelled');
    assert.is(cancelled.json().nodes['http_request-1'].status, 'error', 'the worker aborted the request in flight');
    const record = await observer.executions.get(executionId);
    assert.is(record.status, 'cancelled');
    assert.is(effects.of('/after').length, 0);
    assert.is(await observer.executions.open.get(executionId), null, 'no open entry is left');
  } finally {
    await effects.close();
  }
});

test('a worker killed after a node returned a secret: the checkpoint in Redis holds it sealed; the resuming worker sends the real value', async () => {
  const effects = await sideEffects();
  const home = clusterHome(spec);
  const secret = 'tok-queue-5ecr3t-77aa';
  await observer.secrets.set('API_TOKEN', secret);
  try {
    const withToken = (url: string) => ({ ...tagged(url), headers: { 'x-host': '{{ $env.WEIR_HOST_TAG }}', authorization: 'Bearer {{ $node.set-1.data.token }}' } });
    const c = chain('webhook_trigger', [
      { type: 'set', id: 'set-1', config: { values: { token: '{{ $env.API_TOKEN }}' } } },
      { type: 'http_request', id: 'http_request-2', config: withToken(`${effects.url}/first`) },
      { type: 'http_request', id: 'http_request-3', config: withToken(`${effects.url}/hang`) },
    ]);
    const { token } = await publishFlow(home, 'sealed', flow({ type: 'webhook_trigger', config: { respondImmediately: true } }, c.nodes, c.edges));
    const [intake] = await Promise.all([member(home, 'intake', 'sealed-I'), member(home, 'worker', 'sealed-W1'), member(home, 'worker', 'sealed-W2')]);
    const { executionId } = await (await fetch(`${intake.url}/trigger/${token}`, { method: 'POST' })).json();
    const [hung] = await until('the third node to call', async () => effects.of('/hang').length === 1 && effects.of('/hang'), 20_000, 20);
    await byTag.get(hung.host!)!.stop('SIGKILL');
    const stored = JSON.stringify(await observer.storage.view('cloud', 'executions').getItem(`open:${executionId}`));
    assert.ok(stored.includes('"sealed"'), 'the checkpoint is stored');
    assert.not.ok(stored.includes(secret), 'the checkpoint in Redis does not hold the secret');
    const record = await until('the execution to finish', async () => {
      const r = await observer.executions.get(executionId).catch(() => null);
      return r && r.status !== 'running' && r;
    }, 30_000, 100);
    assert.is(record.status, 'success', JSON.stringify(record.error));
    assert.equal(effects.of('/hang').map((c) => c.auth), [`Bearer ${secret}`, `Bearer ${secret}`], 'the resumed node sends the real value');
    assert.is((record.nodes['set-1'].data as { token: string }).token, '***');
  } finally {
    await observer.secrets.delete('API_TOKEN');
    await effects.close();
  }
});

test('a job that crashed its worker `intake.maxCrashes` times ends as an error record under its id; no checkpoint is left', async () => {
  const effects = await sideEffects();
  // A queue of its own: its workers give a job up after one crash (the other tests' workers would retry it).
  const poison = { prefix: uniqueName('poisonq'), queue: { concurrency: 4, stalledMs: 1000 } };
  const config = { ...clusterConfig(poison), intake: { maxCrashes: 1 } };
  const home = clusterHome(poison);
  writeJson(home, 'weir.config.json', config);
  const watcher = await createWeir({ home: clusterHome(poison), config, env: { WEIR_MASTER_KEY: MASTER_KEY } });
  try {
    const c = chain('webhook_trigger', [
      { type: 'http_request', id: 'http_request-1', config: tagged(`${effects.url}/first`) },
      { type: 'http_request', id: 'http_request-2', config: tagged(`${effects.url}/hang`) },
    ]);
    const { token } = await publishFlow(home, 'poison', flow({ type: 'webhook_trigger', config: { respondImmediately: true } }, c.nodes, c.edges));
    const [intake] = await Promise.all([member(home, 'intake', 'poison-I'), member(home, 'worker', 'poison-W1'), member(home, 'worker', 'poison-W2')]);
    const { executionId } = await (await fetch(`${intake.url}/trigger/${token}`, { method: 'POST' })).json();
    const [hung] = await until('the second node to call', async () => effects.of('/hang').length === 1 && effects.of('/hang'), 20_000, 20);
    const checkpoint = await until('the checkpoint', async () => (await watcher.executions.open.get(executionId))?.record, 5_000, 20);
    await byTag.get(hung.host!)!.stop('SIGKILL');
    const record = await until('the final record', async () => {
      const r = await watcher.executions.get(executionId).catch(() => null);
      return r && r.status !== 'running' && r;
    }, 30_000, 100);
    assert.is(record.status, 'error');
    assert.equal(record.error, { code: 'EXECUTION_FAILED', message: 'the execution crashed its worker 1 time and is not run again' });
    assert.is(record.startedAt, checkpoint.startedAt, 'the execution that crashed ended, not a new one');
    assert.is(await watcher.executions.open.get(executionId), null, 'no open entry is left');
    assert.is(effects.of('/hang').length, 1, 'the job was not run again');
  } finally {
    await watcher.close();
    await effects.close();
    await dropRedisPrefix(poison.prefix);
  }
});

test.run();
