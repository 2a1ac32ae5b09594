import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runInNewContext } from 'node:vm';
import { chain, publish, send, startHost } from '../host/_helpers.js';

type Host = Awaited<ReturnType<typeof startHost>>;
let host: Host;

const params = [
  { name: 'amount', type: 'number', required: true },
  { name: 'currency', type: 'string', required: true },
  { name: 'tags', type: 'array' },
  { name: 'express', type: 'boolean' },
];

test.before(async () => {
  host = await startHost();
  const quote = chain('interface_event_trigger', [{ type: 'set', config: { values: { total: '{{ $input.amount * 1.2 }}', currency: '{{ $input.currency }}' } } }]);
  await publish(host.weir, 'quote', { type: 'interface_event_trigger', config: { inputParams: params } }, quote.nodes, quote.edges);
  const created = chain('interface_event_trigger', [{ type: 'respond', config: { status: 201, body: { created: '{{ $input.name }}' }, headers: { 'x-kind': 'new' } } }]);
  await publish(host.weir, 'create-thing', { type: 'interface_event_trigger' }, created.nodes, created.edges);
  const failing = chain('interface_event_trigger', [{ type: 'code', config: { code: 'throw new Error("out of stock")' } }]);
  await publish(host.weir, 'failing', { type: 'interface_event_trigger' }, failing.nodes, failing.edges);
  await publish(host.weir, 'a-webhook-flow', { type: 'webhook_trigger' });
});

test.after(() => host.close());

const call = (ref: string, input: unknown, init: { headers?: Record<string, string> } = {}) =>
  send(`${host.url}/api/flows/${encodeURIComponent(ref)}`, { body: JSON.stringify(input), headers: { 'content-type': 'application/json', ...init.headers } });

test('POST /api/flows/<name>: 200 {"result": ...}', async () => {
  const r = await call('quote', { amount: 10, currency: 'EUR' });
  assert.is(r.status, 200);
  assert.equal(r.json, { result: { total: 12, currency: 'EUR' } });
});

test('by id as well as by name', async () => {
  const pub = await host.weir.workflows.findPublished('quote');
  const r = await call(pub!.id, { amount: 1, currency: 'USD' });
  assert.equal(r.json.result.currency, 'USD');
});

test('a Respond node sets the status (and headers); the result is its body', async () => {
  const r = await call('create-thing', { name: 'kettle' });
  assert.is(r.status, 201);
  assert.equal(r.json, { result: { created: 'kettle' } });
  assert.is(r.headers.get('x-kind'), 'new');
});

test('inputParams problems: 400 listing each one', async () => {
  const r = await call('quote', { amount: 'ten', tags: 'a,b', express: 1 });
  assert.is(r.status, 400);
  assert.is(r.json.error.code, 'INVALID_INPUT');
  assert.equal(r.json.error.details, ['"amount" must be a number, got string', '"currency" is required', '"tags" must be an array, got string', '"express" must be a boolean, got number']);
  for (const p of r.json.error.details) assert.match(r.json.error.message, p);
  const notObject = await call('quote', [1, 2]);
  assert.is(notObject.status, 400);
});

test('unknown flows and flows without an interface trigger: 404', async () => {
  assert.is((await call('no-such-flow', {})).status, 404);
  const hook = await call('a-webhook-flow', {});
  assert.is(hook.status, 404);
  assert.is(hook.json.error.code, 'NOT_FOUND');
});

test('a failing flow: 500 EXECUTION_FAILED naming the execution, not its error (the caller of an app is outside)', async () => {
  const r = await call('failing', {});
  assert.is(r.status, 500);
  assert.equal(r.json, { error: { code: 'EXECUTION_FAILED', message: 'the flow failed', executionId: r.headers.get('x-execution-id') } });
});

test('GET /weir-client.js: callFlow(name, input) resolves to the result or rejects with the error', async () => {
  const res = await fetch(`${host.url}/weir-client.js`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', 'javascript');
  const source = await res.text();
  const window: any = {};
  runInNewContext(source, { window, fetch, URL, document: { currentScript: { src: `${host.url}/weir-client.js` } } });
  assert.type(window.callFlow, 'function');
  // Values from the script's own realm: compared by their JSON.
  assert.equal(JSON.parse(JSON.stringify(await window.callFlow('quote', { amount: 5, currency: 'GBP' }))), { total: 6, currency: 'GBP' });
  const err = await window.callFlow('quote', { amount: 5 }).then(
    () => null,
    (e: any) => e,
  );
  assert.is(err.name, 'Error');
  assert.is(err.status, 400);
  assert.is(err.code, 'INVALID_INPUT');
  assert.match(err.message, '"currency" is required');
  const missing = await window.callFlow('nope', {}).catch((e: any) => e);
  assert.is(missing.status, 404);
});

test('executeFlow for server-side callers: published flow, same input checks', async () => {
  assert.equal(await host.weir.executeFlow('quote', { amount: 100, currency: 'EUR' }), { total: 120, currency: 'EUR' });
  await host.weir.executeFlow('quote', { amount: 'x' }).then(
    () => assert.unreachable('bad input must throw'),
    (err) => {
      assert.is(err.code, 'INVALID_INPUT');
      assert.match(err.message, '"currency" is required');
    },
  );
  await host.weir.executeFlow('failing').then(
    () => assert.unreachable('a failing flow must throw'),
    (err) => {
      assert.is(err.code, 'EXECUTION_FAILED');
      assert.match(err.message, 'out of stock');
    },
  );
  await host.weir.executeFlow('missing').catch((err) => assert.is(err.code, 'NOT_FOUND'));
});

test('unknown paths: 404 JSON; GET /healthz: 200', async () => {
  const r = await send(`${host.url}/no/such/path`, { method: 'GET' });
  assert.is(r.status, 404);
  assert.equal(r.json, { error: { code: 'NOT_FOUND', message: 'not found' } });
  assert.is((await send(`${host.url}/healthz`, { method: 'GET' })).status, 200);
});

test.run();
