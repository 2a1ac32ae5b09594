// The management routes the Studio adds: create, rename and delete workflows, the overview with each
// workflow's last execution and its errors of the last 24 hours, the webhook URL, templates and node types.
import { executionRecord } from '../resources/executions/_records.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiHost, responseValidators } from './_api.js';
import { send, tmpDir } from '../host/_helpers.js';
import { serve } from '../../adapters/node-http/index.js';
import { createWeir } from '../../src/weir.js';
import { defineNode } from '../../src/nodes/index.js';
import type { ExecutionRecord, ExecutionStatus } from '../../src/flow/types.js';

const HOUR = 3_600_000;

/** The served document's validator of one operation's success answer, asserted on `answer`. */
async function fits(h: Awaited<ReturnType<typeof apiHost>>, method: string, template: string, answer: { status: number; json: unknown }) {
  const validate = responseValidators((await h.call('GET', '/openapi.json')).json)(method, `/api/v1${template}`, answer.status);
  assert.ok(validate(answer.json), `${method} ${template} fits its schema: ${JSON.stringify(validate.errors)}`);
}

test('POST /workflows creates a draft (or from a template): 201 with its summary; a taken name is 409, an unknown template 404, a bad body 400', async () => {
  const h = await apiHost();
  try {
    const made = await h.call('POST', '/workflows', { name: 'orders', description: 'orders from the shop' });
    assert.is(made.status, 201, JSON.stringify(made.json));
    await fits(h, 'POST', '/workflows', made);
    assert.equal({ ...made.json, id: 'x', updatedAt: 'x' }, { id: 'x', name: 'orders', description: 'orders from the shop', status: 'draft', trigger: 'manual_trigger', localVersion: null, publishedVersion: null, updatedAt: 'x' });
    assert.is((await h.weir.workflows.getLocal('orders')).id, made.json.id, 'saved as `weir workflows create` saves it');

    const fromTemplate = await h.call('POST', '/workflows', { name: 'greeter', template: 'webhook-to-respond' });
    assert.is(fromTemplate.status, 201);
    assert.is(fromTemplate.json.trigger, 'webhook_trigger');

    const taken = await h.call('POST', '/workflows', { name: 'hello' });
    assert.is(taken.status, 409);
    assert.is(taken.json.error.code, 'EXISTS');
    assert.match(taken.json.error.message, 'a workflow named "hello" already exists');
    const template = await h.call('POST', '/workflows', { name: 'x', template: 'webhook-to-respnd' });
    assert.is(template.status, 404);
    assert.match(template.json.error.message, 'did you mean "webhook-to-respond"');

    const bad = await h.call('POST', '/workflows', { description: 7, colour: 'red' });
    assert.is(bad.status, 400);
    assert.is(bad.json.error.code, 'INVALID_INPUT');
    assert.equal(bad.json.error.details.map((p: any) => p.path).sort(), ['body.colour', 'body.description', 'body.name']);
    const empty = await h.call('POST', '/workflows', { name: '  ' });
    assert.equal([empty.status, empty.json.error.code], [400, 'INVALID_INPUT']);
    assert.equal((await h.call('GET', '/workflows')).json.map((w: any) => w.name), ['failing', 'greeter', 'hello', 'hook', 'orders'], 'nothing made by the refused calls');
  } finally {
    await h.close();
  }
});

test('PATCH /workflows/{id} renames and redescribes; the old name is free, a taken one 409, an unknown workflow 404 with did-you-mean', async () => {
  const h = await apiHost();
  try {
    const { hello } = h.flows;
    const renamed = await h.call('PATCH', '/workflows/hello', { name: 'greet', description: 'says hi' });
    assert.is(renamed.status, 200, JSON.stringify(renamed.json));
    await fits(h, 'PATCH', '/workflows/{id}', renamed);
    assert.equal([renamed.json.id, renamed.json.name, renamed.json.description, renamed.json.status], [hello.id, 'greet', 'says hi', 'synced']);
    assert.is((await h.call('GET', '/workflows/greet')).json.id, hello.id, 'found by its new name');
    assert.is((await h.call('GET', '/workflows/hello/draft')).status, 404, 'not by the old one');
    assert.is((await h.call('POST', '/workflows', { name: 'hello' })).status, 409, 'the published copy still carries the old name until the next publish');
    await h.call('POST', '/workflows/greet/publish', {});
    assert.is((await h.weir.workflows.findPublished(hello.id))!.name, 'greet');

    const cleared = await h.call('PATCH', `/workflows/${hello.id}`, { description: '' });
    assert.equal([cleared.status, cleared.json.name, 'description' in cleared.json], [200, 'greet', false]);

    const taken = await h.call('PATCH', '/workflows/greet', { name: 'hook' });
    assert.equal([taken.status, taken.json.error.code], [409, 'EXISTS']);
    assert.is((await h.call('PATCH', '/workflows/greet', { name: 'greet' })).status, 200, 'its own name is not taken');

    const unknown = await h.call('PATCH', '/workflows/grete', { name: 'x' });
    assert.equal([unknown.status, unknown.json.error.code], [404, 'NOT_FOUND']);
    assert.match(unknown.json.error.message, 'did you mean "greet"');

    const bad = await h.call('PATCH', '/workflows/greet', { name: 3, webhookToken: 'mine' });
    assert.is(bad.status, 400);
    assert.equal(bad.json.error.details.map((p: any) => p.path).sort(), ['body.name', 'body.webhookToken']);
    assert.is((await h.call('PATCH', '/workflows/greet', { name: '' })).status, 400);
  } finally {
    await h.close();
  }
});

