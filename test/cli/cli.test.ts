import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, cli, tmpDir } from '../_utils.js';

const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

test('--version prints the package version', async () => {
  const r = await cli(['--version']);
  assert.is(r.code, 0);
  assert.is(r.stdout.trim(), version);
});

test('a bare group prints its usage and exits 0, through every alias', async () => {
  for (const alias of ['workflows', 'workflow', 'flow', 'f']) {
    const r = await cli([alias], { home: tmpDir() });
    assert.is(r.code, 0, alias);
    assert.match(r.stdout, 'Usage: weir workflows <command>');
    assert.match(r.stdout, 'publish <workflow-id>');
  }
});

test('bare weir and --help print the top-level usage', async () => {
  for (const args of [[], ['--help'], ['f', '--help']]) {
    const r = await cli(args, { home: tmpDir() });
    assert.is(r.code, 0);
    assert.match(r.stdout, 'Usage: weir');
  }
});

test('a command --help prints its own usage with flags', async () => {
  const r = await cli(['f', 'create', '--help'], { home: tmpDir() });
  assert.is(r.code, 0);
  assert.match(r.stdout, 'Usage: weir workflows create <name> [description]');
  assert.match(r.stdout, '--publish');
});

test('unknown group, command and flag: exit 2 naming it on stderr', async () => {
  const home = tmpDir();
  const cases: [string[], string][] = [
    [['nope'], 'nope'],
    [['f', 'nope'], 'workflows nope'],
    [['f', 'list', '--nope'], '--nope'],
  ];
  for (const [args, name] of cases) {
    const r = await cli(args, { home });
    assert.is(r.code, 2, args.join(' '));
    assert.match(r.stderr, /^error: /);
    assert.match(r.stderr, name);
    assert.is(r.stdout, '');
  }
});

test('missing and extra arguments are usage errors (exit 2)', async () => {
  const home = tmpDir();
  const missing = await cli(['f', 'get'], { home });
  assert.is(missing.code, 2);
  assert.match(missing.stderr, 'missing argument: <workflow-id>');
  const extra = await cli(['f', 'list', 'surplus'], { home });
  assert.is(extra.code, 2);
  assert.match(extra.stderr, 'unexpected argument "surplus"');
});

test('--json failures: empty stdout, JSON error document on stderr, stable code', async () => {
  const home = tmpDir();
  const usage = await cli(['f', 'get', '--json'], { home });
  assert.is(usage.code, 2);
  assert.is(usage.stdout, '');
  assert.equal(JSON.parse(usage.stderr).error.code, 'USAGE');
  const missing = await cli(['f', 'get', 'wf_nothere', '--json'], { home });
  assert.is(missing.code, 1);
  assert.is(missing.stdout, '');
  assert.equal(JSON.parse(missing.stderr), { error: { code: 'NOT_FOUND', message: 'workflow "wf_nothere" not found' } });
});

test('errors are one line without a stack trace unless WEIR_DEBUG=1', async () => {
  const home = tmpDir();
  const plain = await cli(['f', 'get', 'wf_x'], { home });
  assert.match(plain.stderr, /^error: workflow "wf_x" not found\n/);
  assert.not.match(plain.stderr, '    at ');
  const debug = await cli(['f', 'get', 'wf_x'], { home, env: { WEIR_DEBUG: '1' } });
  assert.match(debug.stderr, '    at ');
});

test('home: --home beats WEIR_HOME beats ./.weir, and global flags go anywhere', async () => {
  const cwd = tmpDir();
  const envHome = tmpDir();
  const flagHome = tmpDir();
  await cli(['f', 'create', 'in-cwd'], { cwd });
  await cli(['f', 'create', 'in-env'], { cwd, env: { WEIR_HOME: envHome } });
  await cli(['f', 'create', 'in-flag', '--home', flagHome], { cwd, env: { WEIR_HOME: envHome } });
  const names = async (args: string[], env: Record<string, string> = {}) =>
    (await cli([...args, '--json'], { cwd, env })).json().map((w: any) => w.name);
  assert.equal(await names(['f', 'list']), ['in-cwd']);
  assert.equal(await names(['f', 'list'], { WEIR_HOME: envHome }), ['in-env']);
  assert.equal(await names(['--home', flagHome, 'f', 'list'], { WEIR_HOME: envHome }), ['in-flag']);
});

/** Runs weir with a reader that stops after `keep` bytes of stdout (`| head -c keep`; 0 is `| true`). */
function readUntil(keep: number, args: string[]): Promise<{ code: number | null; got: number; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, WEIR_HOME: '', WEIR_DEBUG: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let got = 0;
  let stderr = '';
  if (keep === 0) child.stdout.destroy();
  else child.stdout.on('data', (d: Buffer) => (got += d.length) >= keep && child.stdout.destroy());
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, got, stderr })));
}

test('a reader that closes stdout early ends the command quietly: exit 0, nothing on stderr', async () => {
  const home = tmpDir();
  for (const name of ['a', 'b']) assert.is((await cli(['f', 'create', name], { home })).code, 0);
  const big = join(home, 'big.bin');
  writeFileSync(big, randomBytes(4 << 20));
  assert.is((await cli(['storage', 'put', 'big.bin', big], { home })).code, 0);
  for (const [keep, args] of [[0, ['f', 'list']], [0, ['f', 'list', '--json']], [10, ['storage', 'get', 'big.bin']]] as const) {
    const r = await readUntil(keep, ['--home', home, ...args]);
    assert.is(r.stderr, '', args.join(' '));
    assert.is(r.code, 0, args.join(' '));
    assert.ok(r.got < 4 << 20, 'the reader stopped before the end');
  }
});

test.run();
