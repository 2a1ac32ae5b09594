import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chain, publish, startHost, until } from '../host/_helpers.js';

/** Keys that name members of Object.prototype, sent as query keys and as form fields. */
const TARGET = '?constructor=z&__proto__=x&toString=t&a=1&a=2';
const FORM = 'constructor=f&__proto__=g&hasOwnProperty=h';
/** What they parse into: plain keys (computed, so `__proto__` is an own key here too). */
const QUERY = { constructor: 'z', ['__proto__']: 'x', toString: 't', a: ['1', '2'] };
const BODY = { constructor: 'f', ['__proto__']: 'g', hasOwnProperty: 'h' };
/** An execution record read back: storage's JSON reader drops `__proto__` keys, the others survive as sent. */
const { ['__proto__']: _dropped, ...STORED_QUERY } = QUERY;

const nodes = chain('webhook_trigger', [
  { type: 'set', config: { values: { text: '{{ json(query) }}', a: '{{ query.a }}' } } },
  { type: 'code', config: { code: 'return { c: $input.query.constructor, p: $input.query.__proto__, query: $input.query, body: $input.body }' } },
]);

test('query keys named like Object.prototype members are plain keys: in expressions, Code nodes and the answer', async () => {
  const host = await startHost();
  try {
    const { token } = await publish(host.weir, 'keys', { type: 'webhook_trigger', config: { respondImmediately: false } }, nodes.nodes, nodes.edges);
    const res = await fetch(`${host.url}/trigger/${token}${TARGET}`, { method: 'POST', body: FORM, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.is(res.status, 200);
    const out = JSON.parse(await res.text());
    assert.is(out.c, 'z');
    assert.is(out.p, 'x');
    assert.equal(out.query, QUERY);
    assert.equal(out.body, BODY);
    const record = await host.weir.executions.get(res.headers.get('x-execution-id')!);
    const set = record.nodes['set-1'].data as { text: string; a: unknown };
    assert.equal(JSON.parse(set.text), QUERY, 'the whole query reads in an expression');
    assert.equal(set.a, ['1', '2']);
  } finally {
    await host.close();
  }
});

/** Publishes a flow for durable delivery, sends it the keys, and reads its execution once it has `status`. */
async function deliver(host: Awaited<ReturnType<typeof startHost>>, flow: ReturnType<typeof chain>, status: string) {
  const { token } = await publish(host.weir, 'keys', { type: 'webhook_trigger', config: { respondImmediately: true } }, flow.nodes, flow.edges);
  const res = await fetch(`${host.url}/trigger/${token}${TARGET}`, { method: 'POST', body: '{"n":1}', headers: { 'content-type': 'application/json' } });
  assert.is(res.status, 200);
  const { executionId } = await res.json();
  return until(async () => {
    const r = await host.weir.executions.get(executionId).catch(() => null);
    return r?.status === status && r;
  }, 10_000, `the delivery to be ${status}`);
}

test('a durable delivery keeps those keys through its journal line and execution record', async () => {
  const host = await startHost();
  try {
    const record = await deliver(host, nodes, 'success');
    assert.equal({ ...(record.input as { query: object }).query }, STORED_QUERY);
    const data = record.nodes['code-2'].data as { c: string; p: string; query: object };
    assert.equal([data.c, data.p], ['z', 'x'], 'the Code node saw both keys');
    assert.equal({ ...data.query }, STORED_QUERY);
  } finally {
    await host.close();
  }
});

test('a run read in its own process while it runs reads as storage reads it', async () => {
  const host = await startHost();
  try {
    const running = await deliver(host, chain('webhook_trigger', [{ type: 'delay', config: { ms: 60_000 } }]), 'running');
    assert.equal({ ...(running.input as { query: object }).query }, STORED_QUERY);
    await host.weir.executions.cancel(running.id);
  } finally {
    await host.close();
  }
});

test.run();
