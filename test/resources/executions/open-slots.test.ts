import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWeir, defineNode } from '../../../src/index.js';
import { ROOT, tmpDir } from '../../_utils.js';
import { chain } from '../../flow/_flows.js';

// On an fs home an unfinished execution's checkpoints go to two files, `open/<id>` and `open/<id>@2`,
// overwritten in place by turns: what a reader takes from them, whole or torn, and what a kill -9 leaves.

const openDir = (home: string) => join(home, 'cloud', 'executions', 'open');
const slotFiles = (home: string, id: string) => ['', '@2'].map((suffix) => join(openDir(home), encodeURIComponent(id) + suffix));

/** A node that waits for the test to open it; `reached()` resolves when a run is waiting there. */
function gate() {
  let reached!: () => void;
  let open!: () => void;
  let reaching!: Promise<void>;
  let opened!: Promise<void>;
  const arm = () => {
    reaching = new Promise((r) => (reached = r));
    opened = new Promise((r) => (open = r));
  };
  arm();
  const node = defineNode({
    type: 'gate',
    run: async (ctx) => {
      const waitFor = opened;
      reached();
      await waitFor;
      return ctx.input;
    },
  });
  return {
    node,
    reached: () => reaching,
    open: () => {
      const openNow = open;
      arm();
      openNow();
    },
  };
}

const tick = defineNode({ type: 'tick', run: async (ctx) => ({ n: ((ctx.input as { n?: number }).n ?? 0) + 1 }) });

test('checkpoints overwrite two files in place by turns; another process reads the newest; both go at the end', async () => {
  const home = tmpDir();
  const gated = gate();
  const weir = await createWeir({ home, env: {}, nodes: [tick, gated.node] });
  const { id } = await weir.workflows.create('slots', undefined, {
    config: chain([
      { id: 'tick-1', type: 'tick', config: {} },
      { id: 'tick-2', type: 'tick', config: {} },
      { id: 'gate-1', type: 'gate', config: {} },
      { id: 'tick-3', type: 'tick', config: {} },
      { id: 'gate-2', type: 'gate', config: {} },
    ]),
    publish: true,
  });
  const running = weir.run(id, { n: 0 });
  await gated.reached();
  const executionId = (await weir.executions.list({ workflowId: id }))[0].id;
  const [first, second] = slotFiles(home, executionId);
  assert.ok(existsSync(first) && existsSync(second), 'tick-1 and tick-2 checkpointed, one slot each');
  const inodes = [statSync(first).ino, statSync(second).ino];
  const reader = await createWeir({ home, env: {} });
  assert.equal((await reader.executions.open.get(executionId))?.record.nodes['tick-2'].data, { n: 2 });

  gated.open();
  await gated.reached();
  assert.equal([statSync(first).ino, statSync(second).ino], inodes, 'the same two files, overwritten');
  const seen = await reader.executions.open.get(executionId);
  assert.equal(seen?.record.nodes['tick-3'].data, { n: 3 }, 'the newest checkpoint');
  assert.equal(
    [first, second].map((file) => typeof (JSON.parse(readFileSync(file, 'utf8')) as { seq: unknown }).seq),
    ['number', 'number'],
  );

  gated.open();
  assert.is((await running).status, 'success');
  assert.ok(!existsSync(first) && !existsSync(second), 'both slots removed');
  assert.is(await reader.executions.open.get(executionId), null);
  await reader.close();
  await weir.close();
});

test('a torn slot loses to the whole one; a slot of an older version of weir (one file, no slots) is read', async () => {
  const home = tmpDir();
  const weir = await createWeir({ home, env: {} });
  const { id } = await weir.workflows.create('waits', undefined, { config: chain([{ id: 'wait-1', type: 'wait', config: { for: '1h' } }]), publish: true });
  const run = await weir.run(id, { n: 1 });
  assert.is(run.status, 'waiting');
  await weir.close();

  const [first, second] = slotFiles(home, run.id);
  const stored = JSON.parse(readFileSync(first, 'utf8')) as { value: { record: { input: unknown } }; seq: number };
  const framed = (input: unknown, seq: number) => JSON.stringify({ value: { ...stored.value, record: { ...stored.value.record, input } }, seq });
  const inputNow = async () => {
    const reader = await createWeir({ home, env: {} });
    const entry = await reader.executions.open.get(run.id);
    await reader.close();
    return entry?.record.input;
  };
  writeFileSync(first, framed({ n: 20 }, 20));

  const newer = framed({ n: 21 }, 21);
  writeFileSync(second, newer.slice(0, newer.length - 20));
  assert.equal(await inputNow(), { n: 20 }, 'cut short: not JSON');
  const older = framed({ n: 19 }, 19);
  const tear = newer.indexOf('{"n":21}') + 8;
  writeFileSync(second, newer.slice(0, tear) + older.slice(tear));
  assert.ok(JSON.parse(readFileSync(second, 'utf8')).value.record.input.n === 21, 'the torn slot is JSON, with the new input');
  assert.equal(await inputNow(), { n: 20 }, 'the new start and the old end: the old sequence number, lower');
  writeFileSync(second, newer);
  assert.equal(await inputNow(), { n: 21 }, 'whole and newer');

  writeFileSync(second, '{not json');
  writeFileSync(first, JSON.stringify({ ...stored.value, record: { ...stored.value.record, input: { n: 'old' } } }));
  assert.equal(await inputNow(), { n: 'old' }, 'an entry written whole by an older version');
});

test('kill -9 while checkpoints are written: the entry a new process reads is whole and no older than the last one written', async () => {
  const home = tmpDir();
  const executionId = 'exec_slots_kill';
  // Records of about 200 KB: a write spans about 50 pages and goes through the thread pool. Each new process
  // writes the first slot whole, then both in place by turns.
  const writer = `
    const { createWeir } = await import(${JSON.stringify(join(ROOT, 'dist/index.js'))});
    const weir = await createWeir({ home: process.argv[1], env: {} });
    const pad = 'x'.repeat(200_000);
    const record = (n) => ({ id: '${executionId}', workflowId: 'wf_slots', workflowName: 'slots', version: null, status: 'running', trigger: 'manual', input: { n, pad }, nodes: {}, result: null, startedAt: new Date().toISOString(), finishedAt: null });
    for (let n = 1; ; n++) {
      await weir.executions.open.put(record(n));
      process.stdout.write(n + '\\n');
    }
  `;
  let kills = 0;
  for (const after of [2, 15, 80]) {
    const child = spawn(process.execPath, ['--input-type=module', '-e', writer, home], { stdio: ['ignore', 'pipe', 'inherit'] });
    let written = 0;
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        written = Math.max(written, ...String(chunk).trim().split('\n').map(Number));
        if (written >= after && child.kill('SIGKILL')) resolve();
      });
    });
    await new Promise((r) => child.once('exit', r));
    kills++;
    const reader = await createWeir({ home, env: {} });
    const entry = await reader.executions.open.get(executionId);
    await reader.close();
    const n = (entry?.record.input as { n: number } | undefined)?.n ?? 0;
    assert.ok(n >= written, `after kill ${kills}: entry ${n}, last written ${written}`);
    assert.is((entry?.record.input as { pad: string }).pad.length, 200_000);
  }
  assert.ok(readdirSync(openDir(home)).length <= 2);
});

test.run();
