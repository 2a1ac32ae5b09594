import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { cli, flow, tmpDir, writeJson } from '../_utils.js';
import { runCli } from '../../src/cli/run.js';
import { createMasker } from '../../src/flow/masking.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function home() {
  const dir = tmpDir('weir-mask-');
  const weir = async (...args: string[]) => {
    const r = await cli(args, { home: dir });
    assert.is(r.code, 0, `weir ${args.join(' ')}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return r;
  };
  return { dir, weir };
}

/** A workflow of a manual trigger and one node, saved on the home. */
async function workflow(h: ReturnType<typeof home>, node: Record<string, unknown>): Promise<string> {
  const { id } = (await h.weir('workflows', 'create', `wf-${randomBytes(3).toString('hex')}`, '--json')).json();
  const nodeId = `${node.type}-1`;
  const config = flow({ type: 'manual_trigger' }, [{ id: nodeId, ...node }], [{ id: 'e1', source: 'manual_trigger-1', target: nodeId }]);
  await h.weir('workflows', 'save', id, writeJson(h.dir, 'flow.json', config));
  return id;
}

test('a short secret (and one inside the workflow id) rewrites no id, time, node id or storage path', async () => {
  const h = home();
  const id = await workflow(h, { type: 'set', config: { values: { debug: '{{ $env.DEBUG }}', part: '{{ $env.ID_PART }}' } } });
  await h.weir('secrets', 'set', 'DEBUG', '1');
  await h.weir('secrets', 'set', 'ID_PART', id.slice(3));
  const run = (await h.weir('workflows', 'run', id, '--json')).json();
  assert.match(run.executionId, /^exec_[a-z0-9]+$/);
  // Values under 6 characters are not masked; a longer one is, in data.
  assert.equal(run.result, { debug: '1', part: '***' });

  const record = (await h.weir('workflows', 'execution', run.executionId, '--json')).json();
  assert.is(record.id, run.executionId);
  assert.is(record.workflowId, id);
  assert.is(record.status, 'success');
  assert.match(record.startedAt, ISO);
  assert.match(record.finishedAt, ISO);
  assert.equal(Object.keys(record.nodes), ['manual_trigger-1', 'set-1']);
  for (const node of Object.values<any>(record.nodes)) {
    assert.match(node.startedAt, ISO);
    assert.is(node.status, 'success');
  }
  assert.ok(existsSync(join(h.dir, 'cloud', 'executions', 'runs', id)), `stored under the workflow id: ${readdirSync(join(h.dir, 'cloud', 'executions', 'runs'))}`);
  const listed = (await h.weir('workflows', 'executions', id, '--json')).json();
  assert.equal(listed.map((r: any) => r.id), [run.executionId]);
  assert.match(listed[0].startedAt, ISO);
});

test('a secret is masked in data with its base64, hex, URL and JSON-escaped forms; keys are kept', async () => {
  const h = home();
  const value = `p@ss w/rd+${randomBytes(6).toString('hex')}"`;
  await h.weir('secrets', 'set', 'API_TOKEN', value);
  await h.weir('secrets', 'set', 'FIELD', 'customer_email');
  const b64 = `const b = (t) => { const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'; let o = '';
    for (let i = 0; i < t.length; i += 3) { const n = (t.charCodeAt(i) << 16) | ((t.charCodeAt(i + 1) || 0) << 8) | (t.charCodeAt(i + 2) || 0);
      o += A[(n >> 18) & 63] + A[(n >> 12) & 63] + (i + 1 < t.length ? A[(n >> 6) & 63] : '=') + (i + 2 < t.length ? A[n & 63] : '='); } return o; };`;
  const hex = `const h = (t) => Array.from(t, (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');`;
  const code = `${b64} ${hex} const s = $env.API_TOKEN; console.log('token', s);
    return { plain: 'Bearer ' + s, basic: 'Basic ' + b('ada:' + s), b64: b(s), hex: h(s), HEX: h(s).toUpperCase(), url: '?t=' + encodeURIComponent(s),
      json: JSON.stringify({ token: s }), customer_email: 'customer_email is the field', upper: s.toUpperCase() };`;
  const id = await workflow(h, { type: 'code', config: { code } });
  const run = (await h.weir('workflows', 'run', id, '--json')).json();
  const record = (await h.weir('workflows', 'execution', run.executionId, '--json')).json();
  const data = record.nodes['code-1'].data;
  assert.equal(data.plain, 'Bearer ***');
  // The shifted encoding keeps only the characters shared with the neighbouring bytes.
  assert.match(data.basic, /^Basic YWRh.{0,2}\*\*\*.{0,3}$/);
  assert.equal([data.b64, data.hex, data.HEX, data.url, data.json], ['***', '***', '***', '?t=***', '{"token":"***"}']);
  assert.is(data.customer_email, '*** is the field', 'the value is masked, its key is not');
  assert.is(data.upper, value.toUpperCase(), 'transformed values are out of reach (the docs say so)');
  const text = JSON.stringify(record);
  for (const form of [value, Buffer.from(value).toString('base64'), Buffer.from(value).toString('hex'), encodeURIComponent(value)]) {
    assert.not.ok(text.includes(form), `${form} leaked`);
  }
  assert.equal(run.result, data, 'the printed result is masked the same way');
});

