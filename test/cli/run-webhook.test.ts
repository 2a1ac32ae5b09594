import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, flow, tmpDir, writeJson } from '../_utils.js';

// `weir workflows run` of a webhook flow: --input is the request body, --method/--header/--query the rest,
// so the flow gets what a real delivery of that request gives it.

/** A webhook flow whose Code node echoes its request, with a SHA-256 of the raw body it got. */
async function echoFlow(home: string, name = 'echo') {
  const code = 'return { body: $input.body, method: $input.method, headers: $input.headers, query: $input.query, rawBody: $input.rawBody, rawSha: $crypto.sha256($input.rawBody) }';
  const config = flow({ type: 'webhook_trigger', config: { respondImmediately: false } }, [{ id: 'code-1', type: 'code', config: { code } }], [{ id: 'e1', source: 'webhook_trigger-1', target: 'code-1' }]);
  assert.is((await cli(['f', 'create', name], { home })).code, 0);
  const saved = await cli(['f', 'save', name, writeJson(home, `${name}.json`, config)], { home });
  assert.is(saved.code, 0, `${saved.stderr}${saved.stdout}`);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

test('--input is the request body; --method, --header and --query give the rest of the request', async () => {
  const home = tmpDir();
  await echoFlow(home);
  const body = '{ "name" : "Ada" }';
  const r = await cli(['f', 'run', 'echo', '--input', body, '--method', 'put', '--header', 'X-Hub-Signature-256=sha256=ab', '--header', 'x-tag=a', '--header', 'X-Tag=b', '--query', 'page=2', '--query', 'tag=x', '--query', 'tag=y', '--json'], { home });
  assert.is(r.code, 0, `${r.stderr}${r.stdout}`);
  assert.equal(r.json().result, {
    body: { name: 'Ada' },
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=ab', 'x-tag': 'a, b' },
    query: { page: '2', tag: ['x', 'y'] },
    rawBody: body,
    rawSha: sha256(body),
  });
  const record = (await cli(['f', 'execution', r.json().executionId, '--json'], { home })).json();
  assert.equal([record.input.body, record.input.rawBody, record.nodes['webhook_trigger-1'].data.body], [{ name: 'Ada' }, body, { name: 'Ada' }], 'the record keeps the request as the flow got it');
});

test('a webhook flow run without --input gets an empty POST; --input-file is read as the body', async () => {
  const home = tmpDir();
  await echoFlow(home);
  const bare = await cli(['f', 'run', 'echo', '--json'], { home });
  assert.is(bare.code, 0, `${bare.stderr}${bare.stdout}`);
  assert.equal(bare.json().result, { body: {}, method: 'POST', headers: {}, query: {}, rawBody: '', rawSha: sha256('') });

  const text = '{\n  "list": [1, 2]\n}\n';
  writeFileSync(join(home, 'body.json'), text);
  const fromFile = await cli(['f', 'run', 'echo', '--input-file', 'body.json', '--json'], { home });
  assert.is(fromFile.code, 0, `${fromFile.stderr}${fromFile.stdout}`);
  assert.equal(fromFile.json().result.body, { list: [1, 2] });
  assert.is(fromFile.json().result.rawSha, sha256(text));
});

test('a content-type header decodes the body as the host does (a form); broken JSON is an error of --input', async () => {
  const home = tmpDir();
  await echoFlow(home);
  const form = await cli(['f', 'run', 'echo', '--header', 'content-type=application/x-www-form-urlencoded', '--input', 'name=Ada&tag=a&tag=b', '--json'], { home });
  assert.is(form.code, 0, `${form.stderr}${form.stdout}`);
  assert.equal(form.json().result.body, { name: 'Ada', tag: ['a', 'b'] });
  assert.is(form.json().result.rawBody, 'name=Ada&tag=a&tag=b');

  const broken = await cli(['f', 'run', 'echo', '--input', '{"name":'], { home });
  assert.is(broken.code, 1);
  assert.match(broken.stderr, /^error: --input is not valid JSON/);
  const pair = await cli(['f', 'run', 'echo', '--header', 'no-value'], { home });
  assert.is(pair.code, 2);
  assert.match(pair.stderr, '--header takes name=value, got "no-value"');
});

test('a Respond node answers with what the body held, as the README shows', async () => {
  const home = tmpDir();
  const config = flow({ type: 'webhook_trigger', config: { respondImmediately: false } }, [{ id: 'respond-1', type: 'respond', config: { status: 201, body: { greeting: 'Hello, {{ body.name }}!', page: '{{ query.page }}' } } }], [{ id: 'e1', source: 'webhook_trigger-1', target: 'respond-1' }]);
  assert.is((await cli(['f', 'create', 'greeter'], { home })).code, 0);
  assert.is((await cli(['f', 'save', 'greeter', writeJson(home, 'g.json', config)], { home })).code, 0);
  const r = await cli(['f', 'run', 'greeter', '--input', '{"name":"Ada"}', '--query', 'page=3'], { home });
  assert.is(r.code, 0, `${r.stderr}${r.stdout}`);
  assert.equal(JSON.parse(r.stdout), { greeting: 'Hello, Ada!', page: '3' });
});

test('--method, --header and --query on a flow without a webhook trigger are a usage error; --input stays the input', async () => {
  const home = tmpDir();
  const config = flow({ type: 'manual_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { id: '{{ $input.id }}' } } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }]);
  assert.is((await cli(['f', 'create', 'orders'], { home })).code, 0);
  assert.is((await cli(['f', 'save', 'orders', writeJson(home, 'o.json', config)], { home })).code, 0);
  const r = await cli(['f', 'run', 'orders', '--input', '{"id":1}', '--header', 'x-a=1'], { home });
  assert.is(r.code, 2);
  assert.match(r.stderr, "error: --header applies to webhook flows only; this flow's trigger is manual_trigger");
  const ok = await cli(['f', 'run', 'orders', '--input', '{"id":1}', '--json'], { home });
  assert.equal(ok.json().result, { id: 1 });
});

test.run();
