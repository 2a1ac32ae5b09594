import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WeirError } from '../../src/index.js';
import { chain, fixture, memoryWeir, runConfig } from './_flows.js';

const statuses = (nodes: Record<string, { status: string }>) => Object.fromEntries(Object.entries(nodes).map(([k, v]) => [k, v.status]));

test('a condition takes one branch; the other and what only it leads to are skipped; the join runs once', async () => {
  const weir = await memoryWeir();
  const big = await runConfig(weir, fixture('branch'), { amount: 500 });
  assert.is(big.status, 'success');
  assert.equal(statuses(big.nodes), { 'manual_trigger-1': 'success', 'condition-1': 'success', 'set-1': 'success', 'set-2': 'skipped', 'set-3': 'skipped', 'set-4': 'success' });
  assert.equal(big.nodes['condition-1'].data, { result: true });
  assert.equal(big.nodes['set-1'].data, { tier: 'big', amount: 500 });
  assert.equal(big.result, { tier: 'big' });

  const small = await runConfig(weir, fixture('branch'), { amount: 5 });
  assert.equal(statuses(small.nodes), { 'manual_trigger-1': 'success', 'condition-1': 'success', 'set-1': 'skipped', 'set-2': 'success', 'set-3': 'success', 'set-4': 'success' });
  assert.equal(small.nodes['set-3'].data, { note: 'small order' });
  assert.equal(small.result, { tier: 'small' });
  assert.is(small.nodes['set-1'].startedAt, null);
  await weir.close();
});

test('independent branches run concurrently and fan in once both delivered', async () => {
  const weir = await memoryWeir();
  const r = await runConfig(weir, fixture('fanout'));
  assert.is(r.status, 'success');
  const [a, b, join] = ['delay-1', 'delay-2', 'set-1'].map((id) => r.nodes[id]);
  const t = (s: string | null) => Date.parse(s!);
  // Overlap: each delay started before the other finished.
  assert.ok(t(a.startedAt) < t(b.finishedAt) && t(b.startedAt) < t(a.finishedAt), JSON.stringify({ a, b }));
  assert.ok(t(join.startedAt) >= Math.max(t(a.finishedAt), t(b.finishedAt)));
  // A node with several predecessors gets their data by node id.
  assert.equal(r.nodes['set-1'].data, { joined: true });
  await weir.close();
});

test('fan-in input: one predecessor gives its data, several give an object by node id', async () => {
  const weir = await memoryWeir({
    nodes: [{ type: 'echo', run: (ctx) => ({ got: ctx.input }) }],
  });
  const config = chain(
    [
      { id: 'set-1', type: 'set', config: { values: { a: 1 } } },
      { id: 'set-2', type: 'set', config: { values: { b: 2 } } },
      { id: 'echo-1', type: 'echo' },
      { id: 'echo-2', type: 'echo' },
    ],
    [
      { source: 'manual_trigger-1', target: 'set-1' },
      { source: 'manual_trigger-1', target: 'set-2' },
      { source: 'set-1', target: 'echo-1' },
      { source: 'set-2', target: 'echo-1' },
      { source: 'set-1', target: 'echo-2' },
    ],
  );
  const r = await runConfig(weir, config);
  assert.equal(r.nodes['echo-1'].data, { got: { 'set-1': { a: 1 }, 'set-2': { b: 2 } } });
  assert.equal(r.nodes['echo-2'].data, { got: { a: 1 } });
  await weir.close();
});

// The shrunk case of test/props/executor.test.ts (issue #34): trigger -> node over two edges.
test('a node reached over two edges from one predecessor gets its data as is, not keyed by its id', async () => {
  const weir = await memoryWeir({ nodes: [{ type: 'echo', run: (ctx) => ({ got: ctx.input }) }] });
  const config = chain(
    [{ id: 'echo-1', type: 'echo' }],
    [
      { id: 'e1', source: 'manual_trigger-1', target: 'echo-1' },
      { id: 'e2', source: 'manual_trigger-1', target: 'echo-1' },
    ],
  );
  const r = await runConfig(weir, config, { a: 1 });
  assert.is(r.status, 'success');
  assert.equal(r.nodes['echo-1'].data, { got: { a: 1 } });
  await weir.close();
});

