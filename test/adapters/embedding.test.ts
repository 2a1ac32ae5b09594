// weir inside other apps: an Express 5 app with body parsers mounted first, prefixes and route groups, and a
// Hono app using weir/fetch, each served on 127.0.0.1 and called over HTTP.
import { existsSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveHono } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFetchHandler } from '../../adapters/fetch/index.js';
import { createListener, ROUTE_GROUPS, type Listener } from '../../adapters/node-http/index.js';
import { createWeir, type Weir } from '../../src/weir.js';
import { ROOT } from '../_utils.js';
import { chain, publish, send, tmpDir } from '../host/_helpers.js';

let weir: Weir;
const tokens: Record<string, string> = {};
const open: Array<() => Promise<void>> = [];

/** Fails instead of waiting forever: a hang is what these tests guard against. */
const within = <T>(ms: number, what: string, p: Promise<T>): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
    p.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/** Serves a request listener (an Express app) on 127.0.0.1; closed after the suite. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A listener closed after the suite (unless a test closed it). */
function listener(options: Parameters<typeof createListener>[1] = {}): Listener {
  const l = createListener(weir, { schedules: false, ...options });
  open.push(() => l.close());
  return l;
}

const post = (url: string, body: string, type = 'application/json') => within(5000, `POST ${url}`, send(url, { body, headers: { 'content-type': type } }));

test.before(async () => {
  weir = await createWeir({ home: tmpDir('weir-embed-') });
  const add = async (name: string, config: Record<string, unknown>, nodes: any[]) => {
    const c = chain('webhook_trigger', nodes);
    tokens[name] = (await publish(weir, name, { type: 'webhook_trigger', config }, c.nodes, c.edges)).token;
  };
  await add('doubled', { respondImmediately: false }, [{ type: 'set', config: { values: { doubled: '{{ body.n * 2 }}' } } }]);
  await add('echo', { respondImmediately: false }, [{ type: 'respond', config: { status: 200, body: '{{ $input }}' } }]);
  await add('queued', {}, []);
});

test.after(async () => {
  for (const close of open.reverse()) await close();
  await weir.close();
});

test('Express 5 with express.json() first: a JSON webhook answers with the result; the app keeps /healthz', async () => {
  const app = express();
  app.use(express.json());
  app.use(listener({ routes: ROUTE_GROUPS.filter((g) => g !== 'healthz') }));
  app.get('/healthz', (_req, res) => void res.json({ app: 'mine' }));
  const { url } = await listen(app);
  const r = await post(`${url}/trigger/${tokens.doubled}`, '{"n": 21}');
  assert.is(r.status, 200);
  assert.equal(r.json, { doubled: 42 });
  const health = await within(5000, 'GET /healthz', send(`${url}/healthz`, { method: 'GET' }));
  assert.equal(health.json, { app: 'mine' });
});

test('Express under a prefix: weir owns /weir/*, every other path is the app\'s', async () => {
  const app = express();
  app.use(express.json(), express.urlencoded({ extended: false }));
  app.use(listener({ prefix: '/weir/' }));
  app.get('/healthz', (_req, res) => void res.json({ app: 'mine' }));
  app.post('/trigger/:token', (_req, res) => void res.status(202).json({ app: 'trigger' }));
  const { url } = await listen(app);
  assert.equal((await send(`${url}/healthz`, { method: 'GET' })).json, { app: 'mine' });
  assert.equal((await send(`${url}/weir/healthz`, { method: 'GET' })).json, { ok: true });
  assert.equal((await post(`${url}/trigger/${tokens.doubled}`, '{"n": 1}')).json, { app: 'trigger' });
  const hook = await post(`${url}/weir/trigger/${tokens.doubled}?x=1`, '{"n": 5}');
  assert.equal(hook.json, { doubled: 10 });
  const form = await post(`${url}/weir/trigger/${tokens.echo}`, 'a=1&b=two+words&b=3', 'application/x-www-form-urlencoded');
  assert.equal(form.json.body, { a: '1', b: ['two words', '3'] });
  // A path under the prefix that no route owns is passed on too: the app's 404, not weir's.
  const other = await send(`${url}/weir/nothing-here`, { method: 'GET' });
  assert.is(other.status, 404);
  assert.match(other.text, 'Cannot GET');
});

