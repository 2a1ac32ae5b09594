import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { createSandbox } from '../../src/index.js';
import { runner } from './_helpers.js';

// One worker: every run below lands on the same thread, after the run before it.
const sandbox = createSandbox({ workers: 1, cpuMs: 300, memoryMb: 16, maxOutputBytes: 1000 });
test.after(() => sandbox.close());
const { run, failure } = runner(sandbox);


const LEAK = 'globalThis.leaked = 1; var leakedVar = 2; Object.prototype.polluted = 3; Array.prototype.push = function () { return "hijacked" }; JSON.stringify = () => "forged";';
const PROBE = 'return [typeof leaked, typeof leakedVar, typeof ({}).polluted, [].push(1), JSON.stringify({ a: 1 })]';
const CLEAN = ['undefined', 'undefined', 'undefined', 1, '{"a":1}'];

test('a global or prototype changed by one run is invisible to the next, with the same code or another', async () => {
  const same = `const seen = [typeof leaked, typeof leakedVar, typeof ({}).polluted, [].push(1)]; ${LEAK} return seen`;
  assert.equal(await run(same), CLEAN.slice(0, 4));
  assert.equal(await run(same), CLEAN.slice(0, 4));
  assert.equal(await run(PROBE), CLEAN);
});

test('$crypto and console are fresh in every run: replaced or extended helpers do not carry over', async () => {
  const expected = createHmac('sha256', 'k').update('d').digest('hex');
  assert.is(await run('$crypto.hmac = () => "forged"; $crypto.extra = 1; console.log = null; return $crypto.hmac()'), 'forged');
  assert.equal(await run('return [$crypto.hmac("sha256", "k", "d"), typeof $crypto.extra, typeof console.log]'), [expected, 'undefined', 'function']);
  assert.is(await run('$crypto = null; console = 1; return typeof console'), 'number');
  assert.equal(await run('return [typeof $crypto.sha256, typeof console.log]'), ['function', 'function']);
  // The console budget is per run too: a run that spent it leaves the next one its whole budget.
  const lines: string[] = [];
  const logLimits = { lines: 2, chars: 100 };
  await sandbox.run('for (let i = 0; i < 5; i++) console.log("first", i)', { globals: {}, logLimits, log: (m) => lines.push(m) });
  await sandbox.run('console.log("second", 0); console.log("second", 1)', { globals: {}, logLimits, log: (m) => lines.push(m) });
  assert.equal(lines, ['first 0', 'first 1', 'second 0', 'second 1']);
});

test('after each broken limit the next run on the same worker is clean and sees no state of the broken one', async () => {
  const broken = [
    ['cpu', `${LEAK} while (true) {}`, 'code: CPU time limit of 300 ms exceeded'],
    ['memory', `${LEAK} const a = []; for (;;) a.push(new Array(100000).fill(1))`, /^code: (memory limit of 16 MB|CPU time limit of 300 ms) exceeded$/],
    ['output', `${LEAK} return "x".repeat(2000)`, 'code: the return value is larger than 1000 bytes of JSON'],
    ['stack', `${LEAK} function f() { return f() } return f()`, 'code: call stack limit exceeded (recursion too deep)'],
  ] as const;
  for (const [limit, code, message] of broken) {
    const err = await failure(code);
    assert.is(err.code, 'SANDBOX_LIMIT', limit);
    if (typeof message === 'string') assert.is(err.message, message, limit);
    else assert.match(err.message, message, limit);
    assert.equal(await run(PROBE), CLEAN, `after the ${limit} limit`);
    assert.is(await run('return $input.n + 1', { $input: { n: 1 } }), 2, `after the ${limit} limit`);
  }
});

test('a run whose promise never settles or that throws leaves nothing behind for the next', async () => {
  const pending = await failure(`${LEAK} await new Promise(() => {})`);
  assert.match(pending.message, 'the returned promise never settled');
  assert.equal(await run(PROBE), CLEAN);
  const thrown = await failure(`${LEAK} Promise.resolve().then(() => { globalThis.late = 1 }); throw new Error("stop")`);
  assert.is(thrown.message, 'code: stop (line 1)');
  assert.equal(await run('return [typeof late, typeof leaked]'), ['undefined', 'undefined']);
});

test('code that does not compile fails the same way every time, and other code still runs', async () => {
  const first = await failure('\nreturn {');
  assert.is(first.code, 'EXECUTION_FAILED');
  assert.match(first.message, /^code: SyntaxError: .+ \(line \d\)$/);
  const again = await failure('\nreturn {');
  assert.is(again.message, first.message);
  assert.is(await run('return "compiles"'), 'compiles');
});

test('inputs cross as data: every global arrives, a member without a value is absent', async () => {
  const globals = { $input: { a: [1, { b: 'é' }] }, $node: { 'set-1': { data: { v: 2 } } }, $env: { APP: 'x' }, $now: '2026-01-01T00:00:00.000Z', $skipped: undefined };
  assert.equal(await run('return [$input, $node["set-1"].data.v, $env.APP, $now, typeof $skipped]', globals), [globals.$input, 2, 'x', globals.$now, 'undefined']);
  assert.is(await run('return'), undefined);
});

test.run();