test('a node nothing leads to is skipped, and does not hold back the nodes it feeds', async () => {
  const weir = await memoryWeir();
  const config = chain(
    [
      { id: 'set-1', type: 'set', config: { values: { a: 1 } } },
      { id: 'set-2', type: 'set', config: { values: { orphan: true } } },
      { id: 'set-3', type: 'set', config: { values: { joined: true } } },
    ],
    [
      { source: 'manual_trigger-1', target: 'set-1' },
      { source: 'set-1', target: 'set-3' },
      { source: 'set-2', target: 'set-3' },
    ],
  );
  const r = await runConfig(weir, config);
  assert.equal(statuses(r.nodes), { 'manual_trigger-1': 'success', 'set-1': 'success', 'set-2': 'skipped', 'set-3': 'success' });
  await weir.close();
});

test('the trigger outputs its input; the result is the last node to finish, or the trigger input alone', async () => {
  const weir = await memoryWeir();
  const only = await runConfig(weir, chain([]), { x: 1 });
  assert.equal(only.nodes['manual_trigger-1'].data, { x: 1 });
  assert.equal(only.result, { x: 1 });
  const r = await runConfig(weir, fixture('chain'), { name: 'ada' });
  assert.equal(r.nodes['set-1'].data, { greeting: 'Hello ada', len: 3 });
  assert.is((r.result as { shout: string }).shout, 'HELLO ADA');
  await weir.close();
});

test('a Respond node sets the result and answers once through onRespond; the flow goes on', async () => {
  const weir = await memoryWeir();
  const answers: unknown[] = [];
  const config = chain([
    { id: 'respond-1', type: 'respond', config: { status: 202, body: { queued: '{{ $input.id }}' }, headers: { 'X-Trace': 'abc' } } },
    { id: 'respond-2', type: 'respond', config: { status: 200, body: 'second' } },
    { id: 'set-1', type: 'set', config: { values: { after: true } } },
  ]);
  const r = await runConfig(weir, config, { id: 9 }, { onRespond: (a: unknown) => answers.push(a) });
  assert.equal(answers, [{ status: 202, body: { queued: 9 }, headers: { 'x-trace': 'abc' } }]);
  assert.equal(r.result, { queued: 9 });
  assert.is(r.nodes['set-1'].status, 'success');
  await weir.close();
});

test('retry: failed attempts are retried with doubling backoff, then succeed', async () => {
  const weir = await memoryWeir();
  const started = Date.now();
  const r = await runConfig(weir, chain([{ id: 'flaky-1', type: 'flaky', config: { failures: 2, retry: { max: 3, backoffMs: 40 } } }]));
  assert.is(r.status, 'success');
  assert.is(r.nodes['flaky-1'].attempts, 3);
  assert.is((r.nodes['flaky-1'].data as { attempts: number }).attempts, 3);
  assert.ok(Date.now() - started >= 40 + 80, 'waited 40 then 80 ms');
  const out = await runConfig(weir, chain([{ id: 'flaky-2', type: 'flaky', config: { failures: 5, retry: { max: 1, backoffMs: 1 } } }]));
  assert.is(out.status, 'error');
  assert.is(out.nodes['flaky-2'].attempts, 2);
  assert.match(out.error!.message, 'flaky failure 2');
  await weir.close();
});

test('timeoutMs fails a slow node with TIMEOUT and aborts its signal', async () => {
  const weir = await memoryWeir();
  const r = await runConfig(weir, chain([{ id: 'hang-1', type: 'hang', config: { timeoutMs: 50 } }, { id: 'set-1', type: 'set', config: { values: {} } }]));
  assert.is(r.status, 'error');
  assert.equal(r.error, { code: 'TIMEOUT', message: 'node hang-1 timed out after 50 ms', status: 504, node: 'hang-1' });
  assert.is(r.nodes['set-1'], undefined, 'nothing after the failed node ran');
  const slow = await runConfig(weir, chain([{ id: 'delay-1', type: 'delay', config: { ms: 5000, timeoutMs: 30 } }]));
  assert.is(slow.error?.code, 'TIMEOUT');
  assert.ok(Date.parse(slow.finishedAt!) - Date.parse(slow.startedAt) < 2000);
  await weir.close();
});