test('DELETE /workflows/{id} deletes the draft, with ?unpublish=true the published copy too (its webhook then answers 404)', async () => {
  const h = await apiHost();
  try {
    const { hello, hook } = h.flows;
    const gone = await h.call('DELETE', '/workflows/hello');
    assert.equal([gone.status, gone.json], [200, { id: hello.id, deleted: true, unpublished: false }]);
    await fits(h, 'DELETE', '/workflows/{id}', gone);
    assert.is((await h.call('GET', '/workflows/hello')).status, 404);
    assert.ok(await h.weir.workflows.findPublished(hello.id), 'the published copy stays');

    assert.is((await send(`${h.url}/trigger/${hook.token}`, { body: '{}', headers: { 'content-type': 'application/json' } })).status, 200);
    const unpublished = await h.call('DELETE', `/workflows/${hook.id}?unpublish=true`);
    assert.equal(unpublished.json, { id: hook.id, deleted: true, unpublished: true });
    assert.is((await send(`${h.url}/trigger/${hook.token}`, { body: '{}', headers: { 'content-type': 'application/json' } })).status, 404);

    const unknown = await h.call('DELETE', '/workflows/failng');
    assert.equal([unknown.status, unknown.json.error.code], [404, 'NOT_FOUND']);
    assert.match(unknown.json.error.message, 'did you mean "failing"');
    const bad = await h.call('DELETE', '/workflows/failing?unpublish=maybe');
    assert.equal([bad.status, bad.json.error.details[0].path], [400, 'query.unpublish']);
    assert.is((await h.call('GET', '/workflows/failing')).status, 200, 'the refused call deleted nothing');
  } finally {
    await h.close();
  }
});

test('GET /workflows/{id}/webhook: the URL the capture listens on, its token, live or why not, the accepted format', async () => {
  const h = await apiHost();
  try {
    const { hook } = h.flows;
    const info = await h.call('GET', '/workflows/hook/webhook');
    assert.is(info.status, 200);
    await fits(h, 'GET', '/workflows/{id}/webhook', info);
    const listening = await h.call('POST', '/workflows/hook/capture/listen', {});
    assert.equal(info.json, {
      id: hook.id,
      name: 'hook',
      url: listening.json.url,
      token: hook.token,
      formatConfirmed: false,
      variables: [],
      publishedTrigger: 'webhook_trigger',
      live: true,
      enabled: true,
    });
    // An embedded host that `weir serve` never recorded: the URL is the address the request reached.
    assert.is(info.json.url, `${h.url}/trigger/${hook.token}`);
    assert.is((await send(`${h.url}/trigger/${hook.token}`, { body: JSON.stringify({ order: { id: 7 } }), headers: { 'content-type': 'application/json' } })).status, 200);
    await h.call('POST', '/workflows/hook/capture/accept', {});
    const confirmed = (await h.call('GET', `/workflows/${hook.id}/webhook`)).json;
    assert.equal([confirmed.formatConfirmed, confirmed.variables.includes('body.order.id')], [true, true]);

    const manual = (await h.call('GET', '/workflows/hello/webhook')).json;
    assert.equal([manual.live, manual.enabled, manual.publishedTrigger], [false, false, 'manual_trigger']);
    assert.match(manual.reason, /^its published trigger is manual_trigger; publish a config whose trigger is webhook_trigger first/);
    await h.call('POST', '/workflows', { name: 'fresh', template: 'webhook-to-respond' });
    const fresh = (await h.call('GET', '/workflows/fresh/webhook')).json;
    assert.equal([fresh.live, fresh.publishedTrigger, fresh.reason], [false, null, 'it is not published with a webhook trigger; run weir workflows publish fresh']);

    const unknown = await h.call('GET', '/workflows/hoook/webhook');
    assert.equal([unknown.status, unknown.json.error.code], [404, 'NOT_FOUND']);
    assert.match(unknown.json.error.message, 'did you mean "hook"');
  } finally {
    await h.close();
  }
});

