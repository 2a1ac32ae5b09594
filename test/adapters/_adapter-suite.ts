// One suite of HTTP behaviours, run against every adapter weir ships (the node:http listener on a plain
// server and mounted Express-style with next(), the fetch handler): the same requests must get the same
// answers whatever carries them.
import { request } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, type Weir } from '../../src/weir.js';
import { tmpDir } from '../_utils.js';
import { chain, publish, send, until } from '../host/_helpers.js';

/** Body limit every adapter is mounted with. */
export const MAX_BODY = 1024;

/** An adapter serving one weir on 127.0.0.1, as the suite needs it. */
export interface Mounted {
  /** Where weir's routes are (`http://127.0.0.1:<port>` plus any prefix). */
  base: string;
  /** True when paths weir does not own reach the app (next(), `owns`): the app answers 404 `{app: 'not found'}`. */
  passesOn: boolean;
  /** The adapter's own close(): drains requests in flight, then stops the host (the suite's last test calls it). */
  close(): Promise<void>;
  /** Stops the HTTP server. */
  dispose(): Promise<void>;
}

/** Mounts an adapter for `weir` with `maxBody` = {@link MAX_BODY} and schedules off. */
export type MountAdapter = (weir: Weir) => Promise<Mounted>;

/** What the suite's apps answer for paths they get passed. */
export const APP_404 = { app: 'not found' };

