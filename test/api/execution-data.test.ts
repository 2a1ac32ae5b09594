// What the Studio reads of an execution: the record with large values cut (`maxValueBytes`), one value whole
// as a download, and the parent and children of a call_flow run.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiHost, responseValidators } from './_api.js';
import { chain, publish } from '../host/_helpers.js';

const SECRET = 'sk-live-0123456789';
const MB10 = 10 * 1024 * 1024;
type Host = Awaited<ReturnType<typeof apiHost>>;

/** A GET of the API as the browser makes it: status, headers, the text, and the time it took. */
async function raw(h: Host, path: string) {
  const started = performance.now();
  const res = await fetch(`${h.url}/api/v1${path}`, { headers: { authorization: `Bearer ${h.token}` } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, ms: performance.now() - started };
}

/** `big`: manual -> set-1, whose data (and so the result) holds the 10 MB of the input and a secret. */
async function bigRun(h: Host) {
  await h.weir.secrets.set('API_KEY', SECRET);
  const c = chain('manual_trigger', [{ type: 'set', id: 'set-1', config: { values: { key: 'key {{ $env.API_KEY }}', blob: '{{ $input.blob }}' } } }]);
  await publish(h.weir, 'big', { type: 'manual_trigger' }, c.nodes, c.edges);
  const run = await h.weir.run('big', { note: `uses ${SECRET}`, blob: 'x'.repeat(MB10) }, { published: true });
  assert.is(run.status, 'success');
  return run.id;
}

test('maxValueBytes: each value whose JSON is larger is {$cut, bytes, preview}, secrets masked; the answer is small and quick', async () => {
  const h = await apiHost();
  try {
    const id = await bigRun(h);
    const doc = (await h.call('GET', '/openapi.json')).json;
    const cut = await raw(h, `/executions/${id}?maxValueBytes=65536`);
    assert.is(cut.status, 200);
    console.log(`      GET /executions/{id}?maxValueBytes=65536 with 10 MB values: ${cut.text.length} bytes in ${cut.ms.toFixed(0)} ms`);
    assert.ok(cut.text.length < 20_000, `a small answer: ${cut.text.length} bytes`);
    assert.ok(cut.ms < 10_000, `a quick answer: ${cut.ms} ms`);
    const record = JSON.parse(cut.text);
    const fits = responseValidators(doc)('GET', '/api/v1/executions/{id}', 200);
    assert.ok(fits(JSON.parse(cut.text)), `the cut record fits ExecutionRecord: ${JSON.stringify(fits.errors)}`);

    const inputJson = JSON.stringify({ note: 'uses ***', blob: 'x'.repeat(MB10) });
    assert.equal(record.input, { $cut: true, bytes: Buffer.byteLength(inputJson), preview: inputJson.slice(0, 2048) }, 'the input, masked, then cut');
    assert.equal(record.nodes['manual_trigger-1'].data, record.input);
    const dataJson = JSON.stringify({ key: 'key ***', blob: 'x'.repeat(MB10) });
    assert.equal(record.nodes['set-1'].data, { $cut: true, bytes: Buffer.byteLength(dataJson), preview: dataJson.slice(0, 2048) });
    assert.equal(record.result, record.nodes['set-1'].data);
    assert.is(record.nodes['set-1'].status, 'success', 'the rest of a node record stays');
    assert.not.ok(cut.text.includes(SECRET));

    // Multi-byte characters count as their UTF-8 bytes; a value at the limit stays whole.
    const small = await h.weir.run('big', { blob: 'é'.repeat(100) }, { published: true });
    const bytes = Buffer.byteLength(JSON.stringify(small.input));
    const atLimit = (await h.call('GET', `/executions/${small.id}?maxValueBytes=${bytes}`)).json;
    assert.equal(atLimit.input, { blob: 'é'.repeat(100) });
    const under = (await h.call('GET', `/executions/${small.id}?maxValueBytes=${bytes - 1}`)).json;
    assert.equal([under.input.$cut, under.input.bytes], [true, bytes]);

    const bad = await h.call('GET', `/executions/${id}?maxValueBytes=lots`);
    assert.equal([bad.status, bad.json.error.code, bad.json.error.details[0].path], [400, 'INVALID_INPUT', 'query.maxValueBytes']);
    assert.is((await h.call('GET', `/executions/${id}?maxValueBytes=-1`)).status, 400);
  } finally {
    await h.close();
  }
});

test('without maxValueBytes the record is as before; small values are never cut', async () => {
  const h = await apiHost();
  try {
    const run = await h.weir.run('hello', { name: 'Ada' }, { published: true });
    const plain = (await h.call('GET', `/executions/${run.id}`)).json;
    assert.equal(plain, JSON.parse(JSON.stringify(await h.weir.executions.get(run.id))));
    assert.equal((await h.call('GET', `/executions/${run.id}?maxValueBytes=65536`)).json, plain);
  } finally {
    await h.close();
  }
});

test('nodes/{nodeId}/data: the whole value as a JSON attachment, masked as in the record; $input, $result; 404 naming the nearest node', async () => {
  const h = await apiHost();
  try {
    const id = await bigRun(h);
    const node = await raw(h, `/executions/${id}/nodes/set-1/data`);
    assert.is(node.status, 200);
    assert.is(node.headers.get('content-disposition'), `attachment; filename="${id}-set-1.json"`);
    assert.match(node.headers.get('content-type')!, 'application/json');
    const data = JSON.parse(node.text);
    assert.equal([data.key, data.blob.length], ['key ***', MB10]);
    assert.not.ok(node.text.includes(SECRET));
    const input = await raw(h, `/executions/${id}/nodes/$input/data`);
    assert.is(input.headers.get('content-disposition'), `attachment; filename="${id}-$input.json"`);
    assert.is(JSON.parse(input.text).note, 'uses ***');
    const result = await raw(h, `/executions/${id}/nodes/%24result/data`);
    assert.is(result.text, node.text, 'the result is the last node’s data');

    const hello = await h.weir.run('hello', { name: 'Ada' }, { published: true });
    const greeting = await h.call('GET', `/executions/${hello.id}/nodes/set-1/data`);
    assert.equal(greeting.json, { greeting: 'hi Ada' });
    const typo = await h.call('GET', `/executions/${hello.id}/nodes/set-2/data`);
    assert.is(typo.status, 404);
    assert.is(typo.json.error.code, 'NOT_FOUND');
    assert.match(typo.json.error.message, `execution ${hello.id} has no node "set-2"; did you mean "set-1"?`);
    assert.equal(typo.json.error.hints, ['its nodes: manual_trigger-1, set-1, $input, $result']);
    assert.is((await h.call('GET', `/executions/${hello.id}/nodes/__proto__/data`)).status, 404);
    assert.is((await h.call('GET', '/executions/exec_nope/nodes/set-1/data')).status, 404);
  } finally {
    await h.close();
  }
});

test('a call_flow run: GET /executions/{id} of the parent lists the child, the child names the parent', async () => {
  const h = await apiHost();
  try {
    const c = chain('manual_trigger', [{ type: 'call_flow', id: 'call_flow-1', config: { flow: 'hello', input: { name: '{{ $input.name }}' } } }]);
    await publish(h.weir, 'caller', { type: 'manual_trigger' }, c.nodes, c.edges);
    const run = await h.call('POST', '/workflows/caller/run', { input: { name: 'Grace' }, published: true });
    assert.equal([run.status, run.json.result], [200, { greeting: 'hi Grace' }]);
    const parent = (await h.call('GET', `/executions/${run.json.id}`)).json;
    assert.is(parent.children.length, 1);
    const [link] = parent.children;
    assert.equal(link, { executionId: link.executionId, workflowId: h.flows.hello.id, nodeId: 'call_flow-1' });
    const child = (await h.call('GET', `/executions/${link.executionId}`)).json;
    assert.equal([child.parentExecutionId, child.parentNodeId, child.workflowId, child.result], [run.json.id, 'call_flow-1', h.flows.hello.id, { greeting: 'hi Grace' }]);
  } finally {
    await h.close();
  }
});

test.run();