test('onError continue records the error as data and goes on; stop (default) fails the execution', async () => {
  const weir = await memoryWeir();
  const go = await runConfig(weir, chain([{ id: 'boom-1', type: 'boom', config: { onError: 'continue' } }, { id: 'set-1', type: 'set', config: { values: { saw: '{{ $node.boom-1.data.error.message }}' } } }]));
  assert.is(go.status, 'success');
  assert.is(go.nodes['boom-1'].status, 'error');
  assert.equal(go.nodes['boom-1'].data, { error: { code: 'EXECUTION_FAILED', message: 'boom' } });
  assert.equal(go.result, { saw: 'boom' });

  const stop = await runConfig(weir, chain([{ id: 'boom-1', type: 'boom', config: { onError: 'stop' } }, { id: 'set-1', type: 'set', config: { values: {} } }]));
  assert.is(stop.status, 'error');
  assert.equal(stop.error, { code: 'EXECUTION_FAILED', message: 'boom', node: 'boom-1' });
  assert.is(stop.result, null);
  assert.is(stop.nodes['set-1'], undefined);
  await weir.close();
});

test('a failing branch stops the execution and aborts nodes still running elsewhere', async () => {
  const weir = await memoryWeir();
  const config = chain(
    [
      { id: 'hang-1', type: 'hang' },
      { id: 'boom-1', type: 'boom' },
      { id: 'aborted_list-1', type: 'aborted_list' },
    ],
    [
      { source: 'manual_trigger-1', target: 'hang-1' },
      { source: 'manual_trigger-1', target: 'boom-1' },
    ],
  );
  const r = await runConfig(weir, config);
  assert.is(r.status, 'error');
  assert.is(r.error?.node, 'boom-1');
  assert.is(r.nodes['hang-1'].status, 'error');
  assert.is(r.nodes['hang-1'].error?.code, 'CANCELLED');
  await weir.close();
});

test('cancellation through an AbortSignal: running nodes stop, nothing new starts, status cancelled', async () => {
  const weir = await memoryWeir();
  const controller = new AbortController();
  weir.bus.on('node:start', (e: any) => {
    if (e.nodeId === 'delay-1') setTimeout(() => controller.abort(), 20);
  });
  const started = Date.now();
  const r = await runConfig(weir, chain([{ id: 'delay-1', type: 'delay', config: { ms: 10_000 } }, { id: 'set-1', type: 'set', config: { values: {} } }]), {}, { signal: controller.signal });
  assert.is(r.status, 'cancelled');
  assert.is(r.error?.code, 'CANCELLED');
  assert.is(r.nodes['delay-1'].status, 'error');
  assert.is(r.nodes['set-1'], undefined);
  assert.ok(Date.now() - started < 5000);
  const before = new AbortController();
  before.abort();
  const none = await runConfig(weir, chain([{ id: 'set-1', type: 'set', config: { values: {} } }]), {}, { signal: before.signal });
  assert.is(none.status, 'cancelled');
  assert.equal(Object.keys(none.nodes), []);
  await weir.close();
});

test('cancellation stops a Code node spinning in its worker, with or without a retry policy', async () => {
  const weir = await memoryWeir();
  for (const retry of [undefined, { max: 2, backoffMs: 10 }]) {
    const controller = new AbortController();
    const onStart = (e: any) => {
      if (e.nodeId === 'code-1') setTimeout(() => controller.abort(), 50);
    };
    weir.bus.on('node:start', onStart);
    const code = { id: 'code-1', type: 'code', config: { code: 'while (true) {}', timeoutMs: 20_000 }, ...(retry ? { retry } : {}) };
    const started = Date.now();
    const r = await runConfig(weir, chain([code, { id: 'set-1', type: 'set', config: { values: {} } }]), {}, { signal: controller.signal });
    assert.is(r.status, 'cancelled');
    assert.is(r.nodes['code-1'].error?.code, 'CANCELLED');
    assert.is(r.nodes['set-1'], undefined);
    assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
    weir.bus.off('node:start', onStart);
  }
  assert.is(await weir.sandbox.run('return 7', { globals: {} }), 7);
  await weir.close();
});

