// Approval waits in one host process: a node returns an approval Suspend, the execution waits (stored), and a
// decision — the management API, the execution's approval URL (also before the wait is reached) — runs the
// node again with `ctx.approval` and its stored progress.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ExecutionRecord } from '../../src/flow/types.js';
import { chain, publish, send, startHost, until } from '../host/_helpers.js';
import { askNode } from './_approval.js';

const PUBLIC = 'https://hooks.example.test';
type Host = Awaited<ReturnType<typeof startHost>>;
let host: Host;
let token: string;

test.before(async () => {
  host = await startHost({ config: { publicUrl: PUBLIC }, nodes: [askNode] });
  token = await host.weir.interfaces.accessToken();
});
test.after(async () => {
  await host.close();
});

const api = async (method: string, path: string, body?: unknown) => {
  const res = await send(`${host.url}/api/v1${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
  return res;
};
const get = (id: string) => host.weir.executions.get(id).catch(() => null);
const ended = (id: string) => until(async () => {
  const r = await get(id);
  return r && !['queued', 'running', 'waiting'].includes(r.status) && r;
}, 15_000, `execution ${id} to end`);
const waitingFor = (id: string) => until(async () => {
  const r = await get(id);
  return r?.status === 'waiting' && r;
}, 10_000, `execution ${id} to wait`);
/** The approval URL as the flow saw it, pointed at the test's host. */
const local = (url: string) => {
  assert.ok(url.startsWith(`${PUBLIC}/resume/`), `an approval URL under the public base: ${url}`);
  return host.url + url.slice(PUBLIC.length);
};
const marks = () => join(host.home, `marks-${Math.random().toString(36).slice(2)}.txt`);
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n');

test('a denial with a reason through POST /api/v1/executions/<id>/approve: the node runs again with it and its progress', async () => {
  const file = marks();
  const c = chain('manual_trigger', [{ type: 'ask_approval', id: 'ask_approval-1', config: { tool: 'refund', input: { order: 42, amount: '{{ $input.amount }}' }, marks: file } }]);
  await publish(host.weir, 'deny-api', { type: 'manual_trigger' }, c.nodes, c.edges);
  const first = await host.weir.run('deny-api', { amount: 900 }, { published: true });
  assert.is(first.status, 'waiting');
  assert.equal(first.nodes['ask_approval-1'].wait, { kind: 'approval', tool: 'refund', input: { order: 42, amount: 900 } });

  const shown = await api('GET', `/executions/${first.id}`);
  assert.equal(shown.json.nodes['ask_approval-1'].wait, { kind: 'approval', tool: 'refund', input: { order: 42, amount: 900 } }, 'the record says what it waits for');
  assert.equal(shown.json.nodes['ask_approval-1'].progress, { asked: 'refund' });

  const denied = await api('POST', `/executions/${first.id}/approve`, { approve: false, reason: 'over the limit' });
  assert.is(denied.status, 200, denied.text);
  assert.equal(denied.json, { executionId: first.id, approved: false, reason: 'over the limit', tool: 'refund', applied: true });
  const record = await ended(first.id);
  assert.is(record.status, 'success', JSON.stringify(record.error));
  assert.equal(record.result, { approval: { approved: false, reason: 'over the limit' }, progress: { asked: 'refund' } });
  assert.equal(lines(file), ['asked', 'denied'], 'the node ran twice: once to ask, once with the decision');

  const again = await api('POST', `/executions/${first.id}/approve`, { approve: true });
  assert.is(again.status, 409, 'an execution that ended waits for no approval');
  assert.is(again.json.error.code, 'CONFLICT');
  assert.match(again.json.error.message, `execution ${first.id} is success and waits for no approval`);
  const unknown = await api('POST', '/executions/exec_nope/approve', { approve: true });
  assert.is(unknown.status, 404);
  assert.is(unknown.json.error.code, 'NOT_FOUND');
  const bad = await api('POST', `/executions/${first.id}/approve`, { reason: 'no decision' });
  assert.is(bad.status, 400, 'approve is required');
});

test('an execution waiting on a time, not an approval, is refused; a cancelled one waiting for an approval ends and stays cancelled', async () => {
  const c = chain('manual_trigger', [{ type: 'wait', id: 'wait-1', config: { for: '1h' } }]);
  await publish(host.weir, 'timed', { type: 'manual_trigger' }, c.nodes, c.edges);
  const timed = await host.weir.run('timed', {}, { published: true });
  assert.is(timed.status, 'waiting');
  const refused = await api('POST', `/executions/${timed.id}/approve`, { approve: true });
  assert.is(refused.status, 409);
  assert.match(refused.json.error.message, 'waits for no approval');

  const file = marks();
  const a = chain('manual_trigger', [{ type: 'ask_approval', id: 'ask_approval-1', config: { tool: 'delete_account', marks: file } }]);
  await publish(host.weir, 'cancel-me', { type: 'manual_trigger' }, a.nodes, a.edges);
  const asked = await host.weir.run('cancel-me', {}, { published: true });
  assert.is(asked.status, 'waiting');
  const cancelled = await api('POST', `/executions/${asked.id}/cancel`, {});
  assert.is(cancelled.status, 200, cancelled.text);
  assert.is(cancelled.json.status, 'cancelled');
  const late = await api('POST', `/executions/${asked.id}/approve`, { approve: true });
  assert.is(late.status, 409, 'a cancelled execution waits for no approval');
  assert.is((await get(asked.id))!.status, 'cancelled');
  assert.equal(lines(file), ['asked'], 'the node never ran again');
});

test('$execution.approvalUrl: a call approves (once), a query approve=false with a reason denies', async () => {
  const file = marks();
  const c = chain('webhook_trigger', [
    { type: 'respond', id: 'respond-1', config: { body: { url: '{{ $execution.approvalUrl }}' } } },
    { type: 'ask_approval', id: 'ask_approval-1', config: { tool: 'send_mail', marks: file } },
  ]);
  const { token: hook } = await publish(host.weir, 'by-url', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);

  const one = await send(`${host.url}/trigger/${hook}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  const id1 = one.headers.get('x-execution-id')!;
  const url1 = local(one.json.url);
  await waitingFor(id1);
  const approved = await send(url1, { method: 'GET' });
  assert.is(approved.status, 202, approved.text);
  assert.equal(approved.json, { executionId: id1, approved: true, tool: 'send_mail', applied: true });
  assert.equal((await ended(id1)).result, { approval: { approved: true }, progress: { asked: 'send_mail' } });
  assert.is((await send(url1)).status, 404, 'an approval URL is good for one call');

  const two = await send(`${host.url}/trigger/${hook}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  const id2 = two.headers.get('x-execution-id')!;
  await waitingFor(id2);
  const denied = await send(`${local(two.json.url)}?approve=false&reason=${encodeURIComponent('not this one')}`, { method: 'POST' });
  assert.is(denied.status, 202, denied.text);
  assert.equal(denied.json, { executionId: id2, approved: false, reason: 'not this one', tool: 'send_mail', applied: true });
  assert.equal((await ended(id2)).result, { approval: { approved: false, reason: 'not this one' }, progress: { asked: 'send_mail' } });
  assert.equal(lines(file), ['asked', 'approved', 'asked', 'denied']);
});

test('a Code node reads $execution.approvalUrl too; a denial in a JSON body', async () => {
  const c = chain('manual_trigger', [
    { type: 'code', id: 'code-1', config: { code: 'return { url: $execution.approvalUrl, id: $execution.id }' } },
    { type: 'ask_approval', id: 'ask_approval-1', config: { tool: 'publish_post' } },
  ]);
  await publish(host.weir, 'code-url', { type: 'manual_trigger' }, c.nodes, c.edges);
  const r = await host.weir.run('code-url', {}, { published: true });
  assert.is(r.status, 'waiting');
  const data = r.nodes['code-1'].data as { url: string; id: string };
  assert.is(data.id, r.id);
  const res = await send(local(data.url), { method: 'PUT', body: JSON.stringify({ approve: false }), headers: { 'content-type': 'application/json' } });
  assert.equal(res.json, { executionId: r.id, approved: false, tool: 'publish_post', applied: true });
  assert.equal((await ended(r.id)).result, { approval: { approved: false }, progress: { asked: 'publish_post' } });
});

test('a call to $execution.approvalUrl before the wait is reached is kept and decides it when reached', async () => {
  const file = marks();
  const c = chain('webhook_trigger', [
    { type: 'respond', id: 'respond-1', config: { body: { url: '{{ $execution.approvalUrl }}' } } },
    { type: 'delay', id: 'delay-1', config: { ms: 1500 } },
    { type: 'ask_approval', id: 'ask_approval-1', config: { tool: 'refund', marks: file } },
  ]);
  const { token: hook } = await publish(host.weir, 'early', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  const res = await send(`${host.url}/trigger/${hook}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  const id = res.headers.get('x-execution-id')!;
  const early = await send(local(res.json.url), { body: JSON.stringify({ approve: false, reason: 'decided ahead' }), headers: { 'content-type': 'application/json' } });
  assert.is(early.status, 202, early.text);
  assert.equal(early.json, { executionId: id, approved: false, reason: 'decided ahead', applied: false }, 'kept: the execution has not reached its wait');
  assert.not.ok((await get(id))?.nodes['ask_approval-1'], 'the call came before the approval wait');
  const record = await ended(id);
  assert.is(record.status, 'success', JSON.stringify(record.error));
  assert.equal(record.result, { approval: { approved: false, reason: 'decided ahead' }, progress: { asked: 'refund' } });
  assert.equal(lines(file), ['asked', 'denied']);
});

test('an execution asking twice: the decision of the first wait is used up, the second waits for its own', async () => {
  const file = marks();
  const c = chain('manual_trigger', [
    { type: 'ask_approval', id: 'ask_approval-1', config: { tool: 'first', marks: file } },
    { type: 'ask_approval', id: 'ask_approval-2', config: { tool: 'second', marks: file } },
  ]);
  await publish(host.weir, 'twice', { type: 'manual_trigger' }, c.nodes, c.edges);
  const r = await host.weir.run('twice', {}, { published: true });
  assert.is((await api('POST', `/executions/${r.id}/approve`, { approve: true })).json.tool, 'first');
  const second = await until(async () => {
    const x = await get(r.id);
    return x?.status === 'waiting' && x.nodes['ask_approval-2']?.status === 'waiting' && x;
  }, 10_000, 'the second approval wait');
  assert.is(second.nodes['ask_approval-1'].status, 'success');
  const next = await api('POST', `/executions/${r.id}/approve`, { approve: false });
  assert.equal(next.json, { executionId: r.id, approved: false, tool: 'second', applied: true });
  const record: ExecutionRecord = await ended(r.id);
  assert.equal(record.result, { approval: { approved: false }, progress: { asked: 'second' } });
  assert.equal(lines(file), ['asked', 'approved', 'asked', 'denied']);
});

test.run();