test('express.raw() keeps the exact bytes; express.text() and a nested form are rebuilt from req.body', async () => {
  const app = express();
  app.use('/raw', express.raw({ type: '*/*' }), listener());
  app.use('/text', express.text(), listener());
  app.use('/qs', express.urlencoded({ extended: true }), listener());
  const { url } = await listen(app);
  const exact = '  spaced\r\n  bytes \u00e9t\u00e9  ';
  const raw = await post(`${url}/raw/trigger/${tokens.echo}`, exact, 'text/plain; charset=utf-8');
  assert.is(raw.json.body, exact);
  const text = await post(`${url}/text/trigger/${tokens.echo}`, 'plain words', 'text/plain');
  assert.is(text.json.body, 'plain words');
  const nested = await post(`${url}/qs/trigger/${tokens.echo}`, 'a[b]=1&a[c]=2', 'application/x-www-form-urlencoded');
  assert.equal(nested.json.body, { a: { b: '1', c: '2' } });
});

test('a body read by middleware that kept nothing: an immediate 400 naming the body parser', async () => {
  const app = express();
  app.use((req, _res, next) => void req.resume().on('end', () => next()));
  app.use(listener());
  const { url } = await listen(app);
  const r = await post(`${url}/trigger/${tokens.doubled}`, '{"n": 1}');
  assert.is(r.status, 400);
  assert.is(r.json.error.code, 'INVALID_CONFIG');
  assert.match(r.json.error.message, 'body parser');
});

// The fetch handler's answers (Respond flows, queries, the 413 limit, chunked bodies) are the shared adapter
// suite's (test/adapters/_adapter-suite.ts); here it sits inside a Hono app.
test('Hono with weir/fetch over @hono/node-server: the app keeps its routes, weir answers under its prefix', async () => {
  const weirFetch = createFetchHandler(weir, { schedules: false, prefix: '/weir' });
  open.push(() => weirFetch.close());
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ app: 'hono' }));
  app.all('/weir/*', (c) => weirFetch(c.req.raw));
  const url = await new Promise<string>((resolve) => {
    const server = serveHono({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(`http://127.0.0.1:${info.port}`));
    open.push(() => new Promise<void>((r) => server.close(() => r())));
  });
  assert.equal((await send(`${url}/healthz`, { method: 'GET' })).json, { app: 'hono' });
  assert.equal((await send(`${url}/weir/healthz`, { method: 'GET' })).json, { ok: true });
  const queued = await post(`${url}/weir/trigger/${tokens.queued}`, '{"n": 1}');
  assert.is(queued.status, 200);
  assert.match(queued.json.executionId, /^exec_/);
  assert.ok(weirFetch.owns(new Request(`${url}/weir/trigger/abc`, { method: 'POST' })));
  assert.not.ok(weirFetch.owns(new Request(`${url}/healthz`)));
});

test('an unknown route group or a malformed prefix fails when the handler is made', () => {
  assert.throws(() => createListener(weir, { routes: ['webhooks', 'nope' as never] }), /unknown route group "nope"/);
  assert.throws(() => createFetchHandler(weir, { prefix: '/weir?x=1' }), /invalid mount prefix/);
});

test('the package exports weir/fetch, built with its types', async () => {
  const entry = 'weir/fetch'; // resolved by node through package.json "exports", as an app would
  const mod = await import(entry);
  assert.type(mod.createFetchHandler, 'function');
  assert.ok(existsSync(`${ROOT}/dist/fetch.cjs`) && existsSync(`${ROOT}/dist/fetch.d.ts`));
});

// Last: closing a host closes the intake it shares with every other host on this weir.
test('close() does not stall: an Express-consumed request is answered, a body still arriving gets 503', async () => {
  const l = createListener(weir, { schedules: false });
  const app = express();
  app.use(express.json());
  app.use(l);
  let arrived: () => void = () => {};
  const reading = new Promise<void>((r) => (arrived = r));
  const { url, server } = await listen((req, res) => {
    if (req.url?.startsWith('/slow/')) {
      req.url = req.url.slice(5);
      l(req, res);
      arrived();
    } else app(req, res);
  });
  assert.equal((await post(`${url}/trigger/${tokens.doubled}`, '{"n": 2}')).json, { doubled: 4 });
  // A client that announced 100 bytes and sent 10.
  const answer = new Promise<number>((resolve, reject) => {
    const req = request(`${url}/slow/trigger/${tokens.doubled}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '100' } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.write('{"n": 1234');
  });
  await reading;
  await within(5000, 'listener.close()', l.close());
  assert.is(await within(5000, 'the slow request', answer), 503);
  server.closeAllConnections();
});

test.run();
