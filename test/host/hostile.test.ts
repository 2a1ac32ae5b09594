// Input built to break the host: deeply nested expressions in a flow, a Code node that recurses or feeds
// itself promises, and dot segments in an interface path. Each fails with a clear error, never an internal
// one, and `weir serve` keeps answering /healthz.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'node:http';
import { createWeir } from '../../src/weir.js';
import { cli, flow, writeJson } from '../_utils.js';
import { chain, publish, send, startServe, tmpDir } from './_helpers.js';

const DEEP = 50_000;
const manual = (template: string) => flow({ type: 'manual_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { v: template } } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }]);

test('expressions nested 50,000 deep are refused with INVALID_CONFIG and a position; 200 deep still run', async () => {
  const home = tmpDir('weir-hostile-');
  const created = await cli(['f', 'create', 'deep', '--json'], { home });
  const { id } = created.json<{ id: string }>();
  const deep: Array<[string, string]> = [
    ['parentheses', `{{ ${'('.repeat(DEEP)}1${')'.repeat(DEEP)} }}`],
    ['negations', `{{ ${'!'.repeat(DEEP)}true }}`],
    ['an operator chain', `{{ 1${' + 1'.repeat(DEEP)} }}`],
    ['nested keys', `{{ ${'$input['.repeat(DEEP)}0${']'.repeat(DEEP)} }}`],
    ['a key chain', `{{ $input${'.a'.repeat(DEEP)} }}`],
    ['conditionals', `{{ ${'true ? '.repeat(DEEP)}1${' : 0'.repeat(DEEP)} }}`],
    ['calls', `{{ ${'string('.repeat(DEEP)}1${')'.repeat(DEEP)} }}`],
  ];
  for (const [what, template] of deep) {
    const file = writeJson(home, 'deep.json', manual(template));
    const r = await cli(['f', 'save', id, file], { home });
    assert.is(r.code, 1, `${what}: ${r.stderr.slice(0, 300)}`);
    assert.match(r.stderr, /expression error at position \d+: the expression nests deeper than 256 levels/, what);
    assert.not.match(r.stderr, /INTERNAL|call stack/i, what);
    assert.ok(r.stderr.length < 2000, `${what}: the error quotes the template around the position only`);
  }
  const file = writeJson(home, 'ok.json', manual(`{{ ${'('.repeat(200)}1 + 1${')'.repeat(200)} }}`));
  assert.is((await cli(['f', 'save', id, file], { home })).code, 0);
  const run = await cli(['f', 'run', id, '--json'], { home });
  assert.is(run.json().result.v, 2, run.stderr);
});

test('a Code node that recurses without end or feeds itself promises fails with SANDBOX_LIMIT; /healthz answers', async () => {
  const home = tmpDir('weir-hostile-');
  // The answer carries the recorded error (its SANDBOX_LIMIT code and message) only with exposeErrors.
  writeJson(home, 'weir.config.json', { webhook: { exposeErrors: true } });
  const weir = await createWeir({ home });
  const c = chain('webhook_trigger', [{ type: 'code', config: { code: 'return eval($input.body.code)' } }]);
  const { token } = await publish(weir, 'runner', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  await weir.close();
  const host = await startServe(home);
  const run = (code: string) => send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ code }), headers: { 'content-type': 'application/json' } });
  try {
    const hostile: Array<[string, RegExp]> = [
      ['(function f(n) { return f(n + 1) + 1 })(0)', /call stack limit exceeded/],
      ['(() => { const loop = () => Promise.resolve().then(loop); return loop() })()', /CPU time limit|memory limit/],
      ['(async function f() { await null; return f() })()', /limit/],
      ['(() => { let a = []; for (let i = 0; i < 1e5; i++) a = [a]; return a })()', /limit/],
    ];
    for (const [code, message] of hostile) {
      const r = await run(code);
      assert.is(r.json?.error?.code, 'SANDBOX_LIMIT', `${code}: ${r.text}`);
      assert.match(r.json.error.message, message, `${code}: ${r.json.error.message}`);
      assert.not.match(r.text, /quickjs|Aborted|Assertion|sandbox failed/i, code);
      assert.is((await send(`${host.url}/healthz`, { method: 'GET' })).status, 200);
    }
    const after = await run('21 * 2');
    assert.is(after.status, 200, `the sandbox works after a broken run: ${after.text}`);
    assert.is(after.json, 42);
  } finally {
    await host.stop();
  }
});

/** GET with the path sent exactly as written (fetch would resolve the dot segments first). */
const rawGet = (base: string, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(base);
    request({ hostname, port, path }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });

test('interface paths with dot segments answer 404, never 500', async () => {
  const host = await startServe(tmpDir('weir-hostile-'));
  try {
    for (const path of ['/i/%2e%2e/x/index.html', '/i/../x', '/i/%2e/x', '/i/%2E%2e/', '/i/..%2f..%2fetc/passwd']) {
      const r = await rawGet(host.url, path);
      assert.is(r.status, 404, `${path}: ${r.body}`);
      assert.is(JSON.parse(r.body).error.code, 'NOT_FOUND', path);
    }
    assert.is((await send(`${host.url}/healthz`, { method: 'GET' })).status, 200);
    assert.not.match(host.output(), /Invalid key|internal error/i);
  } finally {
    await host.stop();
  }
});

test.run();
