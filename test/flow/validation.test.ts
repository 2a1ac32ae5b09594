import { test } from 'uvu';
import * as assert from 'uvu/assert';
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

test.run();
