// Approvals from the CLI against a host process (ours: `weir serve` with the tests' `ask_approval` node type),
// and an approval that survives kill -9: decided while no host runs, applied by the restarted host, once.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import { ROOT, cli } from '../_utils.js';
import { chain, publish, send, tmpDir, until } from '../host/_helpers.js';
import { askNode } from './_approval.js';

/** Our host process on `home`: its URL, and a signal to stop it. */
function startApprovalHost(home: string): Promise<{ url: string; stop(signal?: NodeJS.Signals): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/waits/_approval-host.ts'), home], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host did not listen within 20 s:\n${out}`)), 20_000);
    child.stderr.on('data', (d) => (out += d));
    child.stdout.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/[\w.:]+)/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, stop: (signal = 'SIGTERM') => (child.exitCode !== null ? exited : (child.kill(signal), exited)) });
    });
    void exited.then(() => reject(new Error(`the host exited before listening:\n${out}`)));
  });
}

test('weir workflows approve: waiting for approval shown, approved through a running host, denied after kill -9 and applied once by the restarted host', async () => {
  const home = tmpDir('weir-approval-');
  const file = join(home, 'marks.txt');
  const weir = await createWeir({ home, nodes: [askNode] });
  const c = chain('webhook_trigger', [{ type: 'ask_approval', id: 'ask_approval-1', config: { tool: 'refund', input: { order: '{{ $input.body.order }}' }, marks: file } }]);
  const { id: workflowId, token } = await publish(weir, 'refunds', { type: 'webhook_trigger', config: { respondImmediately: true } }, c.nodes, c.edges);
  const get = (id: string) => weir.executions.get(id).catch(() => null);
  const status = (id: string, s: string) => until(async () => (await get(id))?.status === s && (await get(id))!, 15_000, `execution ${id} to be ${s}`);
  const marks = () => readFileSync(file, 'utf8').trim().split('\n');
  let host = await startApprovalHost(home);
  try {
    const start = async (order: number) => {
      const res = await send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ order }), headers: { 'content-type': 'application/json' } });
      assert.is(res.status, 200, res.text);
      await status(res.json.executionId, 'waiting');
      return res.json.executionId as string;
    };

    // Shown as waiting for approval of its tool, with the input.
    const a = await start(1);
    const shown = await cli(['workflows', 'execution', a], { home });
    assert.is(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, 'waiting for approval of refund');
    assert.match(shown.stdout, `{"order":1} (weir workflows approve ${a} [--deny] [--reason <text>])`);

    // Approved from the CLI while the host runs: the host is told and runs the node again.
    const approved = await cli(['workflows', 'approve', a], { home });
    assert.is(approved.code, 0, approved.stderr);
    assert.is(approved.stdout.trim(), `approved refund of execution ${a}`);
    const doneA = await status(a, 'success');
    assert.equal(doneA.result, { approval: { approved: true }, progress: { asked: 'refund' } });

    // Waiting when the host is killed; denied from the CLI while no host runs; the restarted host applies it.
    const b = await start(2);
    await host.stop('SIGKILL');
    const denied = await cli(['workflows', 'approve', b, '--deny', '--reason', 'duplicate order', '--json'], { home });
    assert.is(denied.code, 0, denied.stderr);
    assert.equal(denied.json(), { executionId: b, approved: false, reason: 'duplicate order', tool: 'refund', applied: true });
    assert.is((await get(b))!.status, 'waiting', 'no host ran it yet');
    const twice = await cli(['workflows', 'approve', b], { home });
    assert.is(twice.code, 1, 'a decision already made is not made again');
    assert.match(twice.stderr, 'already decided');
    host = await startApprovalHost(home);
    const doneB = await status(b, 'success');
    assert.equal(doneB.result, { approval: { approved: false, reason: 'duplicate order' }, progress: { asked: 'refund' } });
    assert.equal(marks(), ['asked', 'approved', 'asked', 'denied'], 'each node run once per step, none repeated by the restart');
    const all = await weir.executions.list({ workflowId, limit: 10 });
    assert.equal(all.map((e) => e.id).sort(), [a, b].sort(), 'no execution ran twice');

    // Refused: one that waits for no approval (exit 1, saying so), and an unknown id (NOT_FOUND).
    const ended = await cli(['workflows', 'approve', a, '--json'], { home });
    assert.is(ended.code, 1);
    const error = JSON.parse(ended.stderr).error;
    assert.is(error.code, 'CONFLICT');
    assert.match(error.message, `execution ${a} is success and waits for no approval`);
    const unknown = await cli(['workflows', 'approve', 'exec_nope'], { home });
    assert.is(unknown.code, 1);
    assert.match(unknown.stderr, /not found/i);

    // Cancel works on an execution waiting for approval.
    const d = await start(4);
    const cancelled = await cli(['workflows', 'cancel', d], { home });
    assert.is(cancelled.code, 0, cancelled.stderr);
    assert.is((await get(d))!.status, 'cancelled');
    const late = await cli(['workflows', 'approve', d], { home });
    assert.is(late.code, 1);
    assert.match(late.stderr, `execution ${d} is cancelled and waits for no approval`);
  } finally {
    await host.stop();
    await weir.close();
  }
});

test.run();
