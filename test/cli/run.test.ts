import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { cli, cliInProcess, ROOT, tmpDir, writeJson } from '../_utils.js';

const fixtureFile = (name: string) => join(ROOT, 'test/fixtures/flows', `${name}.json`);

/** Creates and saves flow `name` through the CLI in this process (setup: the runs after it are what is tested). */
async function workflow(home: string, name: string, configFile: string): Promise<string> {
  const created = await cliInProcess(['f', 'create', name, '--json'], { home });
  const { id } = created.json<{ id: string }>();
  const saved = await cliInProcess(['f', 'save', id, configFile], { home });
  assert.is(saved.code, 0, saved.stderr);
  return id;
}

test('workflows run prints the result; --json gives {executionId, status, result}; --input-file works', async () => {
  const home = tmpDir();
  const id = await workflow(home, 'greet', fixtureFile('chain'));
  const file = writeJson(home, 'input.json', { name: 'cy' });
  // Four runs of their own, each a `weir` process: at once.
  const [text, json, fromFile, bad] = await Promise.all([
    cli(['f', 'run', id, '--input', '{"name":"ada"}'], { home }),
    cli(['f', 'run', 'greet', '--input', '{"name":"bo"}', '--json'], { home }),
    cli(['f', 'run', id, '--input-file', file, '--json'], { home }),
    cli(['f', 'run', id, '--input', '{nope'], { home }),
  ]);
  assert.is(text.code, 0, text.stderr);
  const printed = JSON.parse(text.stdout);
  assert.is(printed.shout, 'HELLO ADA');

  assert.is(json.code, 0, json.stderr);
  const out = json.json();
  assert.equal(Object.keys(out).sort(), ['executionId', 'result', 'status']);
  assert.is(out.status, 'success');
  assert.match(out.executionId, /^exec_/);
  assert.is(out.result.shout, 'HELLO BO');

  assert.is(fromFile.json().result.shout, 'HELLO CY');
  assert.is(bad.code, 1);
  assert.match(bad.stderr, 'error: --input is not valid JSON');
});

test('a failing flow exits 1; with --json stdout still holds {executionId, status: "error", error}', async () => {
  const home = tmpDir();
  const config = writeJson(home, 'fail.json', {
    nodes: [
      { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
      { id: 'code-1', type: 'code', config: { code: 'throw new Error("no luck for " + $input.who)' } },
    ],
    edges: [{ source: 'manual_trigger-1', target: 'code-1' }],
  });
  const id = await workflow(home, 'failing', config);
  const [json, text] = await Promise.all([cli(['f', 'run', id, '--input', '{"who":"you"}', '--json'], { home }), cli(['f', 'run', id, '--input', '{"who":"me"}'], { home })]);
  assert.is(json.code, 1);
  const out = json.json();
  assert.is(out.status, 'error');
  assert.match(out.executionId, /^exec_/);
  assert.equal(out.error, { code: 'EXECUTION_FAILED', message: 'code: no luck for you (line 1)', node: 'code-1' });
  assert.is(text.code, 1);
  assert.is(text.stdout, '');
  assert.match(text.stderr, /^error: execution exec_\w+ failed at code-1: code: no luck for me/);
  assert.match(text.stderr, 'weir workflows execution exec_');
});

test('--published runs the published copy, and refuses a never-published flow', async () => {
  const home = tmpDir();
  const id = await workflow(home, 'pub', fixtureFile('chain'));
  const before = await cli(['f', 'run', id, '--published', '--input', '{"name":"x"}'], { home });
  assert.is(before.code, 1);
  assert.match(before.stderr, 'no published workflow');
  assert.is((await cli(['f', 'publish', id], { home })).code, 0);
  const after = await cli(['f', 'run', id, '--published', '--input', '{"name":"x"}', '--json'], { home });
  assert.is(after.code, 0, after.stderr);
  assert.is(after.json().result.shout, 'HELLO X');
});

test('workflows executions lists newest first; workflows execution shows each node record', async () => {
  const home = tmpDir();
  const id = await workflow(home, 'listed', fixtureFile('branch'));
  const ids: string[] = [];
  for (const amount of [500, 5, 50]) ids.push((await cli(['f', 'run', id, '--input', JSON.stringify({ amount }), '--json'], { home })).json().executionId);

  // What is left only reads the home: every look at once.
  const [list, limited, table, one, text, unknown, missing] = await Promise.all([
    cli(['f', 'executions', id, '--json'], { home }),
    cli(['f', 'executions', 'listed', '--limit', '1', '--json'], { home }),
    cli(['f', 'executions', id], { home }),
    cli(['f', 'execution', ids[0], '--json'], { home }),
    cli(['f', 'execution', ids[0]], { home }),
    cli(['f', 'executions', 'no-such-flow'], { home }),
    cli(['f', 'execution', 'ex_nope'], { home }),
  ]);
  assert.is(list.code, 0, list.stderr);
  const rows = list.json<any[]>();
  assert.equal(rows.map((r) => r.id), [...ids].reverse());
  assert.equal(Object.keys(rows[0]).sort(), ['error', 'finishedAt', 'id', 'startedAt', 'status', 'trigger']);
  assert.is(rows[0].trigger, 'manual');
  assert.is(limited.json().length, 1);
  assert.match(table.stdout, /^ID\s+STATUS\s+TRIGGER\s+STARTEDAT\s+FINISHEDAT\s+ERROR/);
  assert.ok(table.stdout.indexOf(ids[2]) < table.stdout.indexOf(ids[0]));

  const record = one.json();
  assert.is(record.status, 'success');
  assert.equal(record.input, { amount: 500 });
  assert.equal(record.nodes['set-1'].data, { tier: 'big', amount: 500 });
  assert.is(record.nodes['set-2'].status, 'skipped');
  assert.match(text.stdout, /set-1\s+success/);
  assert.match(text.stdout, /set-2\s+skipped/);
  assert.match(text.stdout, 'result:');
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, 'workflow "no-such-flow" not found');
  assert.is(missing.code, 1);
  assert.match(missing.stderr, 'execution "ex_nope" not found');
});

test.run();
