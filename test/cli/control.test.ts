import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, type Weir } from '../../src/weir.js';
import { cli, writeJson } from '../_utils.js';
import { chain, countingServer, publish, send, startServe, tmpDir, until } from '../host/_helpers.js';

/** A home with one published flow made by `make`; returns the home and the flow's id and token. */
async function homeWith(make: (weir: Weir) => Promise<{ id: string; token?: string }>) {
  const home = tmpDir('weir-control-');
  const weir = await createWeir({ home });
  try {
    return { home, ...(await make(weir)) };
  } finally {
    await weir.close();
  }
}

const request = (url: string) => ({ type: 'http_request', config: { url, timeoutMs: 60_000 } });

test('cancel from the CLI: an execution running on `weir serve` ends cancelled, the nodes after it never run; an ended one exits 1', async () => {
  const server = await countingServer();
  const { home, id, token } = await homeWith((weir) => {
    const c = chain('webhook_trigger', [request(server.url('/a')), request(server.url('/slow')), request(server.url('/c'))]);
    return publish(weir, 'slow', { type: 'webhook_trigger' }, c.nodes, c.edges);
  });
  const host = await startServe(home);
  const reader = await createWeir({ home });
  try {
    const answer = send(`${host.url}/trigger/${token}`).catch(() => null);
    await until(() => server.hits['/slow'] === 1, 10_000, 'the slow request to arrive');
    const running = await until(async () => (await reader.executions.list({ workflowId: id })).find((e) => e.status === 'running'), 10_000, 'the running record');

    const cancelled = await cli(['workflows', 'cancel', running.id, '--json'], { home });
    assert.is(cancelled.code, 0, cancelled.stderr);
    const record = cancelled.json();
    assert.is(record.id, running.id);
    assert.is(record.status, 'cancelled');
    assert.ok(record.finishedAt);
    assert.is(record.nodes['http_request-2'].status, 'error', 'the host aborted the request in flight');
    assert.is(record.nodes['http_request-3'], undefined, 'the node after the cancelled one never started');
    await answer;
    assert.is(server.hits['/c'], undefined);
    assert.is((await reader.executions.get(running.id)).status, 'cancelled');

    const again = await cli(['workflows', 'cancel', running.id], { home });
    assert.is(again.code, 1);
    assert.match(again.stderr, `execution ${running.id} has already ended (cancelled)`);
    const unknown = await cli(['workflows', 'cancel', 'exec_unknown'], { home });
    assert.is(unknown.code, 1);
    assert.match(unknown.stderr, 'not found');
  } finally {
    await reader.close();
    await host.stop();
    await server.close();
  }
});

test('cancel from the CLI of an execution whose host was killed: cancelled at once, from its last checkpoint', async () => {
  const server = await countingServer();
  const { home, id, token } = await homeWith((weir) => {
    const c = chain('webhook_trigger', [request(server.url('/a')), request(server.url('/slow'))]);
    return publish(weir, 'orphaned', { type: 'webhook_trigger' }, c.nodes, c.edges);
  });
  const host = await startServe(home);
  const reader = await createWeir({ home });
  try {
    void send(`${host.url}/trigger/${token}`).catch(() => null);
    await until(() => server.hits['/slow'] === 1, 10_000, 'the slow request to arrive');
    const running = await until(async () => (await reader.executions.list({ workflowId: id })).find((e) => e.status === 'running' && e.nodes['http_request-1']), 10_000, 'the checkpoint after the first request');
    await host.stop('SIGKILL');
    const started = Date.now();
    const cancelled = await cli(['workflows', 'cancel', running.id], { home });
    assert.is(cancelled.code, 0, cancelled.stderr);
    assert.match(cancelled.stdout, `cancelled execution ${running.id} (orphaned)`);
    assert.ok(Date.now() - started < 5000, 'no wait for a process that is gone');
    const record = await reader.executions.get(running.id);
    assert.is(record.status, 'cancelled');
    assert.is(record.nodes['http_request-1'].status, 'success');
    assert.is(await reader.executions.open.get(running.id), null);
  } finally {
    await reader.close();
    await host.stop();
    await server.close();
  }
});

