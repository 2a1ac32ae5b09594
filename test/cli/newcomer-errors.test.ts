import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, cli, cliInProcess, flow, tmpDir, writeJson } from '../_utils.js';

/**
 * A fresh home holding a workflow named `greeter` (a manual trigger only); returns the home and its id.
 * Made in this process: the errors of the commands after it are what is tested, each in a `weir` process.
 */
async function greeterHome(): Promise<{ home: string; id: string }> {
  const home = tmpDir('weir-newcomer-');
  const created = await cliInProcess(['workflows', 'create', 'greeter', '--json'], { home });
  assert.is(created.code, 0, created.stderr);
  return { home, id: created.json().id };
}

/** The first line of stderr: the error itself, without its hints. */
const errorLine = (stderr: string) => stderr.split('\n')[0];

test('an unknown command or group names the closest ones (exit 2)', async () => {
  const { home } = await greeterHome();
  const [command, group] = await Promise.all([cli(['f', 'publsh', 'greeter'], { home }), cli(['wrkflows', 'list'], { home })]);
  assert.is(command.code, 2);
  assert.is(errorLine(command.stderr), 'error: unknown command "workflows publsh"; did you mean "publish"?');
  assert.is(group.code, 2);
  assert.is(errorLine(group.stderr), 'error: unknown command "wrkflows"; did you mean "workflows"?');
});

test('an unknown option names the closest options of that command, or of the group (exit 2)', async () => {
  const { home } = await greeterHome();
  const [typo, half, atGroup] = await Promise.all([cli(['f', 'list', '--jsn'], { home }), cli(['f', 'run', 'greeter', '--file', 'in.json'], { home }), cli(['f', '--jsn'], { home })]);
  assert.is(typo.code, 2);
  assert.is(errorLine(typo.stderr), 'error: unknown option "--jsn"; did you mean "--json"?');
  assert.is(half.code, 2);
  assert.is(errorLine(half.stderr), 'error: unknown option "--file"; did you mean "--input-file"?');
  assert.is(atGroup.code, 2);
  assert.is(errorLine(atGroup.stderr), 'error: unknown option "--jsn"; did you mean "--json"?');
});

test('a flow file that is not JSON fails with one line naming the line and column of the fault', async () => {
  const { home } = await greeterHome();
  writeFileSync(join(home, 'bad.json'), '{\n  "nodes": []\n  "edges": []\n}\n');
  // Nested deeper than a recursive reader's stack: still one line, not a crash.
  writeFileSync(join(home, 'deep.json'), '['.repeat(200_000));
  // Three failing commands that change nothing: run at once.
  const [saved, input, deep] = await Promise.all([
    cli(['f', 'save', 'greeter', 'bad.json'], { home }),
    cli(['f', 'run', 'greeter', '--input', '{"name": }'], { home }),
    cli(['f', 'save', 'greeter', 'deep.json'], { home }),
  ]);
  assert.is(saved.code, 1);
  assert.is(saved.stderr, `error: bad.json is not valid JSON: Expected ',' or '}' after property value at line 3, column 3\n`);

  assert.is(input.code, 1);
  assert.is(input.stderr, `error: --input is not valid JSON: Unexpected token '}' at line 1, column 10\n`);

  assert.is(deep.code, 1);
  assert.is(deep.stderr, 'error: deep.json is not valid JSON: Unexpected end of JSON input at line 1, column 200001\n');
});

test("a broken weir.config.json names the fault's line and column", async () => {
  const { home } = await greeterHome();
  writeFileSync(join(home, 'weir.config.json'), '{\n  "executions": {\n    "retentionDays": 3,\n  }\n}\n');
  const r = await cli(['f', 'list'], { home });
  assert.is(r.code, 1);
  assert.is(r.stderr, `error: ${join(home, 'weir.config.json')} is not valid JSON: Expected double-quoted property name at line 4, column 3\n`);
});

test('an unknown workflow names the closest names and ids, in get, executions and run --published', async () => {
  const { home, id } = await greeterHome();
  const nearId = `${id.slice(0, -1)}${id.endsWith('x') ? 'y' : 'x'}`;
  const names = [['f', 'get', 'greter'], ['f', 'executions', 'greter'], ['f', 'run', 'greter', '--published']];
  const [byId, ...byName] = await Promise.all([cli(['f', 'get', nearId], { home }), ...names.map((args) => cli(args, { home }))]);
  for (const [i, args] of names.entries()) {
    const r = byName[i];
    assert.is(r.code, 1, args.join(' '));
    assert.is(errorLine(r.stderr), 'error: workflow "greter" not found; did you mean "greeter"?', args.join(' '));
  }
  assert.is(errorLine(byId.stderr), `error: workflow "${nearId}" not found; did you mean "${id}"?`);
});

test('an unknown execution id names the closest execution ids the lookup read', async () => {
  const { home } = await greeterHome();
  const ran = await cli(['f', 'run', 'greeter', '--json'], { home });
  const { executionId } = ran.json();
  const near = `${executionId.slice(0, -1)}${executionId.endsWith('a') ? 'b' : 'a'}`;
  const r = await cli(['f', 'execution', near], { home });
  assert.is(r.code, 1);
  assert.is(errorLine(r.stderr), `error: execution "${near}" not found; did you mean "${executionId}"?`);
});

