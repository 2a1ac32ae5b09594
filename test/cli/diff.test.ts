import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from '../../src/cli/run.js';
import { cli, cliInProcess, flow, tmpDir, writeJson } from '../_utils.js';

// `weir workflows diff`: the summary of changes, then the old and the new value of each changed field as a
// unified diff of the config JSON (published -> local).

const codeFlow = (code: string, extra: { position?: { x: number; y: number } } = {}) =>
  flow({ type: 'manual_trigger' }, [{ id: 'code-1', type: 'code', config: { code }, ...extra }], [{ id: 'e1', source: 'manual_trigger-1', target: 'code-1' }]);

/** A home with flow `calc` published with `before` and `after` saved as its draft (made by the CLI in this process: the diff is what is tested). */
async function published(before: object, after: object): Promise<string> {
  const home = tmpDir();
  assert.is((await cliInProcess(['f', 'create', 'calc'], { home })).code, 0);
  assert.is((await cliInProcess(['f', 'save', 'calc', writeJson(home, 'v1.json', before)], { home })).code, 0);
  assert.is((await cliInProcess(['f', 'publish', 'calc'], { home })).code, 0);
  const saved = await cliInProcess(['f', 'save', 'calc', writeJson(home, 'v2.json', after)], { home });
  assert.is(saved.code, 0, saved.stderr);
  return home;
}

test('diff prints the summary, then the old and the new code as a unified diff of the config JSON', async () => {
  const home = await published(codeFlow('return { n: 1 }'), codeFlow('return { n: 2 }'));
  const r = await cli(['f', 'diff', 'calc'], { home });
  assert.is(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.match(lines[0], /^calc \(wf_\w+\), dirty, published -> local:$/);
  assert.is(lines[1], '~ node code-1: config.code');
  assert.ok(lines.indexOf('--- published (version 1)') > 1, r.stdout);
  assert.ok(lines.includes('+++ local'), r.stdout);
  assert.ok(lines.some((l) => /^@@ -\d+,\d+ \+\d+,\d+ @@$/.test(l)), r.stdout);
  assert.ok(lines.includes('-        "code": "return { n: 1 }"'), r.stdout);
  assert.ok(lines.includes('+        "code": "return { n: 2 }"'), r.stdout);
  assert.not.match(r.stdout, '\x1b[', 'no colour when stdout is not a terminal');
});

test('diff --json: each change holds before and after (nodes, edges), and the patch', async () => {
  const after = codeFlow('return 2');
  after.nodes.push({ id: 'set-1', type: 'set', config: { values: { a: 1 } } } as never);
  after.edges.push({ id: 'e2', source: 'code-1', target: 'set-1' } as never);
  const home = await published(codeFlow('return 1'), after);
  const d = (await cli(['f', 'diff', 'calc', '--json'], { home })).json();
  const changed = d.changes.find((c: any) => c.key === 'code-1');
  assert.equal([changed.op, changed.fields, changed.before.config.code, changed.after.config.code], ['changed', ['config.code'], 'return 1', 'return 2']);
  const edge = d.changes.find((c: any) => c.kind === 'edge');
  assert.equal([edge.op, edge.key, edge.before, edge.after], ['added', 'code-1 -> set-1', null, { id: 'e2', source: 'code-1', target: 'set-1' }]);
  assert.equal(d.changes.find((c: any) => c.key === 'set-1').before, null);
  assert.match(d.patch, '+      "id": "set-1",');
});

test('diff colours the unified diff on a terminal, and not with NO_COLOR', async () => {
  const home = await published(codeFlow('return 1'), codeFlow('return 2'));
  const run = async (env: NodeJS.ProcessEnv) => {
    let out = '';
    const io = { stdout: { write: (s: string) => (out += s), isTTY: true }, stderr: { write: () => true }, cwd: home, env };
    assert.is(await runCli(['--home', home, 'f', 'diff', 'calc'], io), 0);
    return out;
  };
  const colored = await run({});
  assert.ok(colored.includes('\x1b[31m-        "code": "return 1"\x1b[0m'), colored);
  assert.ok(colored.includes('\x1b[32m+        "code": "return 2"\x1b[0m'), colored);
  assert.ok(colored.includes('~ node code-1: config.code\n'), 'the summary stays plain');
  assert.not.match(await run({ NO_COLOR: '1' }), '\x1b[');
});

test("moving nodes (their position) leaves a published flow synced with no differences; a change still shows", async () => {
  const home = await published(codeFlow('return 1', { position: { x: 0, y: 0 } }), codeFlow('return 1', { position: { x: 240, y: 80 } }));
  const [status, d] = await Promise.all([cli(['f', 'status', 'calc', '--json'], { home }), cli(['f', 'diff', 'calc'], { home })]);
  assert.is(status.json().status, 'synced');
  assert.match(d.stdout, /synced, published -> local:\nno differences\n$/);
  assert.is((await cli(['f', 'publish', 'calc'], { home })).code, 0, 'publishing the moves keeps them');

  assert.is((await cliInProcess(['f', 'save', 'calc', writeJson(home, 'v3.json', codeFlow('return 3', { position: { x: 9, y: 9 } }))], { home })).code, 0);
  const [dirty, changed] = await Promise.all([cli(['f', 'status', 'calc', '--json'], { home }), cli(['f', 'diff', 'calc'], { home })]);
  assert.is(dirty.json().status, 'dirty');
  assert.ok(changed.stdout.includes('+        "code": "return 3"'), changed.stdout);
  assert.not.match(changed.stdout, '"position"', 'positions are left out of the diff as of the status');
});

test.run();
