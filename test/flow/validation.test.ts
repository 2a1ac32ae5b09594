import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, WeirError } from '../../src/index.js';
import { cli, tmpDir, writeJson } from '../_utils.js';

// One config with a problem of every kind: structural (bad id, misspelt type), an expression, a cycle and
// an edge into the trigger. Save must list them all in one run, each naming its node or edge.
const broken = {
  nodes: [
    { id: 'webhook_trigger-1', type: 'webhook_trigger', config: {} },
    { id: 'Set_1', type: 'set', config: { values: { a: 1 } } },
    { id: 'http_reqest-1', type: 'http_reqest', config: { url: 'https://example.com' } },
    { id: 'teleport-1', type: 'teleport', config: {} },
    { id: 'set-2', type: 'set', config: { values: { b: '{{ $input.( }}' } } },
    { id: 'code-1', type: 'code', config: { code: 'return 1' } },
    { id: 'delay-1', type: 'delay', config: { ms: 5 } },
  ],
  edges: [
    { id: 'e1', source: 'webhook_trigger-1', target: 'set-2' },
    { id: 'e2', source: 'set-2', target: 'code-1' },
    { id: 'e3', source: 'code-1', target: 'delay-1' },
    { id: 'e4', source: 'delay-1', target: 'code-1' },
    { id: 'e5', source: 'set-2', target: 'webhook_trigger-1' },
  ],
};

const expected: Array<[path: string, message: RegExp]> = [
  ['nodes[1].id', /node id "Set_1" must be of the form <type>-<number>/],
  ['nodes[2].type', /^http_reqest-1: unknown node type "http_reqest"; did you mean "http_request"\?$/],
  ['nodes[3].type', /^teleport-1: unknown node type "teleport"$/],
  ['nodes[4].config.values.b', /^set-2: expression error at position \d+/],
  ['edges[4].target', /^edge e5: a trigger node cannot be the target of an edge$/],
  ['edges', /^the edges form a cycle: code-1 -> delay-1 -> code-1$/],
];

test('save lists structural, expression, edge and cycle problems together (--json)', async () => {
  const home = tmpDir();
  assert.is((await cli(['f', 'create', 'multi'], { home })).code, 0);
  const r = await cli(['f', 'save', 'multi', writeJson(home, 'bad.json', broken), '--json'], { home });
  assert.is(r.code, 1);
  const { error } = JSON.parse(r.stderr);
  assert.is(error.code, 'INVALID_CONFIG');
  const details = error.details as Array<{ path: string; message: string }>;
  assert.is(details.length, expected.length, JSON.stringify(details, null, 2));
  for (const [path, message] of expected) {
    const found = details.find((p) => p.path === path);
    assert.ok(found, `no problem at ${path}: ${JSON.stringify(details)}`);
    assert.match(found!.message, message);
  }
});

test('save lists every problem in text too, and saves nothing', async () => {
  const home = tmpDir();
  assert.is((await cli(['f', 'create', 'multi'], { home })).code, 0);
  const r = await cli(['f', 'save', 'multi', writeJson(home, 'bad.json', broken)], { home });
  assert.is(r.code, 1);
  assert.match(r.stderr, `invalid workflow config (${expected.length} problems)`);
  for (const [path] of expected) assert.match(r.stderr, `\n  - ${path}: `);
  assert.match(r.stderr, 'did you mean "http_request"?');
  const got = (await cli(['f', 'get', 'multi', '--json'], { home })).json();
  assert.equal(got.config.nodes.map((n: { id: string }) => n.id), ['manual_trigger-1']);
});

test('near misses of a trigger, a short type and a swapped pair of letters get suggestions', async () => {
  const home = tmpDir();
  assert.is((await cli(['f', 'create', 'near'], { home })).code, 0);
  const config = {
    nodes: [
      { id: 'webhok_trigger-1', type: 'webhok_trigger', config: {} },
      { id: 'sett-1', type: 'sett', config: {} },
      { id: 'codnition-1', type: 'codnition', config: {} },
    ],
    edges: [],
  };
  const saved = await cli(['f', 'save', 'near', writeJson(home, 'near.json', config)], { home });
  assert.is(saved.code, 1);
  assert.match(saved.stderr, 'unknown node type "webhok_trigger"; did you mean "webhook_trigger"?');
  assert.match(saved.stderr, 'unknown node type "sett"; did you mean "set"?');
  assert.match(saved.stderr, 'unknown node type "codnition"; did you mean "condition"?');
  assert.match(saved.stderr, 'exactly one trigger node, found 0');
});

