// Execution control on a cluster: Redis storage (no file probe: the host checks the cancel prefix, and the
// cancel request also goes out on pub/sub) and the BullMQ execution queue.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, type Weir } from '../../src/index.js';
import { chain, countingServer, until } from '../host/_helpers.js';
import { flow } from '../_utils.js';
import { clusterConfig, clusterHome, dropRedisPrefix, MASTER_KEY, publishFlow, startHost, uniqueName, weirCli, type RunningHost } from './_scale.js';

const prefix = uniqueName('control');
const spec = { prefix, queue: { concurrency: 4 } };
const request = (url: string) => ({ type: 'http_request', config: { url, timeoutMs: 60_000 } });
const webhookFlow = (urls: string[], respondImmediately = true) => {
  const c = chain('webhook_trigger', urls.map(request));
  return flow({ type: 'webhook_trigger', config: { respondImmediately } }, c.nodes, c.edges);
};
const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

let observer: Weir;
const hosts: RunningHost[] = [];

test.before(async () => {
  observer = await createWeir({ home: clusterHome(spec), config: clusterConfig(spec), env: { WEIR_MASTER_KEY: MASTER_KEY } });
});

test.after(async () => {
  for (const h of hosts) await h.stop();
  await observer.close();
  await dropRedisPrefix(prefix);
});

test('cancel of a queued execution no worker took: the job is removed and recorded cancelled; a worker never runs it', async () => {
  const server = await countingServer();
  const home = clusterHome(spec);
  try {
    const { token } = await publishFlow(home, 'queued', webhookFlow([server.url('/a')]));
    const intake = await startHost(home, ['--port', '0', '--role', 'intake']);
    hosts.push(intake);
    const { executionId } = await (await post(`${intake.url}/trigger/${token}`)).json();
    const cancelled = await weirCli(home, ['workflows', 'cancel', executionId, '--json']);
    assert.is(cancelled.code, 0, cancelled.stderr);
    assert.is(cancelled.json().status, 'cancelled');
    assert.is(cancelled.json().error.message, 'execution cancelled before it started');

    hosts.push(await startHost(home, ['--role', 'worker']));
    const { executionId: later } = await (await post(`${intake.url}/trigger/${token}`)).json();
    await until(async () => (await observer.executions.get(later).catch(() => null))?.status === 'success', 20_000, 'the later delivery to run');
    assert.equal(server.hits, { '/a': 1 }, 'only the later delivery ran');
    assert.is((await observer.executions.get(executionId)).status, 'cancelled');
  } finally {
    await server.close();
  }
});

test('cancel from the CLI reaches the cluster host running the execution; the node after it never runs', async () => {
  const server = await countingServer();
  const home = clusterHome(spec);
  try {
    const { id, token } = await publishFlow(home, 'running', webhookFlow([server.url('/slow'), server.url('/c')], false));
    const host = await startHost(home, ['--port', '0', '--role', 'all']);
    hosts.push(host);
    const answer = post(`${host.url}/trigger/${token}`).catch(() => null);
    await until(() => server.hits['/slow'] === 1, 20_000, 'the slow request');
    const running = await until(async () => (await observer.executions.list({ workflowId: id })).find((e) => e.status === 'running'), 20_000, 'the running record');
    const cancelled = await weirCli(home, ['workflows', 'cancel', running.id, '--json']);
    assert.is(cancelled.code, 0, cancelled.stderr);
    assert.is(cancelled.json().status, 'cancelled');
    assert.is(cancelled.json().nodes['http_request-1'].status, 'error', 'the host aborted the request in flight');
    await answer;
    assert.is(server.hits['/c'], undefined);
  } finally {
    await server.close();
  }
});

test.run();