test('finds: a record\'s JSON holds a secret exactly when masking would change it (a checkpoint without one is stored as it is)', () => {
  const value = 'p@ss w/rd"\\x';
  const mask = createMasker([value, 'short']);
  const forms = { plain: `Bearer ${value}`, b64: Buffer.from(value).toString('base64'), hex: Buffer.from(value).toString('hex'), url: encodeURIComponent(value), nested: [{ json: JSON.stringify({ value }) }] };
  for (const [name, data] of Object.entries(forms)) {
    const json = JSON.stringify({ nodes: { 'set-1': { data } } });
    assert.ok(mask.finds(json), `${name} found`);
    assert.not.equal(mask(data), data, `${name} masked`);
  }
  const clean = { nodes: { 'set-1': { data: { text: 'nothing short here', [value]: 'a key is kept' } } } };
  assert.equal(mask(clean.nodes['set-1'].data), { text: 'nothing short here', [value]: 'a key is kept' });
  assert.not.ok(mask.finds(JSON.stringify({ text: 'nothing here', n: 1 })));
  assert.not.ok(createMasker([]).finds(JSON.stringify(forms)), 'no secret: nothing is ever found');
});

test('secrets set reads the value from stdin (`-` or no value) and from --file, dropping one final newline', async () => {
  const dir = tmpDir('weir-mask-');
  const weir = (args: string[], input?: string) => cli(args, { home: dir, input });
  const get = async (key: string) => (await weir(['secrets', 'get', key, '--json'])).json().value;
  assert.is((await weir(['secrets', 'set', 'DASH', '-'], 'from dash\n')).code, 0);
  assert.is(await get('DASH'), 'from dash');
  assert.is((await weir(['secrets', 'set', 'PIPED'], 'two lines\nkept\n\n')).code, 0);
  assert.is(await get('PIPED'), 'two lines\nkept\n');
  writeFileSync(join(dir, 'value.txt'), 'from a file\r\n');
  assert.is((await weir(['secrets', 'set', 'FILED', '--file', 'value.txt'])).code, 0);
  assert.is(await get('FILED'), 'from a file');

  const empty = await weir(['secrets', 'set', 'PIPED']);
  assert.is(empty.code, 1);
  assert.match(empty.stderr, 'standard input is empty');
  assert.is(await get('PIPED'), 'two lines\nkept\n', 'a forgotten pipe never blanks a secret');
  const both = await weir(['secrets', 'set', 'X', 'v', '--file', 'value.txt']);
  assert.is(both.code, 2);
  assert.match(both.stderr, 'not both');
  const missing = await weir(['secrets', 'set', 'X', '--file', 'nope.txt']);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, 'file not found: nope.txt');
});

test('secrets set with no value on a terminal is a usage error saying how to pass it', async () => {
  const dir = tmpDir('weir-mask-');
  const terminal = Object.assign(Readable.from([]), { isTTY: true });
  let stderr = '';
  const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (stderr += s) }, stdin: terminal, cwd: dir, env: {} };
  assert.is(await runCli(['--home', dir, 'secrets', 'set', 'KEY'], io), 2);
  assert.match(stderr, 'standard input is a terminal');
  assert.match(stderr, '--file <path>');
});

test.run();
