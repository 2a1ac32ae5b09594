import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, createHmac } from 'node:crypto';
import { createSandbox } from '../../src/sandbox/index.js';
import { runner } from './_helpers.js';
import { chain, fixture, memoryWeir, runConfig } from '../flow/_flows.js';

const sandbox = createSandbox({ cpuMs: 300, memoryMb: 16 });
const { run, failure } = runner(sandbox);


test('code is a function body: globals in, JSON out', async () => {
  assert.is(await run('return $input.a * 2', { $input: { a: 21 } }), 42);
  assert.equal(await run('return { list: [1, "two", null], nested: { ok: true } }'), { list: [1, 'two', null], nested: { ok: true } });
  assert.is(await run('const x = 1;'), undefined);
  assert.is(await run('return await Promise.resolve(7)'), 7);
  assert.equal(await run('return new Date(0)'), '1970-01-01T00:00:00.000Z');
});

test('code that makes promises without awaiting them: their jobs run before the result is taken, with the globals in place', async () => {
  const lines: string[] = [];
  const log = (message: string) => void lines.push(message);
  const value = await sandbox.run('const o = { a: 1 }; Promise.resolve().then(() => { o.a = $input.a; console.log("later", $input.a) }); console.log("first"); return o', { globals: { $input: { a: 2 } }, log });
  assert.equal(value, { a: 2 });
  assert.equal(lines, ['first', 'later 2']);
  lines.length = 0;
  const thrown = await sandbox.run('Promise.resolve().then(() => console.log("after the throw")); throw new Error("no")', { globals: {}, log }).catch((err: Error) => err);
  assert.is((thrown as Error).message, 'code: no (line 1)');
  assert.equal(lines, ['after the throw']);
  assert.is(await run('return { then(resolve) { resolve(5) } }'), 5);
  assert.is(await run('return Promise.resolve(6)'), 6);
  assert.is(await run('// await is only a word here\nreturn 7'), 7);
  assert.is((await failure('return { get then() { throw new Error("bad then") } }')).message, 'code: bad then (line 1)');
});

test('the boundary: no process, require, fs, network, host globals or a way to reach them', async () => {
  assert.is(await run('return typeof process'), 'undefined');
  assert.is(await run('return typeof require'), 'undefined');
  assert.is(await run('return [typeof fetch, typeof XMLHttpRequest, typeof setTimeout, typeof Buffer, typeof module].join()'), 'undefined,undefined,undefined,undefined,undefined');
  assert.match((await failure('return globalThis.constructor.constructor("return process")().env')).message, /'process' is not defined/);
  assert.match((await failure('return (function(){}).constructor("return require")()("fs")')).message, /'require' is not defined/);
  assert.match((await failure('return this.process.mainModule')).message, /TypeError/);
  assert.is(await run('return Object.keys(globalThis).filter((k) => k.startsWith("$")).sort().join()', { $input: {} }), '$crypto,$input');
  // Host functions hand back only values: no host object leaks through $crypto.
  assert.is(await run('return $crypto.hmac.constructor("return typeof process")()'), 'undefined');
});

test('an infinite loop stops at the CPU limit with a clear error, even when it catches the interrupt', async () => {
  const started = Date.now();
  const loop = await failure('while (true) {}');
  assert.is(loop.code, 'SANDBOX_LIMIT');
  assert.match(loop.message, 'CPU time limit of 300 ms exceeded');
  assert.ok(Date.now() - started < 3000);
  const sneaky = await failure('for (;;) { try { while (true) {} } catch (e) {} }');
  assert.is(sneaky.code, 'SANDBOX_LIMIT');
  const caught = await failure('try { while (true) {} } catch (e) { return "escaped" }');
  assert.is(caught.code, 'SANDBOX_LIMIT');
});

test('a memory bomb stops at the memory limit, and the sandbox keeps working afterwards', async () => {
  for (const bomb of ['const a = []; for (;;) a.push(new Array(100000).fill(1))', 'const o = {}; for (let i = 0; ; i++) o["k" + i] = "v".repeat(100) + i', 'return new Array(1e8).fill(0).length']) {
    const err = await failure(bomb);
    assert.is(err.code, 'SANDBOX_LIMIT', bomb);
    assert.match(err.message, /memory limit of 16 MB exceeded|CPU time limit/, bomb);
  }
  assert.is(await run('return 1 + 1'), 2);
});

test('a throw fails with its message (and line); a numeric status becomes the HTTP status', async () => {
  const plain = await failure('\nthrow new Error("nope")');
  assert.is(plain.code, 'EXECUTION_FAILED');
  assert.is(plain.message, 'code: nope (line 2)');
  assert.is(plain.status, 500);
  const typed = await failure('const e = new Error("unauthorized"); e.status = 401; throw e');
  assert.is(typed.status, 401);
  assert.is(typed.message, 'unauthorized', 'a status error is the answer to the caller: its message as thrown');
  assert.is((await failure('throw { status: 403, message: "forbidden" }')).status, 403);
  assert.match((await failure('throw "just a string"')).message, 'just a string');
  assert.match((await failure('return null.x')).message, /TypeError/);
  assert.match((await failure('return {')).message, /SyntaxError/);
  assert.match((await failure('const a = {}; a.self = a; return a')).message, 'not JSON-serializable');
});

