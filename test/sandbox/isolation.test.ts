import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { createSandbox } from '../../src/sandbox/index.js';
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
  // Globals named like built-ins shadow them for the run only.
  assert.equal(await run('return [JSON, globalThis.__proto__ === 1]', { JSON: 'mine', ['__proto__']: 1 }), ['mine', true]);
  assert.equal(await run('return [typeof JSON.parse, Object.getPrototypeOf(globalThis) === Object.prototype]'), ['function', false]);
});

// Every run shares one realm with the runs before it on its worker: what code can reach of it. Writes to the
// global object, by any route, last for the run only; the intrinsics cannot be changed at all.
const GLOBAL_WRITES = [
  "Function('return this')().x = 1",
  "(0, eval)('this').y = 1",
  "({}).constructor.constructor('return globalThis')().z = 1",
  "(0, eval)('var q = 1')",
  "(0, eval)('let r = 1; globalThis.r = r')",
];
const ESCAPES = [
  "arguments.callee.constructor.prototype.w = 1",
  'Object.getPrototypeOf(async function () {}).constructor.prototype.u = 1',
  'Object.getPrototypeOf(function* () {}).prototype.g = 1',
  'Object.getPrototypeOf([][Symbol.iterator]()).i = 1',
  'Array.prototype.push = () => 0',
  'Object.prototype.polluted = 1',
  'Object.prototype.toString = () => "forged"',
  'Error.prototype.name = "Forged"',
  "Object.defineProperty(Object.prototype, 'p', { value: 1 })",
  'JSON.parse = null',
  'Math.max = null',
  'Promise.prototype.then = null',
  'Object.setPrototypeOf(Object.prototype, { polluted: 1 })',
];
const REALM_PROBE = `return [
  Function('return [typeof this.x, typeof this.y, typeof this.z, typeof q, typeof r, typeof this.r].join()')(),
  typeof (() => {}).w, typeof (async () => {}).u, typeof (function* () {})().g, typeof [][Symbol.iterator]().i,
  [].push(1), typeof ({}).polluted, typeof ({}).p, String({}), new Error('m').name, JSON.parse('1'), Math.max(1, 2), typeof Promise.prototype.then,
]`;
const REALM_CLEAN = ['undefined,undefined,undefined,undefined,undefined,undefined', 'undefined', 'undefined', 'undefined', 'undefined', 1, 'undefined', 'undefined', '[object Object]', 'Error', 1, 2, 'function'];

test('the shared intrinsics cannot be changed and global writes last for their run: the next run sees nothing', async () => {
  for (const escape of [...GLOBAL_WRITES, ...ESCAPES]) {
    assert.is(await run(`try { ${escape} } catch (e) {} return 'done'`), 'done', escape);
    assert.equal(await run(REALM_PROBE), REALM_CLEAN, escape);
  }
  // Within the run, the global writes happened and the changes to intrinsics did not.
  const all = `${[...GLOBAL_WRITES, ...ESCAPES].map((e) => `try { ${e} } catch (e) {}`).join('\n')}\n${REALM_PROBE}`;
  assert.equal(await run(all), ['number,number,number,number,number,number', ...REALM_CLEAN.slice(1)]);
  assert.equal(await run(REALM_PROBE), REALM_CLEAN);
  assert.is(await run('return typeof FinalizationRegistry'), 'undefined');
});

test('a run that leaves the global object unrestorable gets the realm replaced: the next run starts clean', async () => {
  for (const stuck of [
    "Object.defineProperty(globalThis, 'stuck', { value: 1 })",
    'Object.preventExtensions(globalThis)',
    'Object.setPrototypeOf(globalThis, null)',
    "Object.defineProperty(globalThis, Symbol.for('stuck'), { value: 1 })",
  ]) {
    assert.is(await run(`${stuck}; return 'done'`), 'done', stuck);
    assert.equal(await run("return [typeof stuck, typeof globalThis[Symbol.for('stuck')], Object.isExtensible(globalThis), JSON.stringify([1])]"), ['undefined', 'undefined', true, '[1]'], stuck);
    assert.equal(await run(REALM_PROBE), REALM_CLEAN, stuck);
  }
});