// A newcomer's first flow, as issue #33 met it: `webhook` for `webhook_trigger`, `value` for `values`.
const firstFlow = {
  nodes: [
    { id: 'webhook-1', type: 'webhook', config: {} },
    { id: 'set-1', type: 'set', config: { value: { greeting: 'hi {{ body.name }}' } } },
  ],
  edges: [{ id: 'e1', source: 'webhook-1', target: 'set-1' }],
};

test('an unknown node type and an unknown config key are each named with the valid one (exit 1)', async () => {
  const home = tmpDir();
  assert.is((await cli(['f', 'create', 'greeter'], { home })).code, 0);
  const r = await cli(['f', 'save', 'greeter', writeJson(home, 'first.json', firstFlow)], { home });
  assert.is(r.code, 1);
  assert.match(r.stderr, '\n  - nodes[0].type: webhook-1: unknown node type "webhook"; did you mean "webhook_trigger"?\n');
  assert.match(r.stderr, '\n  - nodes[1].config.value: set-1: unknown key "value"; did you mean "values"?\n');
  assert.match(r.stderr, '\n  - nodes[1].config.values: set-1: "values" is required');
});

test('--json: each problem, the unknown key among them, is in error.details with its path', async () => {
  const home = tmpDir();
  assert.is((await cli(['f', 'create', 'greeter'], { home })).code, 0);
  const r = await cli(['f', 'save', 'greeter', writeJson(home, 'first.json', firstFlow), '--json'], { home });
  assert.is(r.code, 1);
  assert.is(r.stdout, '');
  const { error } = JSON.parse(r.stderr);
  assert.is(error.code, 'INVALID_CONFIG');
  assert.equal(error.details, [
    { path: 'nodes[0].type', message: 'webhook-1: unknown node type "webhook"; did you mean "webhook_trigger"?' },
    { path: 'nodes[1].config.values', message: 'set-1: "values" is required' },
    { path: 'nodes[1].config.value', message: 'set-1: unknown key "value"; did you mean "values"?' },
    { path: 'nodes', message: 'a flow needs exactly one trigger node, found 0' },
  ]);
});

test('unknown keys on triggers, in inputParams and in retry are refused; a key far from any lists the keys', async () => {
  const home = tmpDir();
  assert.is((await cli(['f', 'create', 'keys'], { home })).code, 0);
  const webhook = {
    nodes: [
      { id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImediately: false } },
      { id: 'http_request-1', type: 'http_request', config: { url: 'https://example.com', retry: { max: 2, backof: 100 }, verb: 'POST' } },
    ],
    edges: [{ id: 'e1', source: 'webhook_trigger-1', target: 'http_request-1' }],
  };
  const r = await cli(['f', 'save', 'keys', writeJson(home, 'webhook.json', webhook), '--json'], { home });
  assert.is(r.code, 1);
  assert.equal(JSON.parse(r.stderr).error.details, [
    { path: 'nodes[0].config.respondImediately', message: 'webhook_trigger-1: unknown key "respondImediately"; did you mean "respondImmediately"?' },
    { path: 'nodes[1].config.retry.backof', message: 'http_request-1: unknown key "backof"; did you mean "backoffMs"?' },
    {
      path: 'nodes[1].config.verb',
      message: 'http_request-1: unknown key "verb"; the keys here are "url", "method", "headers", "body", "timeoutMs", "secretHeaders", "retry", "onError"',
    },
  ]);

  const manual = {
    nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: { inputParams: [{ name: 'id', type: 'number', requried: true }] } }],
    edges: [],
  };
  const m = await cli(['f', 'save', 'keys', writeJson(home, 'manual.json', manual)], { home });
  assert.is(m.code, 1);
  assert.match(m.stderr, 'nodes[0].config.inputParams[0].requried: manual_trigger-1: unknown key "requried"; did you mean "required"?');
  const got = (await cli(['f', 'get', 'keys', '--json'], { home })).json();
  assert.equal(got.config.nodes[0].config, {}, 'nothing was saved');
});

