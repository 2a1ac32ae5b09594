import { readdirSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WeirError } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';

// One worker: a job sent while it is busy waits in its inbox behind the running one.
const sandbox = createSandbox({ workers: 1 });
test.after(() => sandbox.close());

test('a job waiting in a worker behind a cancelled one runs on a fresh worker, without waiting for the CPU limit', async () => {
  await sandbox.run('return 0', { globals: {} }); // the worker is up before timing
  const controller = new AbortController();
  const started = Date.now();
  const spinning = sandbox.run('while (true) {}', { globals: {}, cpuMs: 3000, signal: controller.signal }).catch((e: WeirError) => e.code);
  const waiting = sandbox.run('return $input.n * 2', { globals: { $input: { n: 21 } } });
  setImmediate(() => controller.abort());
  assert.is(await spinning, 'CANCELLED');
  assert.is(await waiting, 42);
  assert.ok(Date.now() - started < 2500, `${Date.now() - started} ms`);
});

test('jobs sent one after another to a busy worker all answer, each with its own result, in order', async () => {
  const order: number[] = [];
  const runs = Array.from({ length: 20 }, (_, i) => sandbox.run('return $input.i', { globals: { $input: { i } } }).then((v) => order.push(v as number)));
  await Promise.all(runs);
  assert.equal(order, Array.from({ length: 20 }, (_, i) => i));
});

test('a job cancelled while it waits in a worker fails at once; the one running and the next are unaffected', async () => {
  const controller = new AbortController();
  const first = sandbox.run('let x = 0; for (let i = 0; i < 1e6; i++) x += i; return x', { globals: {} });
  const cancelled = sandbox.run('return "never seen"', { globals: {}, signal: controller.signal }).catch((e: WeirError) => e.code);
  controller.abort();
  assert.is(await cancelled, 'CANCELLED');
  assert.is(await first, 499999500000);
  assert.is(await sandbox.run('return "next"', { globals: {} }), 'next');
});

test('one signal shared by several runs cancels each of them, and not the runs that ended before it fired', async () => {
  const controller = new AbortController();
  assert.is(await sandbox.run('return 1', { globals: {}, signal: controller.signal }), 1);
  const runs = [sandbox.run('while (true) {}', { globals: {}, cpuMs: 3000, signal: controller.signal }), sandbox.run('return 2', { globals: {}, signal: controller.signal })];
  setImmediate(() => controller.abort());
  assert.equal(await Promise.all(runs.map((r) => r.catch((e: WeirError) => e.code))), ['CANCELLED', 'CANCELLED']);
  assert.is(await sandbox.run('return 3', { globals: {}, signal: new AbortController().signal }), 3);
});

test('a job cancelled in the turn it was started never reaches its worker, which stays (no new thread)', async () => {
  await sandbox.run('return 0', { globals: {} });
  const threads = () => readdirSync('/proc/self/task').sort().join(',');
  const before = threads();
  const controller = new AbortController();
  const cancelled = sandbox.run('while (true) {}', { globals: {}, cpuMs: 3000, signal: controller.signal }).catch((e: WeirError) => e.code);
  const after = sandbox.run('return $input.n + 1', { globals: { $input: { n: 1 } } });
  controller.abort();
  assert.is(await cancelled, 'CANCELLED');
  assert.is(await after, 2, 'the job behind it runs, on the same worker');
  assert.is(threads(), before, 'the worker was not replaced');
});

test('jobs queued behind one that runs long come back unrun and run on another worker before it ends', async () => {
  const two = createSandbox({ workers: 2 });
  try {
    await two.run('return 0', { globals: {} }); // one worker up: the next jobs queue in its inbox
    const settled: string[] = [];
    const spinning = two.run('while (true) {}', { globals: {}, cpuMs: 3000 }).catch((e: WeirError) => e.code).finally(() => settled.push('spinner'));
    const quick = [1, 2, 3].map((n) => two.run('return $input.n * 2', { globals: { $input: { n } } }).finally(() => settled.push(`quick ${n}`)));
    assert.equal(await Promise.all(quick), [2, 4, 6]);
    assert.is(await spinning, 'SANDBOX_LIMIT');
    assert.equal(settled, ['quick 1', 'quick 2', 'quick 3', 'spinner']);
  } finally {
    await two.close();
  }
});

test('with one worker, jobs handed back behind a long one wait for it, then each runs once, in order', async () => {
  const long = sandbox.run('while (true) {}', { globals: {}, cpuMs: 200 }).catch((e: WeirError) => e.code);
  const after = [1, 2, 3].map((n) => sandbox.run('globalThis.runs = (globalThis.runs ?? 0) + 1; return [$input.n, runs]', { globals: { $input: { n } } }));
  assert.is(await long, 'SANDBOX_LIMIT');
  assert.equal(await Promise.all(after), [[1, 1], [2, 1], [3, 1]]);
});

test.run();
