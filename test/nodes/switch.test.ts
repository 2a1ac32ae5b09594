// The switch node through real runs (library and CLI): the first matching case or every one (a fan-out whose
// branches join once), the default, a retry that replays the branches taken, and what save refuses.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defineNode, type ExecutionRecord, type FlowEdge } from '../../src/index.js';
import { chain, memoryWeir } from '../flow/_flows.js';
import { cli, tmpDir, writeJson } from '../_utils.js';

const CASES = [
  { when: "{{ $input.type == 'order' }}", handle: 'order' },
  { when: '{{ $input.amount > 100 }}', handle: 'big' },
  { when: "{{ $input.type == 'refund' }}", handle: 'refund' },
];

/** A node that counts its runs by node id and outputs what it received. */
function seen(runs: Map<string, number>) {
  return defineNode({
    type: 'seen',
    run(ctx) {
      runs.set(ctx.node.id, (runs.get(ctx.node.id) ?? 0) + 1);
      return { got: ctx.input };
    },
  });
}

/** trigger -> switch-1 -> one set per handle (order, big, refund, other), each after its `middle` node if given -> the join of all four (seen-1). */
function routing(config: Record<string, unknown>, middle: { id: string; type: string; config?: Record<string, unknown> }[] = [], join: { id: string; type: string; config?: Record<string, unknown> } = { id: 'seen-1', type: 'seen' }) {
  const branches = [
    { id: 'set-1', type: 'set', config: { values: { branch: 'order' } } },
    { id: 'set-2', type: 'set', config: { values: { branch: 'big' } } },
    { id: 'set-3', type: 'set', config: { values: { branch: 'refund' } } },
    { id: 'set-4', type: 'set', config: { values: { branch: 'other' } } },
  ];
  const handles = ['order', 'big', 'refund', 'other'];
  const edges: FlowEdge[] = [
    { source: 'manual_trigger-1', target: 'switch-1' },
    ...branches.map((b, i) => ({ source: 'switch-1', target: middle[i]?.id ?? b.id, sourceHandle: handles[i] })),
    ...middle.map((m, i) => ({ source: m.id, target: branches[i].id })),
    ...branches.map((b) => ({ source: b.id, target: join.id })),
  ];
  return chain([{ id: 'switch-1', type: 'switch', config: { cases: CASES, default: 'other', ...config } }, ...middle, ...branches, join], edges);
}

const ran = (r: ExecutionRecord) => ['set-1', 'set-2', 'set-3', 'set-4'].filter((id) => r.nodes[id].status === 'success');

test('mode first: the first case whose when is truthy is taken, later matches are not; nothing matching takes the default', async () => {
  const runs = new Map<string, number>();
  const weir = await memoryWeir({ nodes: [seen(runs)] });
  const { id } = await weir.workflows.create('route');
  await weir.workflows.save(id, routing({}));

  const order = await weir.run(id, { type: 'order', amount: 500 });
  assert.is(order.status, 'success', JSON.stringify(order.error));
  assert.equal(ran(order), ['set-1'], 'order matches first; big matches too but is not taken');
  assert.equal(order.nodes['switch-1'].data, { handles: ['order'], matched: [0] });
  assert.is(order.nodes['switch-1'].handle, 'order');
  assert.equal(order.nodes['seen-1'].data, { got: { branch: 'order' } });

  const big = await weir.run(id, { type: 'refund', amount: 101 });
  assert.equal(ran(big), ['set-2'], 'big comes before refund in the cases');

  const refund = await weir.run(id, { type: 'refund', amount: 5 });
  assert.equal(ran(refund), ['set-3']);

  const other = await weir.run(id, { type: 'misc', amount: 1 });
  assert.equal(ran(other), ['set-4']);
  assert.equal(other.nodes['switch-1'].data, { handles: ['other'], matched: [] });
  assert.equal(other.nodes['seen-1'].data, { got: { branch: 'other' } });
  assert.is(other.nodes['set-1'].status, 'skipped');
  assert.equal(runs.get('seen-1'), 4, 'the join ran once per run');
  await weir.close();
});