test('$crypto: hmac, sha256 and timingSafeEqual match node:crypto', async () => {
  const expected = createHmac('sha256', 'key').update('data').digest('hex');
  assert.is(await run('return $crypto.hmac("sha256", "key", "data", "hex")'), expected);
  assert.is(await run('return $crypto.hmac("sha1", "key", "data", "base64")'), createHmac('sha1', 'key').update('data').digest('base64'));
  assert.is(await run('return $crypto.sha256("abc")'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(await run('return [$crypto.timingSafeEqual("abc", "abc"), $crypto.timingSafeEqual("abc", "abd"), $crypto.timingSafeEqual("abc", "abcd")]'), [true, false, false]);
  assert.match((await failure('return $crypto.hmac("md4", "k", "d")')).message, 'algorithm must be one of');
  assert.match((await failure('return $crypto.sha256(42)')).message, 'must be a string');
});

test('strings holding a NUL cross whole: $crypto hashes and compares past it, console and thrown messages keep it; code holding one fails clearly', async () => {
  const withNul = 'signed\u0000appended';
  assert.is(await run('return $crypto.hmac("sha256", "k\\u0000ey", $input.body, "hex")', { $input: { body: withNul } }), createHmac('sha256', 'k\u0000ey').update(withNul).digest('hex'));
  assert.is(await run('return $crypto.sha256($input.body)', { $input: { body: withNul } }), createHash('sha256').update(withNul).digest('hex'));
  assert.equal(await run('return [$crypto.timingSafeEqual("a\\u0000b", "a\\u0000c"), $crypto.timingSafeEqual("a\\u0000b", "a\\u0000b"), $crypto.timingSafeEqual("a\\u0000", "a")]'), [false, true, false]);
  const lines: string[] = [];
  await sandbox.run('console.log("before\\u0000after", 1)', { globals: {}, log: (message) => void lines.push(message) });
  assert.equal(lines, ['before\u0000after 1']);
  // In the code's own text a NUL would end it (QuickJS takes C text): such code fails as a syntax error, every time.
  for (let i = 0; i < 2; i++) assert.match((await failure('return "a\u0000b"')).message, 'code: SyntaxError: the code holds a NUL character (U+0000)');
  assert.is(await run('return "a\\u0000b".length'), 3);
  // A thrown message keeps what follows a NUL, whether an error's message or a thrown string.
  assert.is((await failure('throw new Error("bad\\u0000tail")')).message, 'code: bad\u0000tail (line 1)');
  assert.is((await failure('throw "x\\u0000y"')).message, 'code: x\u0000y');
});

test('GitHub X-Hub-Signature-256 verification in a Code node: passes with the right secret, 401 on mismatch', async () => {
  const weir = await memoryWeir();
  await weir.secrets.set('GITHUB_WEBHOOK_SECRET', 'It\'s a Secret to Everybody');
  const rawBody = '{"action":"opened","number":1}';
  const sign = (secret: string) => `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
  const delivery = (signature: string) => ({ body: JSON.parse(rawBody), rawBody, headers: { 'x-hub-signature-256': signature, 'x-github-event': 'pull_request' }, query: {}, method: 'POST' });
  const answers: unknown[] = [];
  const ok = await runConfig(weir, fixture('github-signature'), delivery(sign("It's a Secret to Everybody")), { trigger: 'webhook', onRespond: (a: unknown) => answers.push(a) });
  assert.is(ok.status, 'success', JSON.stringify(ok.error));
  assert.equal(ok.nodes['code-1'].data, { verified: true, action: 'opened' });
  assert.equal(answers, [{ status: 200, body: { ok: true, action: 'opened' } }]);

  const bad = await runConfig(weir, fixture('github-signature'), delivery(sign('wrong secret')), { trigger: 'webhook' });
  assert.is(bad.status, 'error');
  assert.equal(bad.error, { code: 'EXECUTION_FAILED', message: 'signature mismatch', status: 401, node: 'code-1' });
  assert.is(bad.nodes['respond-1'], undefined);
  const unsigned = await runConfig(weir, fixture('github-signature'), { ...delivery(''), headers: {} }, { trigger: 'webhook' });
  assert.is(unsigned.error?.status, 401);
  await weir.close();
});

test('a Code node sees $input, $node, $env and $now; console.log goes to the execution log; timeoutMs lowers the CPU limit', async () => {
  const weir = await memoryWeir({ config: { env: { allow: ['APP_NAME'] } }, env: { APP_NAME: 'demo', HIDDEN: 'x' } });
  const logs: string[] = [];
  weir.bus.on('execution:log', (e: any) => logs.push(e.message));
  const r = await runConfig(
    weir,
    chain([
      { id: 'set-1', type: 'set', config: { values: { v: 2 } } },
      { id: 'code-1', type: 'code', config: { code: 'console.log("seen", $node["set-1"].data.v); return { v: $node["set-1"].data.v * $input.k, app: $env.APP_NAME, hidden: $env.HIDDEN ?? null, now: typeof $now }' } },
    ]),
    { k: 5 },
  );
  assert.equal(r.nodes['code-1'].data, { v: 10, app: 'demo', hidden: null, now: 'string' });
  assert.equal(logs, ['seen 2']);
  const slow = await runConfig(weir, chain([{ id: 'code-1', type: 'code', config: { code: 'while (true) {}', timeoutMs: 50 } }]));
  assert.is(slow.error?.code, 'SANDBOX_LIMIT');
  assert.match(slow.error!.message, '50 ms');
  await weir.close();
});

test.run();
