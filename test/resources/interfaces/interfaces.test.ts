import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tmpDir } from '../../_utils.js';
import { publishGreeter, startServe } from './_helpers.js';

test('interface init creates a working folder and records it; list shows it (through every alias)', async () => {
  const home = tmpDir();
  const work = tmpDir();
  const r = await cli(['interface', 'init', '--name', 'shop', '--description', 'The shop', '--json'], { home, cwd: work });
  assert.is(r.code, 0, r.stderr);
  const made = r.json();
  assert.match(made.id, /^if_/);
  for (const f of ['index.html', 'main.js', 'weir.interface.json']) assert.ok(existsSync(join(work, 'shop', f)), f);
  assert.equal(JSON.parse(readFileSync(join(work, 'shop/weir.interface.json'), 'utf8')), { id: made.id, name: 'shop', type: 'external', description: 'The shop' });
  const html = readFileSync(join(work, 'shop/index.html'), 'utf8');
  for (const part of ['id="input"', 'id="send"', 'id="output"', 'src="/weir-client.js"']) assert.ok(html.includes(part), part);
  assert.ok(readFileSync(join(work, 'shop/main.js'), 'utf8').includes('callFlow(FLOW'));

  for (const args of [['interface', 'list', '--json'], ['i', 'ls', '--json']]) {
    const list = await cli(args, { home });
    assert.is(list.code, 0);
    assert.equal(list.json().map((x: any) => [x.id, x.name, x.type]), [[made.id, 'shop', 'external']]);
  }
  assert.match((await cli(['i', 'ls'], { home })).stdout, /shop\s+external/);

  assert.is((await cli(['i', 'rm', 'shop'], { home })).code, 0);
  assert.equal((await cli(['i', 'ls', '--json'], { home })).json(), []);
  assert.ok(existsSync(join(work, 'shop/index.html')), 'the source folder stays');
  assert.is((await cli(['i', 'rm', 'shop'], { home })).code, 1);
});

test('interface init: missing --name is a usage error, a bad type or a taken name exit 1', async () => {
  const home = tmpDir();
  const work = tmpDir();
  assert.is((await cli(['i', 'init'], { home, cwd: work })).code, 2);
  const bad = await cli(['i', 'init', '--name', 'x', '--type', 'secret'], { home, cwd: work });
  assert.is(bad.code, 1);
  assert.match(bad.stderr, 'external');
  assert.is((await cli(['i', 'init', '--name', 'x'], { home, cwd: work })).code, 0);
  const taken = await cli(['i', 'init', '--name', 'x'], { home, cwd: tmpDir() });
  assert.is(taken.code, 1);
  assert.match(taken.stderr, 'already exists');
  const badName = await cli(['i', 'init', '--name', '../up'], { home, cwd: work });
  assert.is(badName.code, 1);
  assert.is((await cli(['i', 'ls', '--json'], { home })).json().length, 1, 'failed inits record nothing');
});

