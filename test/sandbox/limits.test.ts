import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { WeirError } from '../../src/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { chain, memoryWeir, runConfig } from '../flow/_flows.js';

// The default CPU limit, and how much later than it a stopped run may end.
const CPU_MS = 1000;
const MARGIN_MS = 500;
const sandbox = createSandbox({ workers: 1 });
test.after(() => sandbox.close());

/** Runs `code`; its error (or value) and how long it took, and the longest the main thread stalled meanwhile. */
async function timed(code: string, box = sandbox) {
  let last = Date.now();
  let stall = 0;
  const ticker = setInterval(() => {
    stall = Math.max(stall, Date.now() - last);
    last = Date.now();
  }, 5);
  const started = Date.now();
  try {
    return { value: await box.run(code, { globals: {} }), error: undefined, ms: Date.now() - started, stall };
  } catch (err) {
    assert.instance(err, WeirError);
    return { value: undefined, error: err as WeirError, ms: Date.now() - started, stall };
  } finally {
    clearInterval(ticker);
  }
}

test('host calls count against the CPU limit: $crypto and console loops stop at it, off the main thread', async () => {
  await sandbox.run('return 1', { globals: {} }); // the worker and QuickJS are loaded before anything is timed
  const attacks = [
    "const s = 'S'.repeat(1e6); for (let i = 0; i < 1500; i++) $crypto.sha256(s); return 1",
    "const s = 'S'.repeat(1e6); for (;;) console.log(s)",
    "const s = 'S'.repeat(1e6); for (let i = 0; i < 2e6; i++) { console.log(s); $crypto.hmac('sha512', s, s) } return 1",
  ];
  for (const code of attacks) {
    const r = await timed(code);
    assert.is(r.error?.code, 'SANDBOX_LIMIT', code);
    assert.is(r.error?.message, `code: CPU time limit of ${CPU_MS} ms exceeded`);
    assert.ok(r.ms < CPU_MS + MARGIN_MS, `${code}: ${r.ms} ms`);
    // Run on the main thread, these stalled it for the whole second; the bound leaves room for a loaded machine.
    assert.ok(r.stall < 250, `the main thread stalled ${r.stall} ms`);
    assert.is(await sandbox.run('return $input.n + 1', { globals: { $input: { n: 1 } } }), 2);
  }
});

test('deep recursion and endless promise chains fail with SANDBOX_LIMIT and a clean message; the next run is fine', async () => {
  const cases = [
    ['function f() { return f() } return f()', 'code: call stack limit exceeded (recursion too deep)'],
    // Which limit a growing promise chain meets first depends on the machine's speed.
    ['const loop = () => Promise.resolve().then(loop); loop()', /^code: (memory limit of 32 MB|CPU time limit of 1000 ms) exceeded$/],
    ['let p = Promise.resolve(); for (;;) { p = p.then(() => {}) }', /^code: (memory limit of 32 MB|CPU time limit of 1000 ms) exceeded$/],
  ] as const;
  for (const [code, message] of cases) {
    const r = await timed(code);
    assert.is(r.error?.code, 'SANDBOX_LIMIT', code);
    if (typeof message === 'string') assert.is(r.error?.message, message);
    else assert.match(r.error!.message, message);
    // Stopped by its own limit, not by the pool, which replaces a stuck worker 5 s past its limit with the
    // same error (src/sandbox/pool.ts): freeing a million promises can take the worker over 500 ms on a busy machine.
    assert.ok(r.ms < CPU_MS + 2500, `${code}: ${r.ms} ms`);
    assert.is(await sandbox.run('return "clean"', { globals: {} }), 'clean');
  }
});

test('$crypto inputs are bounded: 1 MiB is hashed, one character more stops the run', async () => {
  const mib = 1024 * 1024;
  assert.is(await sandbox.run(`return $crypto.sha256('a'.repeat(${mib}))`, { globals: {} }), createHash('sha256').update('a'.repeat(mib)).digest('hex'));
  for (const code of [`return $crypto.sha256('a'.repeat(${mib + 1}))`, `return $crypto.hmac('sha256', 'a'.repeat(${mib + 1}), 'd')`]) {
    const r = await timed(code);
    assert.is(r.error?.code, 'SANDBOX_LIMIT', code);
    assert.is(r.error?.message, `code: a $crypto argument is longer than ${mib} characters`);
  }
  // Catching the refusal does not save the run.
  assert.is((await timed(`try { $crypto.sha256('a'.repeat(${mib + 1})) } catch (e) {} return 1`)).error?.code, 'SANDBOX_LIMIT');
});

