// Webhook bodies as real senders send them: compressed, in other charsets, binary, multipart; the flow gets
// the bytes intact or a clear refusal, never garbage.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { createWeir } from '../../src/weir.js';
import { chain, publish, startHost, startServe, tmpDir, until } from './_helpers.js';

let host: Awaited<ReturnType<typeof startHost>>;
let echo: string;

test.before(async () => {
  host = await startHost();
  const c = chain('webhook_trigger', [{ type: 'respond', config: { status: 200, body: '{{ $input }}' } }]);
  const f = await publish(host.weir, 'echo', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  echo = `${host.url}/trigger/${f.token}`;
});
test.after(() => host.close());

/** Posts raw bytes with the given headers to the echo flow. */
const post = async (body: Buffer | FormData, headers: Record<string, string> = {}) => {
  const res = await fetch(echo, { method: 'POST', body: body as BodyInit, headers });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
};

test('gzip, deflate (zlib and raw), br and stacked codings are decoded before parsing', async () => {
  const json = JSON.stringify({ name: 'José', list: [1, 2] });
  for (const [coding, bytes] of [
    ['gzip', gzipSync(json)],
    ['deflate', deflateSync(json)],
    ['deflate', deflateRawSync(json)],
    ['br', brotliCompressSync(json)],
    ['deflate, gzip', gzipSync(deflateSync(json))],
  ] as const) {
    const r = await post(bytes, { 'content-type': 'application/json', 'content-encoding': coding });
    assert.is(r.status, 200, `${coding}: ${r.text}`);
    assert.equal(r.json.body, { name: 'José', list: [1, 2] }, coding);
    assert.is(r.json.rawBody, json, coding);
  }
  const text = await post(gzipSync('héllo wörld ✓'), { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
  assert.is(text.json.body, 'héllo wörld ✓');
});

test('a zip bomb past the body limit gets 413; an unknown coding 415; corrupt data 400', async () => {
  const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
  assert.ok(bomb.length < 64 * 1024, 'small on the wire');
  const r = await post(bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  assert.is(r.status, 413);
  assert.is(r.json.error.code, 'PAYLOAD_TOO_LARGE');
  const compress = await post(Buffer.from('x'), { 'content-type': 'text/plain', 'content-encoding': 'compress' });
  assert.is(compress.status, 415);
  assert.is(compress.json.error.code, 'UNSUPPORTED_MEDIA_TYPE');
  assert.match(compress.json.error.message, 'compress');
  const corrupt = await post(Buffer.from('not gzip at all'), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  assert.is(corrupt.status, 400);
  assert.is(corrupt.json.error.code, 'INVALID_INPUT');
});

test('a declared charset is honoured for forms and text; an unknown one gets 415', async () => {
  const form = await post(Buffer.from('name=Jos%E9&city=S%E3o+Paulo'), { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' });
  assert.equal(form.json.body, { name: 'José', city: 'São Paulo' });
  const text = await post(Buffer.from([0x4a, 0x6f, 0x73, 0xe9]), { 'content-type': 'text/plain; charset=ISO-8859-1' });
  assert.is(text.json.body, 'José');
  assert.is(text.json.rawBody, 'José');
  const quoted = await post(Buffer.from('{"n":"\u00e9"}', 'utf16le'), { 'content-type': 'application/json; charset="UTF-16LE"' });
  assert.equal(quoted.json.body, { n: 'é' });
  const unknown = await post(Buffer.from('x'), { 'content-type': 'text/plain; charset=klingon-8' });
  assert.is(unknown.status, 415);
  assert.match(unknown.json.error.message, 'klingon-8');
});

test('an octet-stream body with every byte value round-trips as base64', async () => {
  const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const r = await post(bytes, { 'content-type': 'application/octet-stream' });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json.body, { contentType: 'application/octet-stream', size: 256, base64: bytes.toString('base64') });
  assert.is(r.json.rawBody, null);
  assert.ok(Buffer.from(r.json.body.base64, 'base64').equals(bytes));
});

test('multipart/form-data: text fields as strings, a binary file intact', async () => {
  const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i));
  const form = new FormData();
  form.append('note', 'héllo');
  form.append('tag', 'a');
  form.append('tag', 'b');
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'pixels.png');
  const r = await post(form);
  assert.is(r.status, 200, r.text);
  assert.equal(r.json.body, { note: 'héllo', tag: ['a', 'b'], file: { filename: 'pixels.png', contentType: 'image/png', size: 256, base64: bytes.toString('base64') } });
  const broken = await post(Buffer.from('--x\r\nnope'), { 'content-type': 'multipart/form-data; boundary=x' });
  assert.is(broken.status, 400);
});

// Found by the webhook-body property (issue #34): names were read as latin1 ("é" came as "Ã©"), and a file
// part took its place only once its bytes ended, after the fields that follow it.
test('multipart/form-data: UTF-8 field and file names, and a repeated name in body order with files', async () => {
  const form = new FormData();
  form.append('pièce', new Blob([Buffer.from('pdf')], { type: 'application/pdf' }), 'résumé 履歴書.pdf');
  form.append('pièce', 'note');
  form.append('名前', 'José');
  const r = await post(form);
  assert.is(r.status, 200, r.text);
  const file = { filename: 'résumé 履歴書.pdf', contentType: 'application/pdf', size: 3, base64: Buffer.from('pdf').toString('base64') };
  assert.equal(r.json.body, { pièce: [file, 'note'], 名前: 'José' });
  assert.equal(Object.keys(r.json.body), ['pièce', '名前']);
});

test('a capture session stores the same decoded body', async () => {
  const { id, webhookToken } = await host.weir.workflows.create('captured');
  await host.weir.capture.listen(id);
  const res = await fetch(`${host.url}/trigger/${webhookToken}`, {
    method: 'POST',
    body: gzipSync(Buffer.from('name=Jos%E9', 'latin1')),
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1', 'content-encoding': 'gzip' },
  });
  assert.equal(await res.json(), { captured: true });
  const status = await until(async () => {
    const s = await host.weir.capture.poll(id);
    return s.state === 'captured' && s;
  });
  assert.equal(status.request!.body, { name: 'José' });
});

test('after SIGKILL and a restart the replayed delivery sees the same rawBody; --max-body bounds decoded bytes', async () => {
  const home = tmpDir('weir-body-replay-');
  const setup = await createWeir({ home });
  const c = chain('webhook_trigger', [{ type: 'delay', config: { ms: 1500 } }, { type: 'code', config: { code: 'return { rawBody: $input.rawBody }' } }]);
  const { token } = await publish(setup, 'replayed', { type: 'webhook_trigger' }, c.nodes, c.edges);
  await setup.close();
  const body = '{\r\n  "text": "line\\nbreak \\u00e9 \u2028 ünï",\n  "n": 1.50\n}\n';

  const first = await startServe(home, ['--max-body', '4096']);
  const bomb = await fetch(`${first.url}/trigger/${token}`, { method: 'POST', body: gzipSync(Buffer.alloc(8192, 0x20)), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
  assert.is(bomb.status, 413, 'inflated past --max-body');
  const res = await fetch(`${first.url}/trigger/${token}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  assert.is(res.status, 200);
  const { executionId } = await res.json();
  await first.stop('SIGKILL');

  const second = await startServe(home);
  const reader = await createWeir({ home });
  try {
    const record = await until(async () => {
      const r = await reader.executions.get(executionId).catch(() => null);
      return r?.status === 'success' && r;
    }, 20_000, 'the replayed delivery to finish');
    assert.is((record.input as { rawBody: string }).rawBody, body);
    assert.equal(record.nodes['code-2'].data, { rawBody: body });
  } finally {
    await reader.close();
    await second.stop();
  }
});

test.run();