test('mode all: every matching case is taken, the branches run concurrently and join once; none matching takes the default', async () => {
  const runs = new Map<string, number>();
  const weir = await memoryWeir({ nodes: [seen(runs)] });
  const { id } = await weir.workflows.create('fan');
  const delays = [1, 2, 3, 4].map((n) => ({ id: `delay-${n}`, type: 'delay', config: { ms: 150 } }));
  await weir.workflows.save(id, routing({ mode: 'all' }, delays));

  const both = await weir.run(id, { type: 'order', amount: 500 });
  assert.is(both.status, 'success', JSON.stringify(both.error));
  assert.equal(ran(both), ['set-1', 'set-2']);
  assert.equal(both.nodes['switch-1'].data, { handles: ['order', 'big'], matched: [0, 1] });
  assert.equal(both.nodes['switch-1'].handle, ['order', 'big']);
  assert.equal(runs.get('seen-1'), 1, 'the join runs once, after both branches');
  assert.equal(both.nodes['seen-1'].data, { got: { 'set-1': { branch: 'order' }, 'set-2': { branch: 'big' } } });
  const [a, b] = [both.nodes['delay-1'], both.nodes['delay-2']];
  const t = (s: string | null) => Date.parse(s!);
  assert.ok(t(a.startedAt) < t(b.finishedAt) && t(b.startedAt) < t(a.finishedAt), `the branches overlap: ${JSON.stringify({ a, b })}`);
  assert.ok(t(both.nodes['seen-1'].startedAt) >= Math.max(t(a.finishedAt), t(b.finishedAt)));
  assert.is(both.nodes['delay-3'].status, 'skipped');
  assert.is(both.nodes['delay-4'].status, 'skipped', 'the default is not taken when a case matched');

  const none = await weir.run(id, { type: 'misc', amount: 1 });
  assert.equal(ran(none), ['set-4']);
  assert.equal(none.nodes['switch-1'].data, { handles: ['other'], matched: [] });
  assert.equal(none.nodes['switch-1'].handle, ['other']);
  assert.equal(none.nodes['seen-1'].data, { got: { branch: 'other' } });
  await weir.close();
});

test('without a default, a value no case matches takes no edge: what follows the switch is skipped', async () => {
  const runs = new Map<string, number>();
  const weir = await memoryWeir({ nodes: [seen(runs)] });
  const config = routing({});
  delete (config.nodes[1].config as Record<string, unknown>).default;
  config.edges = config.edges.filter((e) => e.sourceHandle !== 'other');
  config.nodes = config.nodes.filter((n) => n.id !== 'set-4');
  config.edges = config.edges.filter((e) => e.source !== 'set-4');
  const { id } = await weir.workflows.create('no-default');
  await weir.workflows.save(id, config);
  const r = await weir.run(id, { type: 'misc', amount: 1 });
  assert.is(r.status, 'success', JSON.stringify(r.error));
  assert.equal(r.nodes['switch-1'].data, { handles: [], matched: [] });
  assert.is(r.nodes['switch-1'].handle, undefined);
  assert.equal(['set-1', 'set-2', 'set-3', 'seen-1'].map((n) => r.nodes[n].status), ['skipped', 'skipped', 'skipped', 'skipped']);
  assert.is(runs.get('seen-1'), undefined);
  await weir.close();
});