test('retry from the CLI: the failed node and those after it run again under a new id; the succeeded ones are reused', async () => {
  const server = await countingServer();
  const { home, id } = await homeWith((weir) => {
    const c = chain('manual_trigger', [request(server.url('/a')), request(server.url('/flaky')), request(server.url('/c'))]);
    return publish(weir, 'retried', { type: 'manual_trigger' }, c.nodes, c.edges);
  });
  try {
    const failed = await cli(['workflows', 'run', id, '--published', '--input', '{"n":1}', '--json'], { home });
    assert.is(failed.code, 1);
    const failedId = failed.json().executionId;
    assert.equal(server.hits, { '/a': 1, '/flaky': 1 });

    server.flaky.fail = false;
    const retried = await cli(['workflows', 'retry', failedId, '--json'], { home });
    assert.is(retried.code, 0, retried.stderr);
    const record = retried.json();
    assert.is(record.status, 'success');
    assert.is.not(record.id, failedId);
    assert.is(record.retryOf, failedId);
    assert.equal(record.input, { n: 1 });
    assert.equal(server.hits, { '/a': 1, '/flaky': 2, '/c': 1 }, 'a is not called again; the failed node and the one after it run');
    assert.equal(record.result.body, { path: '/c' });

    const old = await cli(['workflows', 'execution', failedId, '--json'], { home });
    assert.is(old.json().status, 'error', 'the retried execution keeps its record');
    assert.is(old.json().nodes['http_request-3'], undefined);
    const text = await cli(['workflows', 'execution', record.id], { home });
    assert.match(text.stdout, `retryOf:`);

    const refused = await cli(['workflows', 'retry', record.id], { home });
    assert.is(refused.code, 1);
    assert.match(refused.stderr, 'only an execution that ended in error or was cancelled can be retried');
  } finally {
    await server.close();
  }
});

test('retry runs the config version the execution ran, --latest the one published since; rerun --draft runs the draft', async () => {
  const server = await countingServer();
  const config = (label: string) => chain('manual_trigger', [request(server.url('/flaky')), { type: 'set', config: { values: { label, x: '{{ $input.x }}' } } }]);
  const { home, id } = await homeWith((weir) => {
    const c = config('one');
    return publish(weir, 'versions', { type: 'manual_trigger' }, c.nodes, c.edges);
  });
  try {
    const failed = await cli(['workflows', 'run', id, '--published', '--input', '{"x":7}', '--json'], { home });
    assert.is(failed.code, 1);
    const failedId = failed.json().executionId;
    const flow = (label: string) => ({ nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, ...config(label).nodes], edges: config(label).edges, variables: {}, metadata: {} });
    assert.is((await cli(['workflows', 'save', id, writeJson(home, 'two.json', flow('two'))], { home })).code, 0);
    assert.is((await cli(['workflows', 'publish', id], { home })).code, 0);
    server.flaky.fail = false;

    const same = (await cli(['workflows', 'retry', failedId, '--json'], { home })).json();
    assert.equal(same.result, { label: 'one', x: 7 }, 'the version it ran');
    assert.is(same.version, 1);
    const latest = (await cli(['workflows', 'retry', failedId, '--latest', '--json'], { home })).json();
    assert.equal(latest.result, { label: 'two', x: 7 }, 'the version published since');
    assert.is(latest.version, 2);

    assert.is((await cli(['workflows', 'save', id, writeJson(home, 'three.json', flow('three'))], { home })).code, 0);
    const rerun = await cli(['workflows', 'rerun', failedId, '--draft', '--json'], { home });
    assert.is(rerun.code, 0, rerun.stderr);
    const drafted = rerun.json();
    assert.equal(drafted.result, { label: 'three', x: 7 });
    assert.is(drafted.rerunOf, failedId);
    assert.is(drafted.draft, true);
    const published = await cli(['workflows', 'rerun', failedId], { home });
    assert.is(published.code, 0, published.stderr);
    assert.match(published.stdout, /rerun of exec_\w+\) succeeded, result:\n\{\n  "label": "two"/);
  } finally {
    await server.close();
  }
});

test.run();