test('bus events: execution and node start/end, in order', async () => {
  const weir = await memoryWeir();
  const seen: string[] = [];
  for (const type of ['execution:start', 'execution:end', 'node:start', 'node:end']) {
    weir.bus.on(type, (e: any) => seen.push(`${type} ${e.nodeId ?? e.status ?? ''}`.trim()));
  }
  await runConfig(weir, chain([{ id: 'set-1', type: 'set', config: { values: {} } }]));
  assert.equal(seen, [
    'execution:start',
    'node:start manual_trigger-1',
    'node:end manual_trigger-1',
    'node:start set-1',
    'node:end set-1',
    'execution:end success',
  ]);
  await weir.close();
});

test('a config is validated before it runs', async () => {
  const weir = await memoryWeir();
  try {
    await runConfig(weir, chain([{ id: 'set-1', type: 'set', config: { values: { a: '{{ $input. }}' } } }]));
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, WeirError);
    assert.is((err as WeirError).code, 'INVALID_CONFIG');
    assert.match((err as WeirError).message, 'nodes[1].config.values.a');
  }
  await weir.close();
});

test('save refuses bad expressions (with position), bad options, unknown handles and cycles; raw code is not parsed', async () => {
  const weir = await memoryWeir();
  const { id } = await weir.workflows.create('checks');
  const config = chain(
    [
      { id: 'set-1', type: 'set', config: { values: { a: 'x {{ $input.constructor }}' }, retry: { max: -1 }, timeoutMs: 0, onError: 'ignore' } },
      { id: 'condition-1', type: 'condition', config: { rules: { '==': [1, 1] } } },
      { id: 'set-2', type: 'set', config: { values: {} } },
      { id: 'code-1', type: 'code', config: { code: 'return `{{ not an expression }}`' } },
    ],
    [
      { source: 'manual_trigger-1', target: 'set-1' },
      { source: 'set-1', target: 'condition-1' },
      { source: 'condition-1', target: 'set-2', sourceHandle: 'maybe' },
      { source: 'set-2', target: 'set-1' },
    ],
  );
  try {
    await weir.workflows.save(id, config);
    assert.unreachable('save should refuse');
  } catch (err) {
    const problems = (err as WeirError).details as Array<{ path: string; message: string }>;
    const text = problems.map((p) => `${p.path}: ${p.message}`).join('\n');
    assert.match(text, 'nodes[1].config.values.a: set-1: expression error at position 12: "constructor" is not accessible');
    assert.match(text, 'nodes[1].config.retry.max');
    assert.match(text, 'nodes[1].config.timeoutMs');
    assert.match(text, 'nodes[1].config.onError');
    assert.match(text, 'edges[2].sourceHandle');
    assert.match(text, 'cycle: set-1 -> condition-1 -> set-2 -> set-1');
    assert.not.match(text, 'code-1');
  }
  await weir.close();
});

test('$execution in expressions: its id, its resume URL by name, and written whole only its id', async () => {
  const weir = await memoryWeir();
  const r = await runConfig(weir, chain([
    { id: 'set-1', type: 'set', config: { values: { whole: '{{ $execution }}', id: '{{ $execution.id }}' } } },
    { id: 'set-2', type: 'set', config: { values: { url: '{{ $execution.resumeUrl }}', viaIndex: "{{ $execution['resumeUrl'] }}" } } },
  ]));
  assert.is(r.status, 'success');
  assert.equal(r.nodes['set-1'].data, { whole: { id: r.id }, id: r.id });
  const { url, viaIndex } = r.nodes['set-2'].data as { url: string; viaIndex: string };
  assert.match(url, /\/resume\/[\w-]{32}$/);
  assert.is(viaIndex, url, 'one URL per execution, however it is named');
  await weir.close();
});

test.run();