test('an unknown table, KV namespace or secret names the closest ones', async () => {
  const home = tmpDir('weir-newcomer-');
  for (const args of [['data', 'tables', 'init', 'user.orders'], ['data', 'kv', 'init', 'sessions'], ['secrets', 'set', 'API_KEY', 'x']]) {
    const r = await cliInProcess(args, { home });
    assert.is(r.code, 0, r.stderr);
  }
  const cases: [string[], string][] = [
    [['data', 'tables', 'query', 'user.ordrs', 'SELECT 1'], 'error: table "user.ordrs" not found; did you mean "user.orders"?'],
    [['data', 'tables', 'query', 'orders', 'SELECT 1'], 'error: table "orders" not found; did you mean "user.orders"?'],
    [['data', 'kv', 'get', 'sesions', 'k'], 'error: KV namespace "sesions" not found; did you mean "sessions"?'],
    [['secrets', 'get', 'API_KY'], 'error: secret "API_KY" not found; did you mean "API_KEY"?'],
  ];
  const runs = await Promise.all(cases.map(([args]) => cli(args, { home })));
  for (const [i, [args, line]] of cases.entries()) {
    const r = runs[i];
    assert.is(r.code, 1, args.join(' '));
    assert.is(errorLine(r.stderr), line);
  }
});

test("cancel of an ended execution hints only a command that accepts it, and that command runs", async () => {
  const { home } = await greeterHome();
  const ok = (await cli(['f', 'run', 'greeter', '--json'], { home })).json().executionId;
  const [cancelOk, retryOk] = await Promise.all([cli(['f', 'cancel', ok], { home }), cli(['f', 'retry', ok], { home })]);
  assert.is(cancelOk.code, 1);
  assert.is(cancelOk.stderr.split('\n')[1], `hint: run \`weir workflows rerun ${ok} --draft\` to run its input again`);
  assert.is(retryOk.stderr.split('\n')[1], `hint: run \`weir workflows rerun ${ok} --draft\` to run its input again`);
  const rerun = await cli(['f', 'rerun', ok, '--draft'], { home });
  assert.is(rerun.code, 0, rerun.stderr);

  const failing = flow({ type: 'manual_trigger' }, [{ id: 'code-1', type: 'code', config: { code: "throw new Error('boom')" } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'code-1' }]);
  writeJson(home, 'failing.json', failing);
  assert.is((await cliInProcess(['f', 'save', 'greeter', 'failing.json'], { home })).code, 0);
  const failed = await cli(['f', 'run', 'greeter', '--json'], { home });
  assert.is(failed.json().status, 'error');
  const bad = failed.json().executionId;
  const cancelBad = await cli(['f', 'cancel', bad], { home });
  assert.is(cancelBad.code, 1);
  assert.match(cancelBad.stderr, `hint: run \`weir workflows retry ${bad}\` to run it again from where it stopped`);
  const retried = await cli(['f', 'retry', bad, '--json'], { home });
  assert.is(retried.json().retryOf, bad, retried.stderr);
});

test('docs and help: the home is the nearest .weir, create prints what the README says, "cloud" is a storage mount, deploy needs esbuild', async () => {
  // Found from a subdirectory: the nearest .weir above, not a new one here (made in this process, then looked up below).
  const project = tmpDir();
  assert.is((await cliInProcess(['f', 'create', 'here'], { cwd: project })).code, 0);
  mkdirSync(join(project, 'sub'));
  const home = tmpDir();
  // Independent commands (each its own home or folder), run at once.
  const [help, sync, created, listed, init] = await Promise.all([
    cli(['--help'], { home: tmpDir() }),
    cli(['f', 'sync', '--help'], { home: tmpDir() }),
    cli(['workflows', 'create', 'orders', 'Order intake'], { home }),
    cli(['f', 'list', '--json'], { cwd: join(project, 'sub') }),
    cli(['interface', 'init', '--name', 'shop'], { cwd: project }),
  ]);
  assert.match(help.stdout, /--home <dir> +home directory \(default: \$WEIR_HOME, else the nearest \.weir here or in a parent directory, else \.\/\.weir\)/);
  assert.match(sync.stdout, "this home's `cloud` storage mount, not a hosted service");

  // The README's quick start says what `create` prints; it prints that (with its own id).
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const said = /npx weir workflows create orders "Order intake" +# prints: (.*)$/m.exec(readme)?.[1];
  assert.ok(said, 'the README says what create prints');
  const id = /wf_\w+/.exec(created.stdout)?.[0] ?? 'no id';
  assert.is(created.stdout.trim(), said.replace(/wf_\w+/, id));
  assert.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'else the nearest `.weir` directory');

  assert.equal(listed.json().map((w: { name: string }) => w.name), ['here']);

  assert.is(init.code, 0, init.stderr);
  assert.match(init.stdout, 'both build with esbuild, an optional package: npm install esbuild');
  assert.match(readFileSync(join(ROOT, 'docs/interfaces.md'), 'utf8'), 'Needs the optional package `esbuild` (`npm install esbuild`');
});

test.run();