test('GET /templates lists what POST /workflows starts from', async () => {
  const h = await apiHost();
  try {
    const list = await h.call('GET', '/templates');
    assert.is(list.status, 200);
    await fits(h, 'GET', '/templates', list);
    assert.equal(list.json.map((t: any) => t.name), ['webhook-to-respond', 'schedule-to-http', 'signed-github-webhook', 'form-to-table']);
    assert.equal(list.json[1].trigger, 'schedule_trigger');
    assert.ok(list.json.every((t: any) => t.description.length > 10));
    for (const t of list.json) assert.is((await h.call('POST', '/workflows', { name: `from-${t.name}`, template: t.name })).json.trigger, t.trigger);
  } finally {
    await h.close();
  }
});

test("GET /workflows/overview: each workflow's newest execution and its errors of the last 24 hours, from stored batches", async () => {
  const h = await apiHost();
  try {
    const { hello, failing, hook } = h.flows;
    const run = (await h.call('POST', '/workflows/hello/run', { input: { name: 'Ada' } })).json;
    const failed = (await h.call('POST', '/workflows/failing/run', {})).json;
    assert.is(failed.status, 'error');
    // Records of `failing` stored as any host stores them: an error from two days ago and one from an hour
    // ago in one batch (read: it straddles the 24 hours), one from ten minutes ago alone (counted from its key).
    const now = Date.now();
    const record = (startedAt: number, status: ExecutionStatus): ExecutionRecord => ({ ...executionRecord(failing.id, startedAt, status), workflowName: 'failing' });

    await Promise.all([h.weir.executions.save(record(now - 48 * HOUR, 'error')), h.weir.executions.save(record(now - HOUR, 'error'))]);
    await h.weir.executions.save(record(now - HOUR / 6, 'error'));
    await h.weir.executions.save(record(now - 30 * HOUR, 'success'));

    const overview = await h.call('GET', '/workflows/overview');
    assert.is(overview.status, 200);
    await fits(h, 'GET', '/workflows/overview', overview);
    const byName = Object.fromEntries(overview.json.map((w: any) => [w.name, w]));
    assert.equal(Object.keys(byName), ['failing', 'hello', 'hook']);
    const summaries = (await h.call('GET', '/workflows')).json;
    for (const s of summaries) assert.equal({ ...byName[s.name], lastExecution: undefined, errors24h: undefined }, { ...s, lastExecution: undefined, errors24h: undefined }, 'the summary as GET /workflows has it');
    assert.equal(byName.hello.lastExecution, { id: run.id, status: 'success', startedAt: run.startedAt, finishedAt: run.finishedAt });
    assert.is(byName.hello.errors24h, 0);
    assert.equal([byName.failing.lastExecution.id, byName.failing.errors24h], [failed.id, 3], 'the run, the one from an hour ago and the one from ten minutes ago');
    assert.equal([byName.hook.lastExecution, byName.hook.errors24h], [null, 0]);
    assert.is(hello.id, byName.hello.id);
    assert.is(hook.id, byName.hook.id);
  } finally {
    await h.close();
  }
});

