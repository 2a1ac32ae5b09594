// call_flow's parent and child executions: the child names its parent, the parent lists its children, in the
// records the CLI and the library read, across a wait, a resume from a checkpoint and a retry.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defineNode, type ExecutionRecord, type Weir } from '../../src/index.js';
import { chain as flowChain, memoryWeir } from '../flow/_flows.js';
import { chain, homeWith, publish, send, startHost, until } from '../host/_helpers.js';
import { cli } from '../_utils.js';

/** Publishes `child` (manual -> set: `{doubled}`) and `parent` (manual -> call_flow child -> `more`). */
async function family(weir: Weir, more: Array<{ type: string; id: string; config?: Record<string, unknown> }> = []) {
  const child = await publish(weir, 'child', { type: 'manual_trigger' }, ...(Object.values(chain('manual_trigger', [{ type: 'set', id: 'set-1', config: { values: { doubled: '{{ $input.n * 2 }}' } } }])) as [any[], any[]]));
  const c = chain('manual_trigger', [{ type: 'call_flow', id: 'call_flow-1', config: { flow: 'child', input: { n: '{{ $input.n }}' } } }, ...more]);
  const parent = await publish(weir, 'parent', { type: 'manual_trigger' }, c.nodes, c.edges);
  return { child, parent };
}

test('the child names its parent and the parent lists the child, in `weir workflows execution --json` and its text', async () => {
  let ids = { parent: '', child: '', childWorkflow: '' };
  const home = await homeWith(async (weir) => {
    const { child } = await family(weir);
    const run = await weir.run('parent', { n: 21 }, { published: true });
    assert.is(run.status, 'success');
    assert.equal(run.result, { doubled: 42 });
    ids = { parent: run.id, child: run.children![0].executionId, childWorkflow: child.id };
  });
  const parent = await cli(['workflows', 'execution', ids.parent, '--json'], { home });
  assert.is(parent.code, 0, parent.stderr);
  assert.equal(parent.json().children, [{ executionId: ids.child, workflowId: ids.childWorkflow, nodeId: 'call_flow-1' }]);
  assert.is(parent.json().parentExecutionId, undefined, 'a run started by hand has no parent');
  const child = await cli(['workflows', 'execution', ids.child, '--json'], { home });
  assert.equal([child.json().parentExecutionId, child.json().parentNodeId, child.json().trigger, child.json().children], [ids.parent, 'call_flow-1', 'call_flow', undefined]);
  const text = await cli(['workflows', 'execution', ids.child], { home });
  assert.match(text.stdout, new RegExp(`parent: +${ids.parent} \\(call_flow-1\\)`));
  assert.match((await cli(['workflows', 'execution', ids.parent], { home })).stdout, new RegExp(`children: +${ids.child} \\(call_flow-1\\)`));
});

test("the parent's stored record lists the child before the child's first node runs", async () => {
  let weir!: Weir;
  // The child's only node reads the parent's open entry (its checkpoint) as it stands when the child starts.
  const peek = defineNode<{ parent: string }>({
    type: 'parent_entry',
    run: async (ctx) => ({ children: (await weir.executions.open.list()).find((e) => e.record.id === ctx.config.parent)?.record.children ?? null, me: ctx.execution.id }),
  });
  weir = await memoryWeir({ nodes: [peek] });
  try {
    const child = await weir.workflows.create('peek');
    await weir.workflows.save(child.id, flowChain([{ id: 'parent_entry-1', type: 'parent_entry', config: { parent: '{{ $input.parent }}' } }]));
    await weir.workflows.publish(child.id);
    const parent = await weir.workflows.create('caller');
    await weir.workflows.save(parent.id, flowChain([{ id: 'call_flow-1', type: 'call_flow', config: { flow: 'peek', input: { parent: '{{ $execution.id }}' } } }]));
    const run = await weir.run('caller', {});
    assert.is(run.status, 'success', JSON.stringify(run.error));
    const seen = run.result as { children: unknown; me: string };
    assert.equal(seen.children, [{ executionId: seen.me, workflowId: child.id, nodeId: 'call_flow-1' }]);
    assert.equal(run.children, seen.children);
  } finally {
    await weir.close();
  }
});

test('a parent that waits, or resumes from a checkpoint, keeps each child once; a retry is no one\'s child and has none', async () => {
  const PUBLIC = 'https://hooks.example.test';
  const host = await startHost({ config: { publicUrl: PUBLIC } });
  const finished = (id: string) =>
    until(async () => {
      const r = await host.weir.executions.get(id).catch(() => null);
      return r && r.status !== 'running' && r.status !== 'waiting' && r;
    }, 10_000, `execution ${id} to finish`);
  try {
    const { child } = await family(host.weir, [
      { type: 'set', id: 'set-2', config: { values: { url: '{{ $execution.resumeUrl }}' } } },
      { type: 'wait', id: 'wait-1', config: { webhook: true } },
      { type: 'set', id: 'set-3', config: { values: { done: true } } },
    ]);
    const waiting = await host.weir.run('parent', { n: 1 }, { published: true });
    assert.is(waiting.status, 'waiting');
    const first = { executionId: waiting.children![0].executionId, workflowId: child.id, nodeId: 'call_flow-1' };
    assert.equal(waiting.children, [first]);
    const url = (waiting.nodes['set-2'].data as { url: string }).url;
    assert.is((await send(host.url + url.slice(PUBLIC.length), { body: '{}', headers: { 'content-type': 'application/json' } })).status, 202);
    const woken = await finished(waiting.id);
    assert.is(woken.status, 'success');
    assert.equal(woken.children, [first], 'the wait ended with the child listed once');

    // A crash after the child was listed and before call_flow's own checkpoint: the resumed run starts a new
    // child and lists both, each once.
    const stored = await host.weir.executions.get(waiting.id);
    const { 'call_flow-1': _lost, 'set-2': _a, 'wait-1': _b, 'set-3': _c, ...kept } = stored.nodes;
    const pub = (await host.weir.workflows.findPublished('parent'))!;
    const resumed = await host.weir.executor.run({
      workflow: { id: pub.id, name: pub.name, version: pub.version, config: pub.config, hash: pub.hash },
      input: stored.input,
      trigger: 'manual',
      resume: { ...stored, status: 'running', nodes: kept, finishedAt: null } as ExecutionRecord,
    });
    assert.is(resumed.id, waiting.id);
    assert.is(resumed.children!.length, 2);
    assert.equal(resumed.children![0], first);
    const second = resumed.children![1];
    assert.ok(second.executionId !== first.executionId && second.nodeId === 'call_flow-1' && second.workflowId === child.id);
    assert.equal((await host.weir.executions.get(second.executionId)).parentExecutionId, waiting.id);

    // A parent that failed after its child: the retry reuses call_flow's record and starts no child.
    const failing = chain('manual_trigger', [
      { type: 'call_flow', id: 'call_flow-1', config: { flow: 'child', input: { n: 2 } } },
      { type: 'code', id: 'code-1', config: { code: 'throw new Error("after the child")' } },
    ]);
    await publish(host.weir, 'fails-after', { type: 'manual_trigger' }, failing.nodes, failing.edges);
    const failed = await host.weir.run('fails-after', {}, { published: true });
    assert.is(failed.status, 'error');
    assert.is(failed.children!.length, 1);
    const retried = await host.weir.executions.retry(failed.id);
    assert.equal([retried.retryOf, retried.children, retried.parentExecutionId], [failed.id, undefined, undefined]);
  } finally {
    await host.close();
  }
});

test.run();