test('strict-mode code that changes the shared realm fails with a TypeError', async () => {
  for (const escape of ['JSON = null', 'Array.prototype.push = () => 0', 'Object.prototype.toString = () => "x"', 'Math.max = null', 'JSON.parse = null']) {
    const err = await failure(`"use strict"\n${escape}`);
    assert.match(err.message, /^code: TypeError: .+ \(line 2\)$/, escape);
  }
  assert.equal(await run(REALM_PROBE), REALM_CLEAN);
});

test('code assigning inherited properties, implicit globals and globalThis works as in a realm of its own', async () => {
  assert.equal(await run('const e = new Error(); e.name = "ValidationError"; e.message = "bad"; e.toString = function () { return "custom" }; return [e.name, e.message, String(e), new Error("x").name]'), ['ValidationError', 'bad', 'custom', 'Error']);
  const subclass = 'class ValidationError extends Error { constructor(m) { super(m); this.name = "ValidationError"; this.status = 422 } }';
  assert.equal(await run(`${subclass} const e = new ValidationError("no"); return [e.name, e instanceof Error, String(e)]`), ['ValidationError', true, 'ValidationError: no']);
  // With a status the error is the caller's answer: its message as thrown.
  const thrown = await failure(`${subclass}\nthrow new ValidationError("no")`);
  assert.equal([thrown.message, thrown.status], ['no', 422]);
  // Without one, the line is where the error was made: the constructor, on line 1.
  const unanswered = await failure(`${subclass.replace(' this.status = 422', '')}\nthrow new ValidationError("no")`);
  assert.equal([unanswered.message, unanswered.status], ['code: ValidationError: no (line 1)', 500]);
  assert.equal(await run('const o = {}; o.toString = () => "x"; o.valueOf = () => 2; o.constructor = "c"; o.hasOwnProperty = 1; return [String(o), o + 1, o.constructor, o.hasOwnProperty]'), ['x', 3, 'c', 1]);
  assert.equal(await run('function F() {} F.prototype.toString = function () { return "F" }; return String(new F())'), 'F');
  assert.is(await run('x = 5; return x'), 5);
  assert.is(await run('globalThis.x = 1; return globalThis.x + x'), 2);
  assert.is(await run('y = 2; return globalThis.y'), 2);
  assert.equal(await run('return [typeof x, typeof y, typeof notDefined]'), ['undefined', 'undefined', 'undefined']);
  assert.is((await failure('return notDefined')).message, "code: ReferenceError: 'notDefined' is not defined (line 1)");
  assert.is((await failure('"use strict"\nimplicit = 3; return implicit')).message, "code: ReferenceError: 'implicit' is not defined (line 2)");
  // A built-in global cannot be reassigned (the assignment does nothing); a declaration of the name can.
  assert.equal(await run('JSON = null; const Map = 1; return [typeof JSON.parse, Map]'), ['function', 1]);
  assert.is(await run('var v = 1; function f() {} return [typeof globalThis.v, typeof globalThis.f].join()'), 'undefined,undefined');
  assert.equal(await run('const a = 3; return [eval("a + 1"), new Function("b", "return b * 2")(21), this === globalThis]'), [4, 42, true]);
  // Code that eval and Function evaluate at the global scope sees the run's globals.
  assert.equal(await run('w = 2; return [Function("return $input.n + w")(), (0, eval)("$input.n")]', { $input: { n: 1 } }), [3, 1]);
  assert.equal(await run('return [typeof Object.keys, Object.keys(globalThis).filter((k) => k.startsWith("$")).sort().join()]', { $input: {} }), ['function', '$crypto,$input']);
});

test('code that closes its own function to run code outside it fails as a syntax error, and leaves nothing', async () => {
  const escaped = '}).call(this) } }); let outside = 1; (function (scope) { with (scope) { return (async function () {';
  const err = await failure(escaped);
  assert.is(err.code, 'EXECUTION_FAILED');
  assert.match(err.message, /^code: SyntaxError: /);
  assert.is((await failure(escaped)).message, err.message);
  assert.is(await run("return Function('return typeof outside')()"), 'undefined');
});

test.run();
