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
  const aliases = ['workflows', 'workflow', 'flow', 'f'];
  // Independent processes, run at once (each is a Node start-up); the checks stay per alias.
  const runs = await Promise.all(aliases.map((alias) => cli([alias], { home: tmpDir() })));
  for (const [i, alias] of aliases.entries()) {
    const r = runs[i];
    assert.is(r.code, 0, alias);
    assert.match(r.stdout, 'Usage: weir workflows <command>');
    assert.match(r.stdout, 'publish <workflow-id>');
  }
});

test('bare weir and --help print the top-level usage', async () => {
  for (const r of await Promise.all([[], ['--help'], ['f', '--help']].map((args) => cli(args, { home: tmpDir() })))) {
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
  const runs = await Promise.all(cases.map(([args]) => cli(args, { home })));
  for (const [i, [args, name]] of cases.entries()) {
    const r = runs[i];
    assert.is(r.code, 2, args.join(' '));
    assert.match(r.stderr, /^error: /);
    assert.match(r.stderr, name);
    assert.is(r.stdout, '');
  }
});

test('missing and extra arguments are usage errors (exit 2)', async () => {
  const home = tmpDir();
  const [missing, extra] = await Promise.all([cli(['f', 'get'], { home }), cli(['f', 'list', 'surplus'], { home })]);
  assert.is(missing.code, 2);
  assert.match(missing.stderr, 'missing argument: <workflow-id>');
  assert.is(extra.code, 2);
  assert.match(extra.stderr, 'unexpected argument "surplus"');
});

test('--json failures: empty stdout, JSON error document on stderr, stable code', async () => {
  const home = tmpDir();
  const [usage, missing] = await Promise.all([cli(['f', 'get', '--json'], { home }), cli(['f', 'get', 'wf_nothere', '--json'], { home })]);
  assert.is(usage.code, 2);
  assert.is(usage.stdout, '');
  assert.equal(JSON.parse(usage.stderr).error.code, 'USAGE');
  assert.is(missing.code, 1);
  assert.is(missing.stdout, '');
  assert.equal(JSON.parse(missing.stderr), { error: { code: 'NOT_FOUND', message: 'workflow "wf_nothere" not found' } });
});

test('errors are one line without a stack trace unless WEIR_DEBUG=1', async () => {
  const home = tmpDir();
  const [plain, debug] = await Promise.all([cli(['f', 'get', 'wf_x'], { home }), cli(['f', 'get', 'wf_x'], { home, env: { WEIR_DEBUG: '1' } })]);
  assert.match(plain.stderr, /^error: workflow "wf_x" not found\n/);
  assert.not.match(plain.stderr, '    at ');
  assert.match(debug.stderr, '    at ');
});

test('home: --home beats WEIR_HOME beats ./.weir, and global flags go anywhere', async () => {
  const cwd = tmpDir();
  const envHome = tmpDir();
  const flagHome = tmpDir();
  // Three different homes: the creates do not share one, so they run at once.
  await Promise.all([
    cli(['f', 'create', 'in-cwd'], { cwd }),
    cli(['f', 'create', 'in-env'], { cwd, env: { WEIR_HOME: envHome } }),
    cli(['f', 'create', 'in-flag', '--home', flagHome], { cwd, env: { WEIR_HOME: envHome } }),
  ]);
  const names = async (args: string[], env: Record<string, string> = {}) =>
    (await cli([...args, '--json'], { cwd, env })).json().map((w: any) => w.name);
  const [inCwd, inEnv, inFlag] = await Promise.all([names(['f', 'list']), names(['f', 'list'], { WEIR_HOME: envHome }), names(['--home', flagHome, 'f', 'list'], { WEIR_HOME: envHome })]);
  assert.equal(inCwd, ['in-cwd']);
  assert.equal(inEnv, ['in-env']);
  assert.equal(inFlag, ['in-flag']);
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
  const cases = [[0, ['f', 'list']], [0, ['f', 'list', '--json']], [10, ['storage', 'get', 'big.bin']]] as const;
  const runs = await Promise.all(cases.map(([keep, args]) => readUntil(keep, ['--home', home, ...args])));
  for (const [i, [, args]] of cases.entries()) {
    const r = runs[i];
    assert.is(r.stderr, '', args.join(' '));
    assert.is(r.code, 0, args.join(' '));
    assert.ok(r.got < 4 << 20, 'the reader stopped before the end');
  }
});

test.run();
