// The interface routes over a real `weir serve` (the built CLI): the preview the API starts is the one the
// CLI's webview commands drive, in a real headless Chromium.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cli, startServe, tmpDir } from '../_utils.js';
import { publishGreeter } from '../resources/interfaces/_helpers.js';
import { responseValidators } from './_api.js';

const CHROMIUM = process.env.WEIR_CHROMIUM || '/usr/bin/chromium';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const home = tmpDir();
const work = tmpDir();
let serve: Awaited<ReturnType<typeof startServe>>;
let token = '';
let validator: ReturnType<typeof responseValidators>;
let previewUrl = '';

/** One API request with the host token (or `auth`); the body as JSON, or as bytes for an image. */
async function api(method: string, path: string, options: { body?: unknown; auth?: string | null } = {}) {
  const auth = options.auth === undefined ? token : options.auth;
  const res = await fetch(`${serve.url}/api/v1${path}`, {
    method,
    headers: { ...(auth === null ? {} : { authorization: `Bearer ${auth}` }), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(bytes.toString('utf8')) : undefined;
  return { status: res.status, headers: res.headers, json, bytes };
}

/** A success answer, checked against its schema in the served OpenAPI document. */
async function ok(method: string, template: string, path: string, body?: unknown): Promise<any> {
  const r = await api(method, path, { body });
  assert.is(r.status, 200, `${method} ${path}: ${r.bytes.toString('utf8')}`);
  const validate = validator(method, `/api/v1${template}`, 200);
  assert.ok(validate(r.json), `${method} ${path} fits its schema: ${JSON.stringify(validate.errors)}`);
  return r.json;
}

/** A screenshot: its PNG and the page version it shows. */
async function screenshot(query = '') {
  const r = await api('GET', `/interfaces/greeter/preview/screenshot${query}`);
  assert.is(r.status, 200, r.bytes.toString('utf8'));
  assert.is(r.headers.get('content-type'), 'image/png');
  assert.equal([...r.bytes.subarray(0, 8)], PNG_SIGNATURE);
  return { png: r.bytes, version: Number(r.headers.get('x-webview-version')) };
}

test.before(async () => {
  assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: run .ci/install-chromium.sh (or set WEIR_CHROMIUM)`);
  await publishGreeter(home, work, 'greet');
  for (const name of ['greeter', 'gone']) assert.is((await cli(['i', 'init', '--name', name, '--flow', 'greet'], { home, cwd: work })).code, 0);
  assert.is((await cli(['i', 'deploy'], { home, cwd: join(work, 'greeter') })).code, 0);
  rmSync(join(work, 'gone'), { recursive: true });
  token = (await cli(['interface', 'token'], { home })).stdout.trim();
  serve = await startServe(home);
  validator = responseValidators((await api('GET', '/openapi.json')).json);
});

// Whatever failed, neither the preview nor the host outlives the suite.
test.after(async () => {
  await cli(['preview', 'greeter', '--stop'], { home });
  await serve?.stop();
});

test('the routes need the token; without a preview: list shows previewUrl null, screenshot is 409, logs are empty; unknown interfaces are 404', async () => {
  for (const [method, path] of [['GET', '/interfaces'], ['POST', '/interfaces/greeter/preview'], ['GET', '/interfaces/greeter/preview/screenshot'], ['GET', '/interfaces/greeter/logs']]) {
    const r = await api(method, path, { auth: null, body: method === 'POST' ? {} : undefined });
    assert.is(r.status, 401, `${method} ${path} without a token`);
  }
  const list = await ok('GET', '/interfaces', '/interfaces');
  assert.equal(list.map((i: any) => [i.name, i.deployed?.version ?? null, i.previewUrl]), [['gone', null, null], ['greeter', 1, null]]);
  assert.equal(Object.keys(list[1]).sort(), [...Object.keys((await cli(['i', 'list', '--json'], { home })).json()[1]), 'previewUrl'].sort(), 'what `interface list --json` shows, and previewUrl');

  const none = await api('GET', '/interfaces/greeter/preview/screenshot');
  assert.is(none.status, 409);
  assert.is(none.json.error.code, 'CONFLICT');
  assert.is(none.json.error.message, 'no preview runs for interface "greeter"');
  assert.match(none.json.error.hints[0], 'POST /api/v1/interfaces/greeter/preview');
  assert.equal(await ok('GET', '/interfaces/{id}/logs', '/interfaces/greeter/logs'), { lines: [], running: false });

  for (const [method, path] of [['POST', '/interfaces/nope/preview'], ['GET', '/interfaces/nope/preview/screenshot'], ['GET', '/interfaces/nope/logs']]) {
    const r = await api(method, path, { body: method === 'POST' ? {} : undefined });
    assert.equal([r.status, r.json.error.code, r.json.error.message], [404, 'NOT_FOUND', 'interface "nope" not found'], `${method} ${path}`);
  }
  const gone = await api('POST', '/interfaces/gone/preview', { body: {} });
  assert.is(gone.status, 404);
  assert.is(gone.json.error.message, 'the source folder of interface "gone" was not found');
  const bad = await api('GET', '/interfaces/greeter/logs?lines=-1&colour=red');
  assert.is(bad.status, 400);
  assert.equal(bad.json.error.details.map((p: any) => p.path).sort(), ['query.colour', 'query.lines']);
});

test('POST preview starts the preview `weir preview` starts (once: a second call answers the running one)', async () => {
  const [first, second] = await Promise.all([ok('POST', '/interfaces/{id}/preview', '/interfaces/greeter/preview', {}), ok('POST', '/interfaces/{id}/preview', '/interfaces/greeter/preview', {})]);
  assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  assert.equal(second, first, 'two calls at once share one start');
  assert.is(first.started, true);
  previewUrl = first.url;
  const again = await ok('POST', '/interfaces/{id}/preview', `/interfaces/${first.id}/preview`, {});
  assert.equal(again, { id: first.id, name: 'greeter', url: previewUrl, started: false });
  const servers = (await cli(['servers', '--json'], { home })).json();
  assert.equal(servers.map((s: any) => [s.interface, s.url]), [['greeter', previewUrl]], 'the CLI sees the preview');
  assert.is((await ok('GET', '/interfaces', '/interfaces'))[1].previewUrl, previewUrl);
  const page = await fetch(previewUrl);
  assert.match(await page.text(), '<h1>greeter</h1>');
});

test('the screenshot shows what `weir type` and `weir click` did; `after` answers once the page changed, `wait` bounds it', async () => {
  const before = await screenshot();
  assert.equal([before.png.readUInt32BE(16), before.png.readUInt32BE(20)], [1280, 800]);
  // Asked before the CLI acts: the answer waits for the change.
  const waiting = screenshot(`?after=${before.version}&wait=20000`);
  assert.is((await cli(['type', 'greeter', '#input', 'Ada'], { home })).code, 0);
  const typed = await waiting;
  assert.ok(typed.version > before.version, `version ${typed.version} after ${before.version}`);
  assert.is((await cli(['click', 'greeter', '#send'], { home })).code, 0);
  // The flow's answer shows up in the page after the click: follow the versions until it is there.
  const answered = await cli(['eval', 'greeter', `new Promise((r) => { const t = () => document.querySelector('#output').textContent ? r(true) : setTimeout(t, 20); t(); })`], { home });
  assert.is(answered.code, 0, answered.stderr);
  const after = await screenshot(`?after=${typed.version}`);
  assert.ok(after.version > typed.version);
  assert.not.ok(after.png.equals(before.png), 'the page looks different');
  const full = await screenshot('?fullPage=true');
  assert.ok(full.png.readUInt32BE(20) >= 800);

  // Nothing changes the page now: the answer comes after `wait`, at the same version.
  const quiet = await screenshot();
  const started = Date.now();
  const same = await screenshot(`?after=${quiet.version}&wait=300`);
  assert.is(same.version, quiet.version);
  assert.ok(Date.now() - started >= 290, 'it waited');
  const tooLong = await api('GET', '/interfaces/greeter/preview/screenshot?after=1&wait=60001');
  assert.equal([tooLong.status, tooLong.json.error.details[0].path], [400, 'query.wait']);
});

test('logs answers the dev server log and the page console', async () => {
  const logs = await ok('GET', '/interfaces/{id}/logs', '/interfaces/greeter/logs?lines=500');
  assert.is(logs.running, true);
  assert.ok(logs.lines.some((l: string) => l.includes(`preview of greeter at ${previewUrl}`)), logs.lines.join('\n'));
  assert.ok(logs.lines.some((l: string) => l.includes('POST /api/flows/greet 200')));
  assert.is((await ok('GET', '/interfaces/{id}/logs', '/interfaces/greeter/logs?lines=1')).lines.length, 1);
  const consoleLines = (await ok('GET', '/interfaces/{id}/logs', '/interfaces/greeter/logs?console=true')).lines;
  assert.ok(consoleLines.some((l: string) => l.includes('[greeter] greet answered: {"reply":"Hello, Ada!"}')), consoleLines.join('\n'));
});

test('once `weir preview --stop` ended it, the list shows no preview and the screenshot is 409 again', async () => {
  assert.is((await cli(['preview', 'greeter', '--stop'], { home })).code, 0);
  assert.is((await ok('GET', '/interfaces', '/interfaces'))[1].previewUrl, null);
  assert.is((await api('GET', '/interfaces/greeter/preview/screenshot')).status, 409);
  const logs = await ok('GET', '/interfaces/{id}/logs', '/interfaces/greeter/logs');
  assert.is(logs.running, false);
  assert.ok(logs.lines.some((l: string) => l.endsWith(' stopping')), 'the log of the stopped preview stays');
});

test.run();