/** A request with a body that announces no length (`Transfer-Encoding: chunked`); resolves with the status. */
function chunked(url: string, chunks: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

/**
 * Registers and runs the suite for one adapter, on a weir of its own (closing an adapter closes the intake
 * of its weir).
 * @example
 * adapterSuite('fetch', async (weir) => { ... return { base, passesOn: true, close, dispose } })
 */
export function adapterSuite(name: string, mountAdapter: MountAdapter): void {
  const test = suite(`adapter: ${name}`);
  let weir: Weir;
  let mounted: Mounted;
  const tokens: Record<string, string> = {};
  const hook = (flow: string, query = '') => `${mounted.base}/trigger/${tokens[flow]}${query}`;

  test.before(async () => {
    weir = await createWeir({ home: tmpDir('weir-adapter-') });
    const add = async (flow: string, config: Record<string, unknown>, nodes: any[]) => {
      const c = chain('webhook_trigger', nodes);
      tokens[flow] = (await publish(weir, flow, { type: 'webhook_trigger', config }, c.nodes, c.edges)).token;
    };
    await add('queued', {}, []);
    await add('echo', { respondImmediately: false }, [{ type: 'respond', config: { status: 200, body: '{{ $input }}' } }]);
    await add('result', { respondImmediately: false }, [{ type: 'set', config: { values: { doubled: '{{ body.n * 2 }}' } } }]);
    await add('teapot', { respondImmediately: false }, [{ type: 'respond', config: { status: 418, body: { short: 'and stout' }, headers: { 'X-Brew': 'earl grey', 'Content-Type': 'application/vnd.tea+json' } } }]);
    await add('slow', { respondImmediately: false }, [{ type: 'delay', config: { ms: 300 } }, { type: 'respond', config: { status: 200, body: { late: true } } }]);
    mounted = await mountAdapter(weir);
  });

  // The last test closes the adapter.
  test.after(async () => {
    await mounted?.dispose();
    await weir?.close();
  });

  test('/healthz answers, and a webhook of a queued flow answers 200 {executionId, statusUrl} at once', async () => {
    assert.equal((await send(`${mounted.base}/healthz`, { method: 'GET' })).json, { ok: true });
    const r = await send(hook('queued'), { body: '{"n": 1}', headers: { 'content-type': 'application/json' } });
    assert.is(r.status, 200);
    assert.equal(Object.keys(r.json), ['executionId', 'statusUrl']);
    assert.match(r.json.executionId, /^exec_/);
    assert.ok(r.json.statusUrl.startsWith(`${mounted.base}/executions/${r.json.executionId}.`), `${r.json.statusUrl} is under ${mounted.base}`);
    const polled = await until(async () => {
      const s = await send(r.json.statusUrl, { method: 'GET' });
      return s.json?.status === 'success' && s;
    });
    const record = await weir.executions.get(r.json.executionId);
    assert.equal(polled.json, { executionId: r.json.executionId, status: 'success', result: record.result });
    assert.equal((record.result as any).body, { n: 1 });
  });

  test('a Respond node answers with its status, headers and body', async () => {
    const r = await send(hook('teapot'));
    assert.is(r.status, 418);
    assert.equal(r.json, { short: 'and stout' });
    assert.is(r.headers.get('x-brew'), 'earl grey');
    assert.is(r.headers.get('content-type'), 'application/vnd.tea+json');
    assert.match(r.headers.get('x-execution-id') ?? '', /^exec_/);
  });

  test('no Respond node reached: 200 with the flow result', async () => {
    const r = await send(hook('result'), { body: '{"n": 21}', headers: { 'content-type': 'application/json' } });
    assert.is(r.status, 200);
    assert.equal(r.json, { doubled: 42 });
  });

  test('every method reaches the flow as `method`; HEAD answers without a body', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const r = await send(hook('echo'), { method });
      assert.is(r.status, 200, method);
      assert.is(r.json.method, method);
    }
    const head = await fetch(hook('echo'), { method: 'HEAD' });
    assert.is(head.status, 200);
    assert.is(await head.text(), '');
  });

  test('query strings parse into objects, repeated names into lists, without a prototype', async () => {
    const r = await send(hook('echo', '?a=1&a=2&b=x%20y&constructor=z'), { body: '{"n": 3}', headers: { 'content-type': 'application/json' } });
    assert.equal(r.json.query, { a: ['1', '2'], b: 'x y', constructor: 'z' });
    assert.equal(r.json.body, { n: 3 });
    const form = await send(hook('echo'), { body: 'a=1&b=two+words&b=3', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(form.json.body, { a: '1', b: ['two words', '3'] });
  });

  test('invalid JSON: 400 INVALID_INPUT, and the flow does not run', async () => {
    let started = 0;
    const count = () => started++;
    weir.bus.on('execution:start', count);
    const r = await send(hook('echo'), { body: '{"a": 1,', headers: { 'content-type': 'application/json' } });
    weir.bus.off('execution:start', count);
    assert.is(r.status, 400);
    assert.is(r.json.error.code, 'INVALID_INPUT');
    assert.match(r.json.error.message, 'not valid JSON');
    assert.is(started, 0);
  });

  test('bodies past the limit: 413 PAYLOAD_TOO_LARGE, with a length and chunked', async () => {
    const big = await send(hook('echo'), { body: JSON.stringify({ pad: 'x'.repeat(MAX_BODY) }), headers: { 'content-type': 'application/json' } });
    assert.is(big.status, 413);
    assert.is(big.json.error.code, 'PAYLOAD_TOO_LARGE');
    assert.is(await chunked(hook('echo'), ['y'.repeat(600), 'y'.repeat(600)]), 413);
    assert.is(await chunked(hook('echo'), ['y'.repeat(600)]), 200, 'under the limit');
  });

  test('an unknown token is the 404 JSON answer; a path weir does not own is the app\'s when it passes on', async () => {
    const token = await send(`${mounted.base}/trigger/${'x'.repeat(32)}`, { body: '{}' });
    assert.is(token.status, 404);
    assert.equal(token.json, { error: { code: 'NOT_FOUND', message: 'not found' } });
    const other = await send(`${mounted.base}/nothing-here`, { method: 'GET' });
    assert.is(other.status, 404);
    assert.equal(other.json, mounted.passesOn ? APP_404 : { error: { code: 'NOT_FOUND', message: 'not found' } });
  });

  // Last: close() stops the host.
  test('close() lets a request in flight finish, then refuses new ones with 503', async () => {
    const inFlight = new Promise<void>((resolve) => weir.bus.on('node:start', (e) => e.type === 'delay' && resolve()));
    const answer = send(hook('slow'));
    await inFlight;
    const closing = mounted.close();
    const r = await answer;
    assert.is(r.status, 200);
    assert.equal(r.json, { late: true });
    await closing;
    const after = await send(hook('echo'));
    assert.is(after.status, 503);
    assert.is(after.json.error.code, 'UNAVAILABLE');
  });

  test.run();
}
