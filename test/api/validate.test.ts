import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiHost } from './_api.js';

const h = await apiHost();
test.after(() => h.close());

const trigger = { id: 'webhook_trigger-1', type: 'webhook_trigger', config: {} };

test('POST /workflows/validate answers no problem for a config that saves, and saves nothing', async () => {
  const config = { nodes: [trigger, { id: 'respond-1', type: 'respond', config: { status: 200 }, position: { x: 10, y: 20 } }], edges: [{ source: 'webhook_trigger-1', target: 'respond-1' }] };
  const res = await h.call('POST', '/workflows/validate', config);
  assert.is(res.status, 200);
  assert.equal(res.json, { problems: [], handles: {} });
  const before = (await h.call('GET', '/workflows/hook/draft')).json.config;
  assert.is(before.nodes.length, 1, 'the draft is as it was');
});

test('POST /workflows/validate answers the very problems PUT /workflows/:id/draft refuses the config for', async () => {
  const config = {
    nodes: [trigger, { id: 'condition-1', type: 'condition', config: {} }, { id: 'respond-1', type: 'respond', config: { status: 99, colour: 'red' } }],
    edges: [{ source: 'condition-1', target: 'respond-9', sourceHandle: 'true' }],
  };
  const res = await h.call('POST', '/workflows/validate', config);
  assert.is(res.status, 200);
  const saved = await h.call('PUT', '/workflows/hook/draft', config);
  assert.is(saved.status, 400);
  assert.is(saved.json.error.code, 'INVALID_CONFIG');
  assert.equal(res.json.problems, saved.json.error.details);
  const paths = res.json.problems.map((p: { path: string }) => p.path);
  assert.ok(paths.includes('nodes[1].config.rules'), paths.join(', '));
  assert.ok(paths.includes('nodes[2].config.status'), paths.join(', '));
  assert.ok(paths.includes('nodes[2].config.colour'), paths.join(', '));
  assert.ok(paths.includes('edges[0].target'), paths.join(', '));
});

test("POST /workflows/validate answers the handles of each switch from its cases as they are, for the editor to draw", async () => {
  const cases = [
    { when: "{{ body.kind == 'a' }}", handle: 'a' },
    { when: "{{ body.kind == 'b' }}", handle: 'b' },
  ];
  const config = {
    nodes: [trigger, { id: 'switch-1', type: 'switch', config: { cases, default: 'rest' } }, { id: 'switch-2', type: 'switch', config: { cases: [{ handle: 'x' }] } }, { id: 'condition-1', type: 'condition', config: { rules: true } }],
    edges: [{ source: 'webhook_trigger-1', target: 'switch-1' }],
  };
  const res = await h.call('POST', '/workflows/validate', config);
  assert.is(res.status, 200);
  // A switch still being written gets the handles it names so far; a type of fixed handles is not listed.
  assert.equal(res.json.handles, { 'switch-1': ['a', 'b', 'rest'], 'switch-2': ['x'] });
  assert.equal(res.json.problems.map((p: { path: string }) => p.path), ['nodes[2].config.cases[0].when']);
});

test('POST /workflows/validate lists what is wrong with JSON that is not a config, and needs the token', async () => {
  const res = await h.call('POST', '/workflows/validate', [1, 2]);
  assert.is(res.status, 200);
  assert.equal(res.json.problems, [{ path: '', message: 'the configuration must be a JSON object with "nodes" and "edges"' }]);
  assert.equal(res.json.handles, {});
  const none = await h.call('POST', '/workflows/validate', { nodes: [], edges: [] });
  assert.equal(none.json.problems, [{ path: 'nodes', message: 'a flow needs exactly one trigger node, found 0' }]);
  assert.is((await h.call('POST', '/workflows/validate', { nodes: [], edges: [] }, null)).status, 401);
});

test.run();