test("GET /node-types: every type of the instance's registry, a custom node's own config schema, handles, docs and example included", async () => {
  const shout = defineNode<{ cases: string[]; loud?: boolean }>({
    type: 'shout',
    title: 'Shout',
    category: 'text',
    config: { type: 'object', properties: { cases: { type: 'array', items: { type: 'string' }, description: 'the branches' }, loud: { type: 'boolean', description: 'upper case' } }, additionalProperties: false },
    handles: (config) => (Array.isArray(config.cases) ? config.cases : []),
    docs: { summary: 'Shouts its input down one of its cases', output: 'the input, shouted', example: { cases: ['yes', 'no'], loud: true } },
    run: (ctx) => ({ handle: ctx.config.cases[0], data: ctx.input }),
  });
  const whisper = defineNode({ type: 'whisper_it', run: (ctx) => ctx.input });
  const weir = await createWeir({ home: tmpDir('weir-api-'), nodes: [shout, whisper] });
  const serving = await serve(weir, { port: 0 });
  try {
    const token = await weir.interfaces.accessToken();
    const get = async (path: string): Promise<{ status: number; json: any }> => {
      const res = await fetch(`${serving.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, json: await res.json() };
    };
    const types = await get('/node-types');
    assert.is(types.status, 200);
    const list: any[] = types.json;
    const validate = responseValidators((await get('/openapi.json')).json)('GET', '/api/v1/node-types', 200);
    assert.ok(validate(types.json), JSON.stringify(validate.errors));
    assert.equal(list.map((t: any) => t.type).sort(), [...weir.nodes.keys()].sort(), 'every registered type, nothing else');
    const triggers = list.filter((t) => t.trigger).length;
    assert.ok(list.slice(0, triggers).every((t) => t.trigger), 'triggers first');

    const custom = list.find((t: any) => t.type === 'shout');
    assert.equal([custom.title, custom.description, custom.category, custom.trigger], ['Shout', 'Shouts its input down one of its cases', 'text', false]);
    assert.equal(custom.handles, { inputs: ['main'], outputs: ['yes', 'no'], dynamic: true });
    assert.equal(Object.keys(custom.config.properties), ['cases', 'loud', 'retry', 'timeoutMs', 'onError'], 'its own keys, then the options every node takes');
    assert.equal(custom.docs, { summary: 'Shouts its input down one of its cases', output: 'the input, shouted' });
    assert.equal(custom.example, { cases: ['yes', 'no'], loud: true });
    const bare = list.find((t: any) => t.type === 'whisper_it');
    assert.equal(bare, { type: 'whisper_it', title: 'Whisper it', description: '', trigger: false, config: null, handles: { inputs: ['main'], outputs: ['main'] }, docs: null, example: null });

    const condition = list.find((t: any) => t.type === 'condition');
    assert.equal(condition.handles, { inputs: ['main'], outputs: ['true', 'false'] });
    const webhook = list.find((t: any) => t.type === 'webhook_trigger');
    assert.equal([webhook.trigger, webhook.handles, webhook.title], [true, { inputs: [], outputs: ['main'] }, 'Webhook trigger']);
    assert.equal(webhook.example, weir.nodes.get('webhook_trigger')!.docs!.example);
    assert.ok('respondImmediately' in webhook.config.properties);

    // The flow file's schema of this instance: its own node types among the branches, and the settings.
    const schema = await get('/workflow-schema');
    assert.is(schema.status, 200);
    assert.ok(schema.json.$defs['node-shout'], 'a custom node type has its branch');
    assert.equal(Object.keys(schema.json.properties.settings.properties), ['errorFlow', 'concurrency', 'rateLimit', 'debounce', 'mcp']);
  } finally {
    await serving.close();
    await weir.close();
  }
});

test('openapi.json lists the Studio routes with their methods, and every one is behind the token', async () => {
  const h = await apiHost();
  try {
    const doc = (await h.call('GET', '/openapi.json')).json;
    const listed = (path: string) => Object.keys(doc.paths[`/api/v1${path}`] ?? {}).sort();
    assert.equal(listed('/workflows'), ['get', 'post']);
    assert.equal(listed('/workflows/{id}'), ['delete', 'get', 'patch']);
    assert.equal(listed('/workflows/overview'), ['get']);
    assert.equal(listed('/workflows/{id}/webhook'), ['get']);
    assert.equal(listed('/templates'), ['get']);
    assert.equal(listed('/node-types'), ['get']);
    assert.equal(Object.keys(doc.paths['/api/v1/workflows'].post.responses).includes('201'), true);
    assert.equal(doc.paths['/api/v1/workflows/{id}'].delete.parameters.map((p: any) => `${p.in}:${p.name}`), ['path:id', 'query:unpublish']);
    for (const [method, path] of [['POST', '/workflows'], ['PATCH', '/workflows/hello'], ['DELETE', '/workflows/hello'], ['GET', '/workflows/overview'], ['GET', '/node-types']]) {
      assert.is((await h.call(method, path, method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' }, null)).status, 401, `${method} ${path} needs the token`);
      assert.is((await h.call(method, path, undefined, 'wrong')).status, 403);
    }
    assert.is((await h.call('GET', '/workflows/hello')).status, 200, 'nothing was deleted without the token');
  } finally {
    await h.close();
  }
});

test.run();