test('the return value is bounded in bytes of JSON (sandbox.maxOutputBytes)', async () => {
  const small = createSandbox({ maxOutputBytes: 1000, workers: 1 });
  try {
    assert.is((await small.run('return "x".repeat(998)', { globals: {} })) as string, 'x'.repeat(998));
    for (const code of ['return "x".repeat(999)', 'return "é".repeat(600)', 'return { list: new Array(1e6).fill(0) }']) {
      const r = await timed(code, small);
      assert.is(r.error?.code, 'SANDBOX_LIMIT', code);
      assert.is(r.error?.message, 'code: the return value is larger than 1000 bytes of JSON');
    }
    assert.equal(await small.run('return { ok: true }', { globals: {} }), { ok: true });
  } finally {
    await small.close();
  }
  const big = await timed('return "x".repeat(5 * 1024 * 1024)');
  assert.is(big.error?.code, 'SANDBOX_LIMIT');
  assert.is(big.error?.message, `code: the return value is larger than ${4 * 1024 * 1024} bytes of JSON`);
});

test('a console flood keeps the node log budget, copies nothing more and ends quickly', async () => {
  const weir = await memoryWeir();
  let emitted = 0;
  weir.bus.on('execution:log', () => emitted++);
  // The weir's worker and QuickJS are loaded before anything is timed.
  await runConfig(weir, chain([{ id: 'code-1', type: 'code', config: { code: 'return 1' } }]));
  const started = Date.now();
  const r = await runConfig(weir, chain([{ id: 'code-1', type: 'code', config: { code: "const s = 'S'.repeat(1e6); for (let i = 0; i < 2000; i++) console.log(s); return 1" } }]));
  assert.ok(Date.now() - started < CPU_MS, `${Date.now() - started} ms`);
  assert.is(r.status, 'success', JSON.stringify(r.error));
  const logs = r.nodes['code-1'].logs!;
  assert.is(logs.length, 2);
  assert.is(logs[0].message, `${'S'.repeat(64 * 1024)}…`);
  assert.is(logs[1].message, '1999 more log lines dropped: a node run keeps at most 100 lines and 64K characters');
  assert.is(emitted, 1);
  const flood = await runConfig(weir, chain([{ id: 'code-1', type: 'code', config: { code: 'for (let i = 0; ; i++) console.log("line", i)' } }]));
  assert.is(flood.error?.code, 'SANDBOX_LIMIT');
  assert.is(flood.nodes['code-1'].logs!.length, 101);
  assert.match(flood.nodes['code-1'].logs![100].message, /^\d+ more log lines dropped/);
  await weir.close();
});

test('a cancelled run ends at once with CANCELLED; its worker is replaced and the next run is clean', async () => {
  const controller = new AbortController();
  const started = Date.now();
  const running = sandbox.run('while (true) {}', { globals: {}, signal: controller.signal });
  setImmediate(() => controller.abort());
  const err = await running.catch((e: unknown) => e as WeirError);
  assert.is((err as WeirError).code, 'CANCELLED');
  assert.ok(Date.now() - started < CPU_MS / 2, `${Date.now() - started} ms`);
  assert.is(await sandbox.run('return "next"', { globals: {} }), 'next');
});

test('runs past the pool size wait their turn in order; one cancelled while waiting leaves at once', async () => {
  const order: string[] = [];
  const spinning = sandbox.run('while (true) {}', { globals: {}, cpuMs: 300 }).catch((e: WeirError) => order.push(`spin ${e.code}`));
  const controller = new AbortController();
  const waiting = sandbox.run('return 1', { globals: {}, signal: controller.signal }).catch((e: WeirError) => order.push(`waiting ${e.code}`));
  const after = sandbox.run('return "after"', { globals: {} }).then((v) => order.push(String(v)));
  controller.abort();
  await Promise.all([spinning, waiting, after]);
  assert.equal(order, ['waiting CANCELLED', 'spin SANDBOX_LIMIT', 'after']);
});

test.run();