test('interface deploy bundles the folder (or --name) and logs show the deploys', async () => {
  const home = tmpDir();
  const work = tmpDir();
  await cli(['i', 'init', '--name', 'app'], { home, cwd: work });
  // A helper module proves bundling: main.js imports it, the deployed main.js holds its code.
  writeFileSync(join(work, 'app/helper.js'), 'export const shout = (s) => s.toUpperCase() + "!!";\n');
  writeFileSync(join(work, 'app/main.js'), `import { shout } from './helper.js';\nconsole.log(shout('bundled'));\n`);
  // A TypeScript entry is compiled, and the page that loads it is rewritten to load the .js.
  writeFileSync(join(work, 'app/extra.html'), '<!doctype html><script type="module" src="./extra.ts"></script>');
  writeFileSync(join(work, 'app/extra.ts'), 'const n: number = 41;\nconsole.log(n + 1);\n');
  const outside = await cli(['i', 'deploy'], { home, cwd: work });
  assert.is(outside.code, 1);
  assert.match(outside.stderr, 'not in an interface folder');
  const first = await cli(['i', 'deploy', '--json'], { home, cwd: join(work, 'app') });
  assert.is(first.code, 0, first.stderr);
  assert.is(first.json().version, 1);
  assert.equal(first.json().files.sort(), ['extra.html', 'extra.js', 'index.html', 'main.js'], 'helper.js is bundled into main.js');
  const second = await cli(['i', 'deploy', '--name', 'app', '--json'], { home, cwd: work });
  assert.is(second.json().version, 2);
  const logs = await cli(['i', 'logs'], { home, cwd: join(work, 'app') });
  assert.is(logs.code, 0);
  assert.match(logs.stdout, 'deployed version 1');
  assert.match(logs.stdout, 'deployed version 2');

  writeFileSync(join(work, 'app/main.js'), 'import { nope } from "./missing.js";\n');
  const broken = await cli(['i', 'deploy', '--name', 'app'], { home, cwd: work });
  assert.is(broken.code, 1);
  assert.match(broken.stderr, 'build failed');
});

test('weir serve answers /i/<name>/ with the deployed page; internal interfaces need the access token', async () => {
  const home = tmpDir();
  const work = tmpDir();
  await publishGreeter(home, work, 'greet');
  await cli(['i', 'init', '--name', 'pub', '--flow', 'greet'], { home, cwd: work });
  await cli(['i', 'init', '--name', 'staff', '--type', 'internal'], { home, cwd: work });
  for (const name of ['pub', 'staff']) assert.is((await cli(['i', 'deploy', '--name', name], { home, cwd: work })).code, 0);
  const token = (await cli(['i', 'token'], { home })).stdout.trim();
  assert.ok(token.length >= 32);

  const serve = await startServe(home);
  try {
    const page = await fetch(`${serve.url}/i/pub/`);
    assert.is(page.status, 200);
    assert.match(page.headers.get('content-type')!, 'text/html');
    assert.match(await page.text(), '<title>pub</title>');
    const js = await fetch(`${serve.url}/i/pub/main.js`);
    assert.match(js.headers.get('content-type')!, 'text/javascript');
    assert.match(await js.text(), 'callFlow');
    const bare = await fetch(`${serve.url}/i/pub`, { redirect: 'manual' });
    assert.is(bare.status, 301);
    assert.is(bare.headers.get('location'), '/i/pub/');
    assert.is((await fetch(`${serve.url}/i/pub/nope.css`)).status, 404);
    assert.is((await fetch(`${serve.url}/i/ghost/`)).status, 404);
    // The page's client reaches the published flow on the same host.
    const client = await fetch(`${serve.url}/weir-client.js`);
    assert.is(client.status, 200);
    const called = await fetch(`${serve.url}/api/flows/greet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message":"Ada"}' });
    assert.equal(await called.json(), { result: { reply: 'Hello, Ada!' } });

    assert.is((await fetch(`${serve.url}/i/staff/`)).status, 401);
    assert.is((await fetch(`${serve.url}/i/staff/`, { headers: { authorization: 'Bearer wrong' } })).status, 401);
    assert.is((await fetch(`${serve.url}/i/staff/`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
    const viaQuery = await fetch(`${serve.url}/i/staff/?token=${token}`);
    assert.is(viaQuery.status, 200);
    const cookie = viaQuery.headers.get('set-cookie')!.split(';')[0];
    assert.is((await fetch(`${serve.url}/i/staff/main.js`, { headers: { cookie } })).status, 200, 'assets load with the cookie');
  } finally {
    await serve.stop();
  }
  const logs = await cli(['i', 'logs', '--name', 'staff', '--json'], { home });
  const lines = logs.json().map((e: { message: string }) => e.message);
  assert.ok(lines.includes('GET /i/staff/ 401'), lines.join('\n'));
  assert.ok(lines.includes('GET /i/staff/ 200'));
});

test.run();