test('a {{ }} template stands for a value of any type; only the unknown key beside it is refused', async () => {
  const home = tmpDir();
  assert.is((await cli(['f', 'create', 'typed'], { home })).code, 0);
  const config = {
    nodes: [
      { id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImmediately: false } },
      { id: 'delay-1', type: 'delay', config: { ms: '{{ body.ms }}', mss: 5 } },
      { id: 'respond-1', type: 'respond', config: { status: '{{ body.status }}', headers: '{{ body.headers }}', body: '{{ body }}' } },
    ],
    edges: [
      { id: 'e1', source: 'webhook_trigger-1', target: 'delay-1' },
      { id: 'e2', source: 'delay-1', target: 'respond-1' },
    ],
  };
  const r = await cli(['f', 'save', 'typed', writeJson(home, 'typed.json', config), '--json'], { home });
  assert.is(r.code, 1);
  assert.equal(JSON.parse(r.stderr).error.details, [
    { path: 'nodes[1].config.mss', message: 'delay-1: unknown key "mss"; did you mean "ms"?' },
  ]);
  delete (config.nodes[1].config as Record<string, unknown>).mss;
  assert.is((await cli(['f', 'save', 'typed', writeJson(home, 'typed.json', config)], { home })).code, 0);
});

// Found by the flow-config property (issue #34): an edge id or handle that is an object without a prototype
// (as JSON parsers that guard against `__proto__` make them) crashed save with "Cannot convert object to
// primitive value" instead of naming the problem.
test('an edge whose id or handle is an object without a prototype is refused with problems, not a crash', async () => {
  const weir = await createWeir({ env: {} });
  const { id } = await weir.workflows.create('odd-edges');
  const odd = () => Object.create(null);
  const config = {
    nodes: [
      { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
      { id: 'condition-1', type: 'condition', config: { rules: true } },
    ],
    edges: [{ id: odd() }, { id: 'e2', source: 'manual_trigger-1', target: 'condition-1' }, { id: odd(), source: 'condition-1', target: 'manual_trigger-1', sourceHandle: odd() }],
  };
  const err = await weir.workflows.save(id, config as never).catch((e) => e);
  await weir.close();
  assert.ok(err instanceof WeirError, String(err));
  assert.is(err.code, 'INVALID_CONFIG');
  const problems = err.details as Array<{ path: string; message: string }>;
  assert.equal(
    problems.map((p) => p.path),
    ['edges[0].source', 'edges[0].target', 'edges[2].sourceHandle', 'edges[2].target', 'edges'],
  );
  assert.is(problems[0].message, 'edge 0: source is required');
  assert.match(problems[2].message, /: "condition-1" has the handles "true", "false", not \{\}$/);
  assert.match(problems[3].message, /: a trigger node cannot be the target of an edge$/);
});

test('settings: unknown keys, bad limits, durations and keys are save problems (exit 1); valid settings save and diff', async () => {
  const home = tmpDir();
  assert.is((await cli(['f', 'create', 'guarded'], { home })).code, 0);
  const flow = (settings: unknown) => ({
    nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }],
    edges: [],
    settings,
  });
  const bad = await cli(['f', 'save', 'guarded', writeJson(home, 'bad.json', flow({ concurency: { limit: 2 }, rateLimit: { limit: 0, period: '1 sec' } })), '--json'], { home });
  assert.is(bad.code, 1);
  const { error } = JSON.parse(bad.stderr);
  assert.equal(error.details, [
    { path: 'settings.concurency', message: 'settings.concurency: unknown key "concurency"; did you mean "concurrency"?' },
    { path: 'settings.rateLimit.limit', message: 'settings.rateLimit.limit: must be 1 or more, got 0' },
    { path: 'settings.rateLimit.period', message: 'settings.rateLimit.period: "1 sec" is not a duration (500ms, 30s, 5m, 2h, 7d)' },
  ]);
  const unkeyed = await cli(['f', 'save', 'guarded', writeJson(home, 'key.json', flow({ debounce: { period: '5s', maxWait: '1s', key: '$input.tenant' } }))], { home });
  assert.is(unkeyed.code, 1);
  assert.match(unkeyed.stderr, 'settings.debounce.key must be a {{ }} expression over $input');
  assert.match(unkeyed.stderr, 'settings.debounce.maxWait (1s) must be at least its period (5s)');
  const good = await cli(['f', 'save', 'guarded', writeJson(home, 'good.json', flow({ concurrency: { limit: 2, key: '{{ $input.tenant }}' }, errorFlow: 'alerts' }))], { home });
  assert.is(good.code, 0, good.stderr);
  const diff = await cli(['f', 'diff', 'guarded'], { home });
  assert.match(diff.stdout, '+ setting concurrency = {"limit":2,"key":"{{ $input.tenant }}"}');
});

test.run();
