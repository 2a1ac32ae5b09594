import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { CLI, cli, tmpDir } from '../_utils.js';
import { publishGreeter, startServe } from '../resources/interfaces/_helpers.js';

// The preview runs a real headless Chromium; without one this suite fails (CI installs it: .ci/install-chromium.sh).
const CHROMIUM = process.env.WEIR_CHROMIUM || '/usr/bin/chromium';

const home = tmpDir();
const work = tmpDir();
let pid = 0;
let browserPid = 0;

const alive = (p: number) => {
  try {
    process.kill(p, 0);
    return true;
  } catch {
    return false;
  }
};

/** Reads the page's answer once the flow has answered (the promise resolves in the page). */
const ANSWER = `new Promise((resolve) => { const read = () => { const t = document.querySelector('#output').textContent; t ? resolve(JSON.parse(t).reply) : setTimeout(read, 20); }; read(); })`;

// Whatever failed, no preview outlives the suite.
test.after(async () => {
  await cli(['preview', 'greeter', '--stop'], { home });
});

test('Chromium is installed', () => {
  assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: run .ci/install-chromium.sh (or set WEIR_CHROMIUM)`);
});

test('webview commands without a preview exit 1 saying none runs', async () => {
  const r = await cli(['url', 'greeter'], { home });
  assert.is(r.code, 1);
  assert.match(r.stderr, 'no preview runs for interface "greeter"');
  assert.equal((await cli(['servers', '--json'], { home })).json(), []);
});

test('preview drives the page in headless Chromium: type, click, eval the flow answer, screenshot, console logs', async () => {
  await publishGreeter(home, work, 'greet');
  assert.is((await cli(['i', 'init', '--name', 'greeter', '--flow', 'greet'], { home, cwd: work })).code, 0);
  assert.is((await cli(['i', 'deploy'], { home, cwd: join(work, 'greeter') })).code, 0);

  const started = await cli(['preview', 'greeter', '--json'], { home, cwd: work });
  assert.is(started.code, 0, started.stderr);
  const info = started.json();
  pid = info.pid;
  assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  assert.ok(alive(info.pid));
  const text = await cli(['preview', 'greeter'], { home, cwd: work });
  assert.match(text.stdout, `already running: preview of greeter at ${info.url}`);

  const servers = (await cli(['servers', '--json'], { home })).json();
  assert.equal(servers.map((s: any) => [s.interface, s.port, s.url, s.pid, s.logFile]), [['greeter', info.port, info.url, info.pid, info.logFile]]);
  assert.is(servers[0].secret, undefined, 'the control secret is not printed');
  browserPid = servers[0].browserPid;
  assert.ok(alive(browserPid), 'the preview keeps a browser running');

  assert.is((await cli(['type', 'greeter', '#input', 'Ada', 'Lovelace'], { home })).code, 0);
  const clicked = await cli(['click', 'greeter', '#send'], { home });
  assert.is(clicked.code, 0, clicked.stderr);
  const answer = await cli(['eval', 'greeter', ANSWER], { home });
  assert.is(answer.code, 0, answer.stderr);
  assert.is(JSON.parse(answer.stdout), 'Hello, Ada Lovelace!');
  assert.is((await cli(['eval', 'greeter', '1 + 1', '--json'], { home })).json(), 2);
  assert.is((await cli(['url', 'greeter'], { home })).stdout.trim(), info.url);

  const shot = join(work, 'shot.png');
  const saved = await cli(['screenshot', 'greeter', shot], { home });
  assert.is(saved.code, 0, saved.stderr);
  const png = readFileSync(shot);
  assert.equal([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.is(png.toString('latin1', 12, 16), 'IHDR');
  assert.equal([png.readUInt32BE(16), png.readUInt32BE(20)], [1280, 800]);
  const named = await cli(['screenshot', 'greeter'], { home, cwd: work });
  const file = /saved (\S+\.png)/.exec(named.stdout)?.[1];
  assert.ok(file && existsSync(file), named.stdout);

  const consoleLogs = await cli(['logs', 'greeter', '-c'], { home });
  assert.is(consoleLogs.code, 0);
  assert.match(consoleLogs.stdout, '[greeter] ready, calling flow "greet"');
  assert.match(consoleLogs.stdout, '[greeter] greet answered: {"reply":"Hello, Ada Lovelace!"}');
  const terminal = await cli(['logs', '-n', '200'], { home, cwd: join(work, 'greeter') });
  assert.match(terminal.stdout, `preview of greeter at ${info.url}`);
  assert.match(terminal.stdout, 'POST /api/flows/greet 200');
  assert.is((await cli(['logs', 'greeter', '-n', '1', '--json'], { home })).json().length, 1);
});

test('a selector that matches nothing exits 1 within the timeout; wait and nav work', async () => {
  const missing = await cli(['click', 'greeter', '#nothing', '--timeout', '300'], { home });
  assert.is(missing.code, 1);
  assert.match(missing.stderr, 'no element matches "#nothing" (waited 300 ms)');
  const typed = await cli(['type', 'greeter', '#nothing', 'x', '--timeout', '300', '--json'], { home });
  assert.is(typed.code, 1);
  assert.is(JSON.parse(typed.stderr).error.code, 'NOT_FOUND');
  assert.is((await cli(['wait', 'greeter', '50'], { home })).code, 0);
  assert.is((await cli(['wait', 'greeter', 'soon'], { home })).code, 1);
  const failing = await cli(['eval', 'greeter', 'nope.nope'], { home });
  assert.is(failing.code, 1);
  assert.match(failing.stderr, 'eval failed');
  const nav = await cli(['nav', 'greeter', '/index.html?x=1'], { home });
  assert.is(nav.code, 0, nav.stderr);
  assert.match(nav.stdout, /\/index\.html\?x=1$/m);
});

test('the preview rebuilds on change and reloads the page', async () => {
  const page = join(work, 'greeter/index.html');
  writeFileSync(page, readFileSync(page, 'utf8').replace('<h1>greeter</h1>', '<h1>changed</h1>'));
  const deadline = Date.now() + 10_000;
  let heading = '';
  while (Date.now() < deadline && heading !== 'changed') {
    // An eval that lands while the page reloads fails; the next one reads the new page.
    const r = await cli(['eval', 'greeter', "document.querySelector('h1')?.textContent", '--json'], { home });
    if (r.code === 0) heading = r.json() ?? '';
  }
  assert.is(heading, 'changed');
});

test('the deployed page works under weir serve too (driven through the preview browser)', async () => {
  const serve = await startServe(home);
  try {
    const nav = await cli(['nav', 'greeter', `${serve.url}/i/greeter/`], { home });
    assert.is(nav.code, 0, nav.stderr);
    assert.is((await cli(['type', 'greeter', '#input', 'Grace'], { home })).code, 0);
    assert.is((await cli(['click', 'greeter', '#send'], { home })).code, 0);
    assert.is((await cli(['eval', 'greeter', ANSWER, '--json'], { home })).json(), 'Hello, Grace!');
  } finally {
    await serve.stop();
  }
});

test('logs -f streams new lines until Ctrl-C', async () => {
  const follower = spawn(process.execPath, [CLI, '--home', home, 'logs', 'greeter', '-f', '-n', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => follower.once('exit', resolve));
  let out = '';
  const waiters = new Set<() => void>();
  follower.stdout.on('data', (d) => {
    out += d;
    waiters.forEach((w) => w());
  });
  /** Resolves once the follower printed `text`; fails (instead of hanging the suite) after 15 s. */
  const printed = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`logs -f did not print ${JSON.stringify(text)}; got:\n${out}`)), 15_000);
      const check = () => out.includes(text) && (waiters.delete(check), clearTimeout(timer), resolve());
      waiters.add(check);
      check();
    });
  try {
    // The last line comes first; anything logged after it was printed arrives by following.
    await printed('\n');
    const marker = `follow-${Date.now()}`;
    assert.is((await cli(['nav', 'greeter', `/?${marker}`], { home })).code, 0);
    await printed(`GET /?${marker} 200`);
  } finally {
    follower.kill('SIGINT');
  }
  assert.is(await exited, 0);
});

test('preview --stop ends the dev server and its browser', async () => {
  const stopped = await cli(['preview', 'greeter', '--stop'], { home });
  assert.is(stopped.code, 0, stopped.stderr);
  assert.is(alive(pid), false);
  assert.is(alive(browserPid), false);
  assert.equal((await cli(['servers', '--json'], { home })).json(), []);
  assert.is((await cli(['screenshot', 'greeter'], { home })).code, 1);
  assert.is((await cli(['preview', 'greeter', '--stop'], { home })).code, 1);
});

test.run();
