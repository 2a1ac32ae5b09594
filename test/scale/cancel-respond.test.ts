// A Respond-mode webhook caller waiting on an intake host while its execution is cancelled on the queue:
// answered at once with the cancelled execution's answer, not after the reply timeout. A failed one gets the
// same answer as without a queue.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Queue } from 'bullmq';
import { createWeir, type Weir } from '../../src/index.js';
import { chain, countingServer, until } from '../host/_helpers.js';
import { flow } from '../_utils.js';
import { clusterConfig, clusterHome, dropRedisPrefix, MASTER_KEY, publishFlow, REDIS_URL, startHost, uniqueName, weirCli, type RunningHost } from './_scale.js';

const prefix = uniqueName('cancelrespond');
const spec = { prefix, queue: { concurrency: 4 } };
/** Far above the promptness asserted below: a caller answered only by its timeout fails the test. */
const RESPONSE_TIMEOUT_MS = 30_000;
const PROMPT_MS = 5_000;
/** The cancelled execution's answer, as the host gives it when a Respond-mode execution is cancelled. */
const cancelledAnswer = (message: string) => ({ error: { code: 'CANCELLED', message } });
const respondFlow = (urls: string[]) => {
  const c = chain('webhook_trigger', [...urls.map((url) => ({ type: 'http_request', config: { url, timeoutMs: 60_000 } })), { type: 'respond', config: { status: 200, body: { ok: true } } }]);
  return flow({ type: 'webhook_trigger', config: { respondImmediately: false, responseTimeoutMs: RESPONSE_TIMEOUT_MS } }, c.nodes, c.edges);
};
const post = async (url: string) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  return { status: res.status, executionId: res.headers.get('x-execution-id'), body: await res.json() };
};

let observer: Weir;
let jobs: Queue;
const hosts: RunningHost[] = [];

test.before(async () => {
  observer = await createWeir({ home: clusterHome(spec), config: clusterConfig(spec), env: { WEIR_MASTER_KEY: MASTER_KEY } });
  jobs = new Queue('executions', { connection: { url: REDIS_URL }, prefix });
});

test.after(async () => {
  for (const h of hosts) await h.stop();
  await jobs.close();
  await observer.close();
  await dropRedisPrefix(prefix);
});

test('cancel (CLI) of a queued Respond-mode execution: the caller waiting on the intake host is answered at once; no worker runs it later', async () => {
  const server = await countingServer();
  const home = clusterHome(spec);
  try {
    const { token } = await publishFlow(home, 'queued', respondFlow([server.url('/a')]));
    const intake = await startHost(home, ['--port', '0', '--role', 'intake']);
    hosts.push(intake);
    const answer = post(`${intake.url}/trigger/${token}`);
    // No worker runs yet: the job waits in the queue under its execution id.
    const job = await until(async () => (await jobs.getWaiting())[0], 20_000, 'the queued job');
    const started = Date.now();
    const cancelled = await weirCli(home, ['workflows', 'cancel', job.id!, '--json']);
    assert.is(cancelled.code, 0, cancelled.stderr);
    assert.is(cancelled.json().status, 'cancelled');
    const got = await answer;
    assert.ok(Date.now() - started < PROMPT_MS, `answered after ${Date.now() - started} ms`);
    assert.is(got.status, 500);
    assert.equal(got.body, cancelledAnswer('execution cancelled before it started'));
    assert.is(got.executionId, job.id);

    hosts.push(await startHost(home, ['--role', 'worker']));
    const later = await post(`${intake.url}/trigger/${token}`);
    assert.equal([later.status, later.body], [200, { ok: true }]);
    assert.equal(server.hits, { '/a': 1 }, 'only the later delivery ran');
    assert.is((await observer.executions.get(job.id!)).status, 'cancelled');
  } finally {
    await server.close();
  }
});

test('cancel (library) of a running Respond-mode execution: the caller waiting on the intake host is answered at once; the node after it never runs', async () => {
  const server = await countingServer();
  const home = clusterHome(spec);
  try {
    const { id, token } = await publishFlow(home, 'running', respondFlow([server.url('/slow'), server.url('/c')]));
    const intake = await startHost(home, ['--port', '0', '--role', 'intake']);
    hosts.push(intake, await startHost(home, ['--role', 'worker']));
    const answer = post(`${intake.url}/trigger/${token}`);
    await until(() => server.hits['/slow'] === 1, 20_000, 'the slow request');
    const running = await until(async () => (await observer.executions.list({ workflowId: id })).find((e) => e.status === 'running'), 20_000, 'the running record');
    const started = Date.now();
    assert.is((await observer.executions.cancel(running.id)).status, 'cancelled');
    const got = await answer;
    assert.ok(Date.now() - started < PROMPT_MS, `answered after ${Date.now() - started} ms`);
    assert.is(got.status, 500);
    assert.equal(got.body, cancelledAnswer('execution cancelled'));
    assert.is(got.executionId, running.id);
    assert.is(server.hits['/c'], undefined);
    assert.is((await jobs.getJobState(running.id)), 'completed', 'the job is done, not left to be retried');
  } finally {
    await server.close();
  }
});

test('a flow failing on a worker: the caller waiting on the intake host gets 500 EXECUTION_FAILED naming the execution, as without a queue', async () => {
  const home = clusterHome(spec);
  const c = chain('webhook_trigger', [{ type: 'code', config: { code: 'return $input.body.items.length' } }]);
  const { token } = await publishFlow(home, 'failing', flow({ type: 'webhook_trigger', config: { respondImmediately: false, responseTimeoutMs: RESPONSE_TIMEOUT_MS } }, c.nodes, c.edges));
  const intake = await startHost(home, ['--port', '0', '--role', 'intake']);
  hosts.push(intake, await startHost(home, ['--role', 'worker']));
  const got = await post(`${intake.url}/trigger/${token}`);
  assert.is(got.status, 500);
  assert.equal(got.body, { error: { code: 'EXECUTION_FAILED', message: 'the flow failed', executionId: got.executionId } });
  const record = await until(() => observer.executions.get(got.executionId!).catch(() => null), 20_000, 'the failed record');
  assert.match(record.error!.message, 'TypeError');
});

test('a Respond-mode caller answered 504 by its timeout leaves no wait behind on the intake host: it stops at once', async () => {
  // A queue of its own, which the workers of the tests above do not serve.
  const alone = { prefix: uniqueName('noworker'), queue: { concurrency: 4 } };
  const home = clusterHome(alone);
  const c = chain('webhook_trigger', [{ type: 'respond', config: { status: 200, body: { ok: true } } }]);
  const { token } = await publishFlow(home, 'unanswered', flow({ type: 'webhook_trigger', config: { respondImmediately: false, responseTimeoutMs: 500 } }, c.nodes, c.edges));
  // No worker: the job stays queued, and only the caller's timeout answers.
  const intake = await startHost(home, ['--port', '0', '--role', 'intake']);
  const got = await post(`${intake.url}/trigger/${token}`);
  assert.is(got.status, 504);
  // Before, the host kept waiting for the job's end (15 minutes) in an execution slot, and SIGTERM waited on it.
  let guard: NodeJS.Timeout | undefined;
  const stopped = await Promise.race([intake.stop(), new Promise((r) => (guard = setTimeout(() => r('still running'), PROMPT_MS * 2)))]);
  clearTimeout(guard);
  if (stopped === 'still running') await intake.stop('SIGKILL');
  await dropRedisPrefix(alone.prefix);
  assert.is(stopped, 0);
});

test.run();
