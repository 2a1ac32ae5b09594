// Which home a command uses when none is given: the nearest `.weir` up from the working directory, as git
// finds `.git`; `--home` and WEIR_HOME still win. A command that makes a new home says so once on stderr.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { once } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, startServe, tmpDir } from '../_utils.js';

const created = (home: string) => `weir: created a new home at ${home}\n`;

test('interface init, then `cd chat && weir interface deploy` deploys into the home above; the host serves it', async () => {
  const project = tmpDir('weir-home-');
  const init = await cli(['interface', 'init', '--name', 'chat'], { cwd: project });
  assert.is(init.code, 0, init.stderr);
  assert.match(init.stdout, 'next: cd chat && weir interface deploy');
  assert.is(init.stderr, created(join(project, '.weir')));

  const deploy = await cli(['interface', 'deploy'], { cwd: join(project, 'chat') });
  assert.is(deploy.code, 0, deploy.stderr);
  assert.is(deploy.stderr, '', 'no second home, no notice');
  assert.not.ok(existsSync(join(project, 'chat', '.weir')), 'no home inside the interface folder');

  const host = await startServe(join(project, '.weir'));
  try {
    const page = await fetch(`${host.url}/i/chat/`);
    assert.is(page.status, 200);
    assert.match(await page.text(), '<title>chat</title>');
  } finally {
    await host.stop();
  }
});

test('the nearest .weir up the tree is used; --home and WEIR_HOME still win over it', async () => {
  const project = tmpDir('weir-home-');
  const deep = join(project, 'a', 'b');
  mkdirSync(deep, { recursive: true });
  const other = tmpDir('weir-home-');
  // Two homes, one create each: run at once, as are the three lists after them.
  const [atRoot, inEnv] = await Promise.all([cli(['f', 'create', 'at-root'], { cwd: project }), cli(['f', 'create', 'in-env'], { cwd: deep, env: { WEIR_HOME: other } })]);
  assert.is(atRoot.code, 0);
  assert.is(inEnv.code, 0);
  const names = async (args: string[], env: Record<string, string> = {}) => (await cli([...args, '--json'], { cwd: deep, env })).json().map((w: any) => w.name);
  const [nearest, fromEnv, fromFlag] = await Promise.all([names(['f', 'list']), names(['f', 'list'], { WEIR_HOME: other }), names(['f', 'list', '--home', other])]);
  assert.equal(nearest, ['at-root']);
  assert.equal(fromEnv, ['in-env']);
  assert.equal(fromFlag, ['in-env']);
  assert.not.ok(existsSync(join(deep, '.weir')));
  assert.not.ok(existsSync(join(project, 'a', '.weir')));
});

test('read-only and help commands in a fresh directory make no home and say nothing; the first write says so once', async () => {
  const dir = tmpDir('weir-home-');
  const home = join(dir, '.weir');
  const readOnly = [['f', 'list'], ['data', 'tables', 'list'], ['data', 'tables', 'get', 'user.x'], ['kb', 'list'], ['f', 'create', '--help'], ['f']];
  // Run at once: none of them may make the home, so none can hide another's doing so.
  const runs = await Promise.all(readOnly.map((args) => cli(args, { cwd: dir })));
  for (const [i, args] of readOnly.entries()) {
    assert.not.match(runs[i].stderr, 'created a new home', args.join(' '));
    assert.not.ok(existsSync(home), `${args.join(' ')} made no home`);
  }
  const first = await cli(['f', 'create', 'one', '--json'], { cwd: dir });
  assert.is(first.code, 0);
  assert.is(first.stderr, created(home));
  assert.is(first.json().name, 'one', 'stdout stays the JSON document');
  // A failed command that made nothing says nothing either (another home: run beside the second create).
  const nowhere = join(dir, 'given');
  const [second, failed] = await Promise.all([cli(['f', 'create', 'two'], { cwd: dir }), cli(['f', 'get', 'nope', '--json'], { home: nowhere, cwd: dir })]);
  assert.is(second.stderr, '');

  assert.is(failed.code, 1);
  assert.is(JSON.parse(failed.stderr).error.code, 'NOT_FOUND');
  assert.not.ok(existsSync(nowhere));
});

test('weir serve on a new home says so on stderr while it runs', async () => {
  const home = join(tmpDir('weir-home-'), 'served');
  const host = await startServe(home);
  try {
    assert.ok(existsSync(home));
    const health = await fetch(`${host.url}/healthz`);
    assert.is(health.status, 200);
    // stderr is its own pipe: wait for its line rather than assume it came before stdout's.
    const late = AbortSignal.timeout(10_000);
    while (!host.output().includes(created(home))) await once(host.child.stderr!, 'data', { signal: late });
  } finally {
    await host.stop();
  }
});

test.run();
