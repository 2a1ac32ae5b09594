import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chain, publish, send, startHost, until } from '../host/_helpers.js';

const PUBLIC = 'https://hooks.example.test';
type Host = Awaited<ReturnType<typeof startHost>>;
let host: Host;

test.before(async () => {
  host = await startHost({ config: { publicUrl: PUBLIC } });
});
test.after(async () => {
  await host.close();
});

/** The resume URL as the flow saw it, pointed at the test's host. */
const local = (url: string) => {
  assert.ok(url.startsWith(`${PUBLIC}/resume/`), `resume URL under the public base: ${url}`);
  return host.url + url.slice(PUBLIC.length);
};

const finished = (id: string) => until(async () => {
  const r = await host.weir.executions.get(id);
  return r && r.status !== 'running' && r.status !== 'waiting' && r;
}, 10_000, `execution ${id} to finish`);

test('a webhook wait: $execution.resumeUrl before it, one call resumes it with the call as data, a second call is 404', async () => {
  const c = chain('webhook_trigger', [
    { type: 'respond', id: 'respond-1', config: { body: { url: '{{ $execution.resumeUrl }}', id: '{{ $execution.id }}' } } },
    { type: 'wait', id: 'wait-1', config: { webhook: true } },
    { type: 'set', id: 'set-1', config: { values: { approved: '{{ $node["wait-1"].data.body.approved }}' } } },
  ]);
  const { token } = await publish(host.weir, 'approval', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  const first = await send(`${host.url}/trigger/${token}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.is(first.status, 200);
  const executionId = first.headers.get('x-execution-id')!;
  assert.is(first.json.id, executionId, '$execution.id is the execution id');
  const url = local(first.json.url);
  assert.ok(/\/resume\/[A-Za-z0-9_-]{32,}$/.test(url), 'the token carries at least 128 random bits');

  await until(async () => (await host.weir.executions.get(executionId))?.status === 'waiting', 5000, 'the execution to wait');
  const resumed = await send(`${url}?via=mail`, { method: 'PUT', body: '{"approved":true}', headers: { 'content-type': 'application/json', 'x-approver': 'ada' } });
  assert.is(resumed.status, 202);
  assert.equal(resumed.json, { executionId });
  const again = await send(url, { body: '{"approved":false}', headers: { 'content-type': 'application/json' } });
  assert.is(again.status, 404, 'a token is good for one call');

  const record = await finished(executionId);
  assert.is(record.status, 'success');
  const data = record.nodes['wait-1'].data as { body: unknown; headers: Record<string, string>; query: unknown; method: string };
  assert.equal(data.body, { approved: true });
  assert.equal(data.query, { via: 'mail' });
  assert.is(data.method, 'PUT');
  assert.is(data.headers['x-approver'], 'ada');
  assert.equal(record.result, { approved: true });
});

test('an unknown token is 404', async () => {
  assert.is((await send(`${host.url}/resume/${'A'.repeat(32)}`)).status, 404);
  assert.is((await send(`${host.url}/resume/short`, { method: 'GET' })).status, 404);
});

test('a flow in respond mode that waits before any Respond answers 202 {executionId, status: "waiting"}', async () => {
  const c = chain('webhook_trigger', [{ type: 'wait', id: 'wait-1', config: { for: '1h' } }]);
  const { token } = await publish(host.weir, 'slow-answer', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  const res = await send(`${host.url}/trigger/${token}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.is(res.status, 202);
  assert.is(res.json.status, 'waiting');
  assert.is((await host.weir.executions.get(res.json.executionId))?.status, 'waiting');
  await host.weir.waits.forget(res.json.executionId);
});

test('`until` in the past goes on at once', async () => {
  const c = chain('webhook_trigger', [
    { type: 'wait', id: 'wait-1', config: { until: '{{ "2020-01-01T00:00:00Z" }}' } },
    { type: 'set', id: 'set-1', config: { values: { after: true } } },
  ]);
  const { token } = await publish(host.weir, 'past', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  const res = await send(`${host.url}/trigger/${token}`, { body: '{"n":1}', headers: { 'content-type': 'application/json' } });
  assert.is(res.status, 200);
  assert.equal(res.json, { after: true });
});

test('the timeout fails the wait with TIMEOUT (the token is spent); with onError continue the flow goes on', async () => {
  const stops = chain('webhook_trigger', [
    { type: 'code', id: 'code-1', config: { code: 'return { url: $execution.resumeUrl, id: $execution.id }' } },
    { type: 'wait', id: 'wait-1', config: { webhook: true, timeout: '300ms' } },
  ]);
  const goesOn = chain('webhook_trigger', [
    { type: 'wait', id: 'wait-1', config: { webhook: true, timeout: '300ms', onError: 'continue' } },
    { type: 'set', id: 'set-1', config: { values: { code: '{{ $node["wait-1"].data.error.code }}' } } },
  ]);
  const a = await publish(host.weir, 'times-out', { type: 'webhook_trigger' }, stops.nodes, stops.edges);
  const b = await publish(host.weir, 'times-out-on', { type: 'webhook_trigger' }, goesOn.nodes, goesOn.edges);
  const ra = await send(`${host.url}/trigger/${a.token}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  const rb = await send(`${host.url}/trigger/${b.token}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  const failed = await finished(ra.json.executionId);
  assert.is(failed.status, 'error');
  assert.is(failed.error?.code, 'TIMEOUT');
  assert.is(failed.nodes['wait-1'].error?.code, 'TIMEOUT');
  const code = failed.nodes['code-1'].data as { url: string; id: string };
  assert.is(code.id, ra.json.executionId, '$execution.id in a Code node');
  assert.is((await send(local(code.url))).status, 404, 'an expired token is 404');
  const continued = await finished(rb.json.executionId);
  assert.is(continued.status, 'success');
  assert.equal(continued.nodes['set-1'].data, { code: 'TIMEOUT' });
});

test('a call that comes before the execution reaches its webhook wait is kept: the wait goes on at once', async () => {
  const c = chain('webhook_trigger', [
    { type: 'respond', id: 'respond-1', config: { body: { url: '{{ $execution.resumeUrl }}' } } },
    { type: 'wait', id: 'wait-0', config: { for: '600ms' } },
    { type: 'wait', id: 'wait-1', config: { webhook: true, timeout: '1h' } },
  ]);
  const { token } = await publish(host.weir, 'early', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  const res = await send(`${host.url}/trigger/${token}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  const executionId = res.headers.get('x-execution-id')!;
  const early = await send(local(res.json.url), { body: '{"early":1}', headers: { 'content-type': 'application/json' } });
  assert.is(early.status, 202);
  assert.equal(early.json, { executionId });
  const record = await finished(executionId);
  assert.is(record.status, 'success');
  assert.equal((record.nodes['wait-1'].data as { body: unknown }).body, { early: 1 });
  await until(() => host.weir.waits.size === 0, 2000, 'no wake left for the timeout');
});

test.run();