test('retry of a fan-out that failed in one branch replays the switch and takes the same branches', async () => {
  const runs = new Map<string, number>();
  const weir = await memoryWeir({ nodes: [seen(runs)] });
  const { id } = await weir.workflows.create('fan-retry');
  const middle = [{ id: 'flaky-1', type: 'flaky', config: { failures: 1 } }, { id: 'delay-1', type: 'delay', config: { ms: 1 } }, { id: 'delay-2', type: 'delay', config: { ms: 1 } }, { id: 'delay-3', type: 'delay', config: { ms: 1 } }];
  await weir.workflows.save(id, routing({ mode: 'all' }, middle));
  const failed = await weir.run(id, { type: 'order', amount: 500 });
  assert.is(failed.status, 'error');
  assert.is(failed.error?.node, 'flaky-1');
  const retried = await weir.executions.retry(failed.id);
  assert.is(retried.status, 'success', JSON.stringify(retried.error));
  assert.is(retried.nodes['switch-1'].startedAt, failed.nodes['switch-1'].startedAt, 'the switch is replayed from its record');
  assert.equal(ran(retried), ['set-1', 'set-2']);
  assert.equal(retried.nodes['seen-1'].data, { got: { 'set-1': { branch: 'order' }, 'set-2': { branch: 'big' } } });
  assert.is(runs.get('seen-1'), 1);
  await weir.close();
});

test('weir workflows save refuses a switch edge by an unknown handle, an edge without one, duplicate handles and cases without when or handle (exit 1)', async () => {
  const home = tmpDir();
  const created = await cli(['workflows', 'create', 'router', '--json'], { home });
  assert.is(created.code, 0, created.stderr);
  const { id } = created.json<{ id: string }>();
  // The CLI knows no `seen` type: its flows join on a set node.
  const joined = (config: Record<string, unknown>) => routing(config, [], { id: 'set-5', type: 'set', config: { values: { joined: true } } });
  const save = (name: string, config: unknown) => cli(['workflows', 'save', id, writeJson(home, name, config)], { home });

  const good = joined({});
  const ok = await save('good.json', good);
  assert.is(ok.code, 0, ok.stderr);

  const unknown = joined({});
  unknown.edges[2] = { id: 'e-typo', source: 'switch-1', target: 'set-2', sourceHandle: 'bigg' };
  const r1 = await save('unknown.json', unknown);
  assert.is(r1.code, 1);
  assert.match(r1.stderr, 'edge e-typo: "switch-1" has the handles "order", "big", "refund", "other", not "bigg"');

  const bare = joined({});
  delete bare.edges[1].sourceHandle;
  const r2 = await save('bare.json', bare);
  assert.is(r2.code, 1);
  assert.match(r2.stderr, 'edge 1: an edge out of "switch-1" needs a "sourceHandle", one of "order", "big", "refund", "other"');

  const broken = joined({ cases: [{ when: "{{ $input.type == 'a' }}", handle: 'a' }, { when: '{{ true }}', handle: 'a' }, { handle: 'c' }, { when: '{{ true }}' }, { when: "$input.type == 'x'", handle: 'x' }], default: 'a' });
  broken.edges = broken.edges.filter((e) => e.source !== 'switch-1');
  const r3 = await save('broken.json', broken);
  assert.is(r3.code, 1);
  for (const message of [
    'cases[1].handle "a" is also the handle of cases[0]',
    'cases[2].when is required',
    'cases[3].handle is required',
    "cases[4].when must be one {{ }} expression (nothing around it) or true/false, e.g. \"{{ $input.type == 'order' }}\", got \"$input.type == 'x'\"",
    '"default" "a" is also the handle of cases[0]',
  ]) {
    assert.match(r3.stderr, message);
  }

  const r4 = await save('mode.json', joined({ mode: 'any' }));
  assert.is(r4.code, 1);
  assert.match(r4.stderr, '"mode" must be "first" or "all", got "any"');

  const r5 = await save('no-cases.json', { ...joined({ cases: [] }), edges: [{ source: 'manual_trigger-1', target: 'switch-1' }] });
  assert.is(r5.code, 1);
  assert.match(r5.stderr, '"cases" must be a non-empty array');

  // The draft is still the good one, and runs from the CLI.
  const run = await cli(['workflows', 'run', id, '--input', '{"type":"refund","amount":3}', '--json'], { home });
  assert.is(run.code, 0, run.stderr);
  const { executionId } = run.json();
  const record = (await cli(['workflows', 'execution', executionId, '--json'], { home })).json();
  assert.equal(record.nodes['switch-1'].data, { handles: ['refund'], matched: [2] });
  assert.is(record.nodes['set-3'].status, 'success');
});

test.run();
