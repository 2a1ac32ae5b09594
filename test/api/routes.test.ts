import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Ajv2020Module from 'ajv/dist/2020.js';
import { apiHost, responseValidators } from './_api.js';
import { chain, publish, send, until } from '../host/_helpers.js';
import { askNode } from '../waits/_approval.js';

const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as typeof import('ajv/dist/2020.js').default;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

test('every route answers 401 without a token, 403 with a wrong one, and a success that fits its schema in the served openapi.json', async () => {
  const h = await apiHost({ nodes: [askNode] });
  try {
    const served = await h.call('GET', '/openapi.json');
    assert.is(served.status, 200);
    const doc = served.json;
    const validator = responseValidators(doc);
    const covered = new Set<string>();
    const { hello, failing, hook } = h.flows;

    /** Calls one route three times: no token, a wrong token, the token; returns the success's body after checking it against the document. */
    async function check(method: string, template: string, path: string, body?: unknown, status = 200): Promise<any> {
      covered.add(`${method} ${template}`);
      const none = await h.call(method, path, body, null);
      assert.is(none.status, 401, `${method} ${path} without a token`);
      assert.is(none.json.error.code, 'UNAUTHORIZED');
      const wrong = await h.call(method, path, body, 'not-the-token');
      assert.is(wrong.status, 403, `${method} ${path} with a wrong token`);
      assert.is(wrong.json.error.code, 'FORBIDDEN');
      const ok = await h.call(method, path, body);
      assert.is(ok.status, status, `${method} ${path}: ${JSON.stringify(ok.json)}`);
      const validate = validator(method, `/api/v1${template}`, status);
      assert.ok(validate(ok.json), `${method} ${path} fits its schema: ${JSON.stringify(validate.errors)}`);
      return ok.json;
    }

    await check('GET', '/openapi.json', '/openapi.json');
    const list = await check('GET', '/workflows', '/workflows');
    assert.equal(list.map((w: any) => w.name), ['failing', 'hello', 'hook']);
    // By id and by name, as the CLI takes them.
    assert.is((await check('GET', '/workflows/{id}', `/workflows/${hello.id}`)).name, 'hello');
    assert.is((await check('GET', '/workflows/{id}', '/workflows/hello')).id, hello.id);
    const draft = await check('GET', '/workflows/{id}/draft', '/workflows/hello/draft');
    draft.config.nodes[1].config.values.greeting = 'hello {{ $input.name }}';
    assert.is((await check('PUT', '/workflows/{id}/draft', '/workflows/hello/draft', draft.config)).status, 'dirty');
    assert.equal(await check('POST', '/workflows/validate', '/workflows/validate', draft.config), { problems: [], handles: {} });
    const diff = await check('GET', '/workflows/{id}/diff', '/workflows/hello/diff');
    assert.equal(diff.changes.map((c: any) => [c.kind, c.op, c.key]), [['node', 'changed', 'set-1']]);
    const published = await check('POST', '/workflows/{id}/publish', '/workflows/hello/publish', {});
    assert.equal(published, { id: hello.id, name: 'hello', version: 2, status: 'synced' });

    const run = await check('POST', '/workflows/{id}/run', '/workflows/hello/run', { input: { name: 'Ada' }, published: true });
    assert.is(run.status, 'success');
    assert.equal(run.result, { greeting: 'hello Ada' });
    const failed = await check('POST', '/workflows/{id}/run', `/workflows/${failing.id}/run`, {});
    assert.is(failed.status, 'error', 'a failing flow answers 200 with its record');

    const listening = await check('POST', '/workflows/{id}/capture/listen', '/workflows/hook/capture/listen', {});
    assert.is(listening.state, 'listening');
    assert.match(listening.url, `/trigger/${hook.token}`);
    assert.is((await send(`${h.url}/trigger/${hook.token}`, { body: JSON.stringify({ order: { id: 7 } }), headers: { 'content-type': 'application/json' } })).status, 200);
    assert.is((await check('POST', '/workflows/{id}/capture/poll', '/workflows/hook/capture/poll', {})).state, 'captured');
    assert.ok((await check('POST', '/workflows/{id}/capture/accept', '/workflows/hook/capture/accept', {})).variables.includes('body.order.id'));
    assert.equal((await h.call('GET', '/workflows/hook')).json.webhookFormat.variables, (await h.weir.capture.format(hook.id))!.variables);
    await h.call('POST', '/workflows/hook/capture/listen', {});
    assert.is((await check('POST', '/workflows/{id}/capture/decline', '/workflows/hook/capture/decline', {})).state, 'idle');

    const page = await check('GET', '/executions', '/executions?workflow=hello&limit=1');
    assert.equal(page.items.map((e: any) => e.id), [run.id]);
    assert.is(page.nextCursor, null, 'one execution of hello');
    const all = await check('GET', '/executions', '/executions?status=error');
    assert.equal(all.items.map((e: any) => e.id), [failed.id]);
    assert.is((await check('GET', '/executions/{id}', `/executions/${run.id}`)).result.greeting, 'hello Ada');
    assert.equal(await check('GET', '/executions/{id}/nodes/{nodeId}/data', `/executions/${run.id}/nodes/set-1/data`), { greeting: 'hello Ada' });
    const retried = await check('POST', '/executions/{id}/retry', `/executions/${failed.id}/retry`, {});
    assert.is(retried.retryOf, failed.id);
    const rerun = await check('POST', '/executions/{id}/rerun', `/executions/${run.id}/rerun`, { input: { name: 'Grace' } });
    assert.equal([rerun.rerunOf, rerun.result], [run.id, { greeting: 'hello Grace' }]);

    // A running execution to cancel: the failing flow's delay, with no time limit, in the background.
    await h.weir.workflows.save('failing', { ...(await h.weir.workflows.getLocal('failing')).config, nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, { id: 'delay-1', type: 'delay', config: { ms: 5000 } }] });
    const running = h.call('POST', '/workflows/failing/run', {});
    const runningId = await until(async () => (await h.weir.executions.list({ workflowId: failing.id, limit: 1 })).find((e) => e.status === 'running')?.id, 5000, 'the run to start');
    assert.is((await check('POST', '/executions/{id}/cancel', `/executions/${runningId}/cancel`, {})).status, 'cancelled');
    assert.is((await running).json.status, 'cancelled');

    // An execution waiting for an approval (test/waits/approval.test.ts checks approvals in depth).
    const asks = chain('manual_trigger', [{ type: 'ask_approval', config: { tool: 'refund' } }]);
    await publish(h.weir, 'asks', { type: 'manual_trigger' }, asks.nodes, asks.edges);
    const asking = await h.weir.run('asks', {}, { published: true });
    assert.is(asking.status, 'waiting');
    const decided = await check('POST', '/executions/{id}/approve', `/executions/${asking.id}/approve`, { approve: false, reason: 'no' });
    assert.equal(decided, { executionId: asking.id, approved: false, reason: 'no', tool: 'refund', applied: true });

    // The Studio's routes (test/api/studio-routes.test.ts checks each in depth).
    const made = await check('POST', '/workflows', '/workflows', { name: 'made' }, 201);
    assert.is((await check('PATCH', '/workflows/{id}', `/workflows/${made.id}`, { name: 'made-2' })).name, 'made-2');
    assert.equal((await check('GET', '/workflows/overview', '/workflows/overview')).map((w: any) => w.name), ['asks', 'failing', 'hello', 'hook', 'made-2']);
    assert.is((await check('GET', '/workflows/{id}/webhook', '/workflows/hook/webhook')).live, true);
    assert.ok((await check('GET', '/templates', '/templates')).length > 0);
    assert.ok((await check('GET', '/node-types', '/node-types')).some((t: any) => t.type === 'set'));
    assert.ok((await check('GET', '/workflow-schema', '/workflow-schema')).properties.settings);
    assert.equal(await check('DELETE', '/workflows/{id}', `/workflows/${made.id}`), { id: made.id, deleted: true, unpublished: false });

    const operations = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path.slice('/api/v1'.length)}`));
    // The interface routes start a real Chromium preview: test/api/interfaces.test.ts checks them the same way.
    const untested = operations.filter((o) => !covered.has(o) && !o.endsWith('/events') && !o.includes(' /interfaces'));
    assert.equal(untested, [], 'every operation of the document is checked here');
  } finally {
    await h.close();
  }
});

test('openapi.json is an OpenAPI 3.1 document: operations with ids, parameters, responses; every schema compiles and every reference resolves', async () => {
  const h = await apiHost();
  try {
    const doc = (await h.call('GET', '/openapi.json')).json;
    assert.is(doc.openapi, '3.1.0');
    assert.type(doc.info.title, 'string');
    assert.type(doc.info.version, 'string');
    const docs = (await import('node:fs')).readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    for (const [path, item] of Object.entries<any>(doc.paths)) for (const m of METHODS.filter((x) => item[x])) assert.ok(docs.includes(`\`${m.toUpperCase()} ${path}`), `docs/api.md lists ${m.toUpperCase()} ${path}`);
    assert.equal(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: doc.components.securitySchemes.bearerAuth.description });
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      assert.match(path, /^\/api\/v1\//);
      for (const method of METHODS.filter((m) => item[m])) {
        const op = item[method];
        assert.type(op.operationId, 'string');
        assert.not.ok(ids.has(op.operationId), `operationId ${op.operationId} is unique`);
        ids.add(op.operationId);
        assert.type(op.summary, 'string');
        const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        assert.equal(op.parameters?.filter((p: any) => p.in === 'path').map((p: any) => p.name) ?? [], templated, `${method} ${path}: a path parameter per template`);
        for (const p of op.parameters ?? []) assert.ok(['path', 'query'].includes(p.in) && p.schema && (p.in !== 'path' || p.required === true), `${method} ${path} parameter ${p.name}`);
        for (const [code, res] of Object.entries<any>(op.responses)) {
          assert.match(code, /^([1-5]\d\d|default)$/);
          assert.type(res.description, 'string');
        }
        assert.ok(op.responses['401'] && op.responses['403'], `${method} ${path} documents 401 and 403`);
      }
    }
    // Every schema is valid JSON Schema 2020-12 (ajv compiles it in strict mode) and every $ref points into the document.
    const ajv = new Ajv2020({ strict: true, strictTypes: false, validateFormats: false });
    ajv.addKeyword('example');
    const asDefs = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"openapi.json#/$defs/'));
    ajv.addSchema({ $id: 'openapi.json', $defs: asDefs(doc.components.schemas) });
    const text = JSON.stringify(doc);
    for (const [, name] of text.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)) assert.ok(doc.components.schemas[name], `$ref ${name} resolves`);
    for (const schema of Object.values<any>(doc.components.schemas)) ajv.compile(asDefs(schema));
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of METHODS.map((m) => item[m]).filter(Boolean)) {
        for (const res of Object.values<any>(op.responses)) for (const media of Object.values<any>(res.content)) ajv.compile(asDefs(media.schema));
        for (const p of op.parameters ?? []) ajv.compile(asDefs(p.schema));
        if (op.requestBody) ajv.compile(asDefs(op.requestBody.content['application/json'].schema));
      }
    }
  } finally {
    await h.close();
  }
});

