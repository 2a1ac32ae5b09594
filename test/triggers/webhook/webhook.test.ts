import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHost } from '../../../src/host/index.js';
import { createWeir } from '../../../src/weir.js';
import { chain, publish, send, startHost, until } from '../../host/_helpers.js';

type Host = Awaited<ReturnType<typeof startHost>>;
let host: Host;
const flows: Record<string, { id: string; token: string }> = {};
const hook = (name: string) => `${host.url}/trigger/${flows[name].token}`;

test.before(async () => {
  host = await startHost();
  const w = host.weir;
  // A flow whose caller waits: webhook_trigger(respondImmediately: false) -> nodes in a row.
  const add = async (name: string, config: Record<string, unknown>, nodes: any[]) => {
    const c = chain('webhook_trigger', nodes);
    flows[name] = await publish(w, name, { type: 'webhook_trigger', config: { respondImmediately: false, ...config } }, c.nodes, c.edges);
  };
  await add('echo', {}, [{ type: 'respond', config: { status: 200, body: '{{ $input }}' } }]);
  await add('boom', {}, [{ type: 'code', config: { code: 'throw new Error("kaboom")' } }]);
  await add('code-echo', {}, [{ type: 'code', config: { code: 'return { input: $input, keys: Object.keys($input), proto: Object.keys($input.body.nested) }' } }]);
  await add('denied', {}, [{ type: 'code', config: { code: 'const e = new Error("bad signature"); e.status = 401; throw e;' } }]);
  await add('slow', { responseTimeoutMs: 150 }, [{ type: 'delay', config: { ms: 1500 } }, { type: 'respond', config: { status: 200, body: 'late' } }]);
  await add('slower', { responseTimeoutMs: 450 }, [{ type: 'delay', config: { ms: 1500 } }, { type: 'respond', config: { status: 200, body: 'late' } }]);
  await add('counted', { idempotencyHeader: 'X-GitHub-Delivery' }, [{ type: 'respond', config: { status: 202, body: { n: '{{ body.n }}' } } }]);
  flows.immediate = await publish(w, 'immediate', { type: 'webhook_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { n: '{{ body.n }}' } } }], [{ id: 'e1', source: 'webhook_trigger-1', target: 'set-1' }]);
  flows.manual = await publish(w, 'manual', { type: 'manual_trigger' });
  const draft = await w.workflows.create('draft-hook');
  await w.workflows.save(draft.id, { nodes: [{ id: 'webhook_trigger-1', type: 'webhook_trigger', config: {} }], edges: [] });
  flows.draft = { id: draft.id, token: draft.webhookToken };
});

test.after(() => host.close());

// Every method and HEAD, a Respond flow's answer, a flow result and invalid JSON on the node:http listener:
// the shared adapter suite (test/adapters/_adapter-suite.ts).

test('JSON, form, text and empty bodies; headers lower case; query strings kept', async () => {
  const json = await send(`${hook('echo')}?a=1&a=2&b=x`, { body: '{"n":1,"list":[{"name":"x"}]}', headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Custom': 'yes' } });
  assert.equal(json.json.body, { n: 1, list: [{ name: 'x' }] });
  assert.equal(json.json.query, { a: ['1', '2'], b: 'x' });
  assert.is(json.json.headers['x-custom'], 'yes');
  const vendor = await send(hook('echo'), { body: '{"v":true}', headers: { 'content-type': 'application/vnd.api+json' } });
  assert.equal(vendor.json.body, { v: true });
  const form = await send(hook('echo'), { body: 'a=1&b=two+words&b=3', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(form.json.body, { a: '1', b: ['two words', '3'] });
  const text = await send(hook('echo'), { body: '<ping/>', headers: { 'content-type': 'text/xml' } });
  assert.is(text.json.body, '<ping/>');
  const none = await send(hook('echo'), { body: 'raw words' });
  assert.is(none.json.body, 'raw words');
  const empty = await send(hook('echo'), { body: '', headers: { 'content-type': 'application/json' } });
  assert.equal(empty.json.body, {});
});

test('a JSON body is stored in the execution record as it was parsed (pretty-printed, escaped, unicode)', async () => {
  const body = '{\n  "text": "line\\nbreak \\"quoted\\" \\u00e9t\u00e9",\r\n  "n": 1.50, "list": [ {"a": null} ],\n  "input": 0\n}';
  const r = await send(`${hook('echo')}?q=1`, { body, headers: { 'content-type': 'application/json', 'x-note': 'ok' } });
  assert.is(r.status, 200);
  const id = r.headers.get('x-execution-id')!;
  // Read back by a second instance, from storage, once the record is written.
  const reader = await createWeir({ home: host.home });
  try {
    const stored = await until(() => reader.executions.get(id).catch(() => null));
    assert.equal(stored.input, { body: JSON.parse(body), headers: r.json.headers, query: { q: '1' }, method: 'POST', rawBody: body });
    assert.equal(stored.nodes['webhook_trigger-1'].data, stored.input);
    assert.equal(Object.keys(stored), Object.keys(await host.weir.executions.get(id)));
  } finally {
    await reader.close();
  }
});

test('a Code node gets the webhook input as parsed: pretty-printed, escaped, unicode, a __proto__ key, -0 and 1e400', async () => {
  const body = '{\n  "text": "line\\nbreak \\"quoted\\" \\u00e9t\u00e9 \\u2028",\r\n  "n": 1.50, "big": 12345678901234567890,\n  "nested": {"__proto__": {"x": 1}, "constructor": 2}, "zero": -0, "huge": 1e400, "body": 0\n}';
  const r = await send(`${hook('code-echo')}?q=1&q=2`, { body, headers: { 'content-type': 'application/json', 'x-note': 'ok' } });
  assert.is(r.status, 200);
  const { input, keys, proto } = r.json;
  const parsed = JSON.parse(body);
  // What the host parsed, as JSON carries it back (-0 and Infinity come back as 0 and null).
  assert.equal(input.body, JSON.parse(JSON.stringify(parsed)));
  assert.is(input.rawBody, body);
  assert.equal(input.query, { q: ['1', '2'] });
  assert.is(input.method, 'POST');
  assert.is(input.headers['x-note'], 'ok');
  assert.equal(keys, ['body', 'headers', 'query', 'method', 'rawBody']);
  assert.equal(proto, ['__proto__', 'constructor'], 'a __proto__ key is a plain key in the sandbox too');
});

test('respondImmediately (default): 200 {executionId, statusUrl} at once, and that execution runs', async () => {
  const r = await send(hook('immediate'), { body: '{"n": 7}', headers: { 'content-type': 'application/json' } });
  assert.is(r.status, 200);
  assert.equal(Object.keys(r.json), ['executionId', 'statusUrl']);
  const record = await until(async () => {
    const e = await host.weir.executions.get(r.json.executionId).catch(() => null);
    return e?.status === 'success' && e;
  });
  assert.equal(record.nodes['set-1'].data, { n: 7 });
  assert.is(record.trigger, 'webhook');
});

test('a failing flow: 500 EXECUTION_FAILED naming the execution, not its error; an error status is kept with its message', async () => {
  const r = await send(hook('boom'));
  assert.is(r.status, 500);
  assert.equal(r.json, { error: { code: 'EXECUTION_FAILED', message: 'the flow failed', executionId: r.headers.get('x-execution-id') } });
  const denied = await send(hook('denied'));
  assert.is(denied.status, 401);
  assert.equal(denied.json, { error: { code: 'EXECUTION_FAILED', message: 'bad signature' } });
});

test('no answer within responseTimeoutMs: 504', async () => {
  const started = Date.now();
  const r = await send(hook('slow'));
  assert.is(r.status, 504);
  assert.is(r.json.error.code, 'TIMEOUT');
  assert.ok(Date.now() - started < 1200, 'answered at the timeout, not when the flow ended');
});

test('callers waiting with different timeouts each get their 504 at their own time; answered ones none', async () => {
  const started = Date.now();
  const at = (p: Promise<{ status: number }>) => p.then((r) => ({ status: r.status, ms: Date.now() - started }));
  const [later, sooner, answered] = await Promise.all([at(send(hook('slower'))), at(send(hook('slow'))), at(send(hook('echo'), { method: 'POST', body: '{}' }))]);
  assert.is(answered.status, 200);
  assert.is(sooner.status, 504);
  assert.is(later.status, 504);
  // Each at its own time: the two answers as far apart as the timeouts (300 ms), give or take a busy machine's
  // timer delays (a 504 at all shows it came before the flow's 1.5 s answer).
  assert.ok(later.ms >= 440, `the 450 ms timeout answered after ${later.ms} ms`);
  assert.ok(later.ms - sooner.ms > 150, `the 150 ms timeout answered after ${sooner.ms} ms, the 450 ms one after ${later.ms} ms`);
});

test('unknown token, draft, non-webhook flow and a token of the right shape: the same 404', async () => {
  const answers = await Promise.all(
    [`${host.url}/trigger/nope`, `${host.url}/trigger/${'x'.repeat(32)}`, hook('draft'), hook('manual'), `${host.url}/trigger/${flows.echo.token.slice(0, -1)}${flows.echo.token.endsWith('A') ? 'B' : 'A'}`].map((u) => send(u, { body: '{}' })),
  );
  for (const a of answers) {
    assert.is(a.status, 404);
    assert.is(a.text, answers[0].text);
  }
  assert.equal(answers[0].json, { error: { code: 'NOT_FOUND', message: 'not found' } });
});

test('unpublishing makes the webhook answer the same 404 at once', async () => {
  const w = host.weir;
  const tmp = await publish(w, 'short-lived', { type: 'webhook_trigger', config: { respondImmediately: false } });
  assert.is((await send(`${host.url}/trigger/${tmp.token}`)).status, 200);
  await w.workflows.delete(tmp.id, { unpublish: true });
  const gone = await send(`${host.url}/trigger/${tmp.token}`);
  assert.is(gone.status, 404);
  assert.equal(gone.json, { error: { code: 'NOT_FOUND', message: 'not found' } });
});

test('Idempotency-Key: a duplicate gets the first answer and starts no second execution', async () => {
  const headers = { 'content-type': 'application/json', 'Idempotency-Key': `key-${Date.now()}` };
  const [a, b] = await Promise.all([send(hook('immediate'), { body: '{"n": 1}', headers }), send(hook('immediate'), { body: '{"n": 1}', headers })]);
  const c = await send(hook('immediate'), { body: '{"n": 2}', headers });
  assert.is(a.status, 200);
  assert.equal(b.json, a.json);
  assert.equal(c.json, a.json);
  const other = await send(hook('immediate'), { body: '{"n": 1}', headers: { ...headers, 'Idempotency-Key': 'another' } });
  assert.is.not(other.json.executionId, a.json.executionId);
  await until(async () => (await host.weir.executions.get(a.json.executionId).catch(() => null))?.status === 'success');
  const runs = (await host.weir.executions.list({ workflowId: flows.immediate.id, limit: 1000 })).filter(
    (e) => (e.input as any).headers['idempotency-key'] === headers['Idempotency-Key'],
  );
  assert.is(runs.length, 1);
  assert.is(runs[0].id, a.json.executionId);
});

test('a per-flow idempotency header dedupes waited-for answers too', async () => {
  const id = `gh-${Date.now()}`;
  const first = await send(hook('counted'), { body: '{"n": 5}', headers: { 'content-type': 'application/json', 'X-GitHub-Delivery': id } });
  const again = await send(hook('counted'), { body: '{"n": 6}', headers: { 'content-type': 'application/json', 'X-GitHub-Delivery': id } });
  assert.is(first.status, 202);
  assert.is(again.status, 202);
  assert.equal(again.json, { n: 5 });
  assert.is(again.headers.get('x-execution-id'), first.headers.get('x-execution-id'));
  const runs = await host.weir.executions.list({ workflowId: flows.counted.id, limit: 1000 });
  assert.is(runs.length, 1);
});

test('the dedupe index survives a restart (it lives in the journal)', async () => {
  const first = await startHost();
  const f = await publish(first.weir, 'restart-dedupe', { type: 'webhook_trigger' });
  const headers = { 'Idempotency-Key': 'same-delivery' };
  const a = await send(`${first.url}/trigger/${f.token}`, { headers });
  await first.close();
  const second = await startHost({ home: first.home });
  try {
    const b = await send(`${second.url}/trigger/${f.token}`, { headers });
    assert.equal(b.json, a.json);
    const runs = await second.weir.executions.list({ workflowId: f.id, limit: 100 });
    assert.is(runs.length, 1);
  } finally {
    await second.close();
  }
});

test('a memory-only weir (no home) takes deliveries without a journal', async () => {
  const weir = await createWeir();
  const f = await publish(weir, 'in-memory', { type: 'webhook_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { ok: true } } }], [{ id: 'e1', source: 'webhook_trigger-1', target: 'set-1' }]);
  const host = createHost(weir, { schedules: false });
  await host.start();
  const res = await host.handle({ method: 'POST', path: `/trigger/${f.token}`, query: {}, headers: {}, rawBody: Buffer.from('hi') });
  assert.is(res.status, 200);
  await host.close(); // without a journal, close runs every accepted delivery first
  assert.is((await weir.executions.get((res.body as any).executionId)).status, 'success');
  await weir.close();
});

test('storage without a local change probe (memory, Redis): the flow cache follows change events, and holds an entry at most a second', async () => {
  const weir = await createWeir();
  const f = await publish(weir, 'cached', { type: 'webhook_trigger', config: { respondImmediately: false } }, [{ id: 'respond-1', type: 'respond', config: { status: 200, body: { ok: true } } }], [{ id: 'e1', source: 'webhook_trigger-1', target: 'respond-1' }]);
  const host = createHost(weir, { schedules: false });
  await host.start();
  const post = () => host.handle({ method: 'POST', path: `/trigger/${f.token}`, query: {}, headers: { 'content-type': 'application/json' }, rawBody: Buffer.from('{"a":1}') });
  // Reads are cached: twenty requests look the token up in storage once (twice if a second ticks over).
  let lookups = 0;
  const idForToken = weir.workflows.idForToken;
  weir.workflows.idForToken = (token) => (lookups++, idForToken(token));
  for (let i = 0; i < 20; i++) assert.is((await post()).status, 200);
  assert.ok(lookups <= 2, `${lookups} lookups`);
  // A session written behind the managers' backs (nothing announces it) is seen within a second.
  const sessions = weir.storage.view('cloud', 'webhook-capture');
  await sessions.setItem(f.id, { state: 'listening', startedAt: new Date().toISOString(), expiresAt: new Date(Date.now() + 60_000).toISOString() });
  await until(async () => ((await post()).body as any)?.captured === true, 3000, 'the unannounced session');
  // Changes made through weir announce themselves: seen by the very next request.
  await weir.capture.decline(f.id);
  assert.equal((await post()).body, { ok: true });
  await weir.capture.listen(f.id);
  assert.equal((await post()).body, { captured: true });
  await weir.workflows.delete(f.id, { unpublish: true });
  assert.is((await post()).status, 404);
  await host.close();
  await weir.close();
});

test.run();
