import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/index.js';
import { cli, tmpDir, writeJson } from '../_utils.js';
import { chain, memoryWeir, runConfig } from './_flows.js';

test("a Code node's console lines are in its output record, with their level, also when it throws", async () => {
  const weir = await memoryWeir();
  const events: unknown[] = [];
  weir.bus.on('execution:log', (e) => events.push([e.nodeId, e.level, e.message]));
  const r = await runConfig(
    weir,
    chain([
      { id: 'code-1', type: 'code', config: { code: 'console.log("a", 1, {b: 2}); console.info("i"); console.warn("w"); console.error("e"); return 1' } },
      { id: 'code-2', type: 'code', config: { code: 'console.log("before"); throw new Error("boom")' } },
    ]),
  );
  assert.is(r.status, 'error');
  const lines = r.nodes['code-1'].logs!;
  assert.equal(lines.map((l) => [l.level, l.message]), [['log', 'a 1 {"b":2}'], ['info', 'i'], ['warn', 'w'], ['error', 'e']]);
  assert.ok(lines.every((l) => l.at >= r.startedAt && l.at <= r.finishedAt!));
  assert.equal(r.nodes['code-2'].logs!.map((l) => l.message), ['before']);
  assert.equal(events, [['code-1', 'log', 'a 1 {"b":2}'], ['code-1', 'info', 'i'], ['code-1', 'warn', 'w'], ['code-1', 'error', 'e'], ['code-2', 'log', 'before']]);
  assert.is(r.nodes['manual_trigger-1'].logs, undefined);
  await weir.close();
});

test('a node keeps at most 100 log lines and 64K characters; the rest are dropped with a note and not emitted', async () => {
  const weir = await memoryWeir();
  let emitted = 0;
  weir.bus.on('execution:log', () => emitted++);
  const many = await runConfig(weir, chain([{ id: 'code-1', type: 'code', config: { code: 'for (let i = 0; i < 150; i++) console.log("line " + i); return 1' } }]));
  const lines = many.nodes['code-1'].logs!;
  assert.is(lines.length, 101);
  assert.is(lines[99].message, 'line 99');
  assert.equal([lines[100].level, lines[100].message], ['warn', '50 more log lines dropped: a node run keeps at most 100 lines and 64K characters']);
  assert.is(emitted, 100);
  const big = await runConfig(weir, chain([{ id: 'code-1', type: 'code', config: { code: 'const s = "x".repeat(40000); console.log(s); console.log(s); console.log("late"); return 1' } }]));
  const kept = big.nodes['code-1'].logs!;
  assert.is(kept.length, 3);
  assert.equal(kept.slice(0, 2).map((l) => l.message.length), [40000, 64 * 1024 - 40000 + 1]);
  assert.ok(kept[1].message.endsWith('x…'));
  assert.match(kept[2].message, /^1 more log line dropped/);
  await weir.close();
});

test('secret values in node log lines are masked in the stored record', async () => {
  const home = tmpDir();
  const weir = await createWeir({ home, env: { WEIR_MASTER_KEY: 'b'.repeat(64) } });
  const secret = 'tok_SECRET_value_42';
  await weir.secrets.set('API_TOKEN', secret);
  const { id } = await weir.workflows.create('masked-logs');
  await weir.workflows.save(id, chain([{ id: 'code-1', type: 'code', config: { code: 'console.log("token", $env.API_TOKEN); return 1' } }]));
  const r = await weir.run(id, {});
  assert.equal(r.nodes['code-1'].logs!.map((l) => l.message), ['token ***']);
  await weir.close();
  const again = await createWeir({ home, env: { WEIR_MASTER_KEY: 'b'.repeat(64) } });
  const stored = await again.executions.get(r.id);
  assert.equal(stored.nodes['code-1'].logs!.map((l) => l.message), ['token ***']);
  await again.close();
});

test('weir workflows execution shows what a Code node logged, in text under the node and in --json', async () => {
  const home = tmpDir();
  const file = writeJson(home, 'logs.json', {
    nodes: [
      { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
      { id: 'code-1', type: 'code', config: { code: 'console.log("hello", $input.name); console.warn("careful\\nnext line"); return { ok: true }' } },
    ],
    edges: [{ source: 'manual_trigger-1', target: 'code-1' }],
  });
  const created = await cli(['workflows', 'create', 'logger', '--json'], { home });
  const { id } = created.json<{ id: string }>();
  const saved = await cli(['workflows', 'save', id, file], { home });
  assert.is(saved.code, 0, saved.stderr);
  const run = await cli(['workflows', 'run', id, '--input', '{"name":"ada"}', '--json'], { home });
  assert.is(run.code, 0, run.stderr);
  const { executionId } = run.json();

  const text = await cli(['workflows', 'execution', executionId], { home });
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, /\nlogs:\ncode-1:\n {2}\d{4}-\d\d-\d\dT[\d:.]+Z log {3}hello ada\n {2}\S+ warn {2}careful\n {4}next line\n/);

  const json = await cli(['workflows', 'execution', executionId, '--json'], { home });
  const logs = json.json().nodes['code-1'].logs;
  assert.equal(logs.map((l: any) => [l.level, l.message]), [['log', 'hello ada'], ['warn', 'careful\nnext line']]);
  assert.ok(logs.every((l: any) => !Number.isNaN(Date.parse(l.at))));
  assert.is(json.json().nodes['manual_trigger-1'].logs, undefined);
});

test.run();