test('a request that does not fit its route is a 400 listing each problem; unknown paths are JSON 404s; bodies must be JSON', async () => {
  const h = await apiHost();
  try {
    const bad = await h.call('GET', '/executions?limit=0&status=lost&colour=red');
    assert.is(bad.status, 400);
    assert.is(bad.json.error.code, 'INVALID_INPUT');
    assert.equal(bad.json.error.details.map((p: any) => p.path).sort(), ['query.colour', 'query.limit', 'query.status']);
    const force = await h.call('POST', '/workflows/hello/publish', { force: 'yes', extra: 1 });
    assert.is(force.status, 400);
    assert.equal(force.json.error.details, [
      { path: 'body.force', message: 'must be a boolean, got "yes"' },
      { path: 'body.extra', message: 'unknown key' },
    ]);
    // The draft is validated exactly as `weir workflows save` does, every problem in error.details.
    const invalid = await h.call('PUT', '/workflows/hello/draft', { nodes: [{ id: 'set-1', type: 'sett', config: {} }], edges: [{ source: 'set-1', target: 'nope-9' }] });
    assert.is(invalid.status, 400);
    assert.is(invalid.json.error.code, 'INVALID_CONFIG');
    assert.ok(invalid.json.error.details.length >= 3, JSON.stringify(invalid.json.error.details));
    assert.ok(invalid.json.error.details.some((p: any) => /did you mean "set"/.test(p.message)));
    assert.is((await h.weir.workflows.status('hello')).status, 'synced', 'the refused draft was not saved');

    const unknown = await h.call('GET', '/workflowz');
    assert.is(unknown.status, 404);
    assert.is(unknown.json.error.code, 'NOT_FOUND');
    assert.is((await h.call('GET', '/workflowz', undefined, null)).status, 401, 'behind the token as well');
    const method = await h.call('DELETE', '/workflows');
    assert.is(method.status, 404);
    assert.match(method.json.error.message, 'no route DELETE /api/v1/workflows');
    assert.equal(method.json.error.hints, ['/api/v1/workflows answers GET, POST']);
    assert.is((await h.call('GET', '/workflows/nope')).json.error.code, 'NOT_FOUND');
    assert.is((await h.call('GET', '/executions/exec_nope')).status, 404);
    assert.is((await h.call('GET', '/executions?workflow=nope')).status, 404);

    const form = await h.call('POST', '/workflows/hello/publish', 'force=true', h.token, { 'content-type': 'application/x-www-form-urlencoded' });
    assert.is(form.status, 415);
    const broken = await h.call('POST', '/workflows/hello/publish', '{"force": tru');
    assert.is(broken.status, 400);
    assert.match(broken.json.error.message, 'not valid JSON');
    const conflict = await h.call('POST', '/executions/nope/retry', {});
    assert.is(conflict.status, 404);
  } finally {
    await h.close();
  }
});

test('an `authorize` function given to serve() decides in place of the token: false is 403, a thrown UNAUTHORIZED 401', async () => {
  const { WeirError } = await import('../../src/errors.js');
  const h = await apiHost({
    authorize(req) {
      if (!req.headers['x-user']) throw new WeirError('UNAUTHORIZED', 'log in first');
      return Promise.resolve(req.headers['x-user'] === 'admin');
    },
  });
  try {
    assert.is((await h.call('GET', '/workflows', undefined, null, { 'x-user': 'admin' })).status, 200);
    const other = await h.call('GET', '/workflows', undefined, null, { 'x-user': 'guest' });
    assert.is(other.status, 403);
    assert.is(other.json.error.code, 'FORBIDDEN');
    const none = await h.call('GET', '/openapi.json', undefined, null);
    assert.equal([none.status, none.json.error.message], [401, 'log in first']);
    assert.is((await h.call('GET', '/workflows', undefined, h.token)).status, 401, 'the host token is not what this embedder checks');
  } finally {
    await h.close();
  }
});

test.run();
