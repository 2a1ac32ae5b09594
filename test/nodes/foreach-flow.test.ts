// foreach over a published sub-flow: one execution per item (or batch), `parallelism` at once, results in item
// order, `onItemError`, `batchSize`, the parent/children links, and cancelling the parent.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defineNode, type Weir, type WeirError } from '../../src/index.js';
import { chain, memoryWeir } from '../flow/_flows.js';
import { until } from '../host/_helpers.js';

/**
 * A weir with `item_work`: waits `$input.item.ms` (or each batch item's), fails when the item says `fail`, and
 * counts the runs going at once; `started` lists the indexes in the order their runs started.
 */
async function setup() {
  const seen = { running: 0, most: 0, started: [] as number[] };
  const work = defineNode({
    type: 'item_work',
    async run(ctx) {
      const input = ctx.execution.input as { item?: { ms?: number; fail?: boolean; v?: unknown }; items?: Array<{ v: unknown }>; index: number };
      seen.started.push(input.index);
      seen.running++;
      seen.most = Math.max(seen.most, seen.running);
      try {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, input.item?.ms ?? 1);
          ctx.onCancel(() => {
            clearTimeout(timer);
            reject(new Error('cancelled'));
          });
        });
      } finally {
        seen.running--;
      }
      if (input.item?.fail) throw new Error(`item ${input.index} is broken`);
      return input.items ? input.items.map((it) => `batch@${input.index}:${it.v}`) : { v: input.item?.v, index: input.index };
    },
  });
  const weir = await memoryWeir({ nodes: [work] });
  const sub = await weir.workflows.create('item-sub');
  await weir.workflows.save(sub.id, chain([{ id: 'item_work-1', type: 'item_work' }]));
  await weir.workflows.publish(sub.id);
  const parent = async (config: Record<string, unknown>) => {
    const { id } = await weir.workflows.create(`parent-${Math.random().toString(36).slice(2)}`);
    await weir.workflows.save(id, chain([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input.items }}', flow: 'item-sub', ...config } }]));
    return id;
  };
  return { weir, seen, parent, subId: sub.id };
}

test('each item runs the sub-flow as its own execution, `parallelism` at once, results in item order', async () => {
  const { weir, seen, parent, subId } = await setup();
  try {
    // Later items finish first: the data is still in item order.
    const items = Array.from({ length: 12 }, (_, i) => ({ v: `v${i}`, ms: 60 - i * 5 }));
    const id = await parent({ parallelism: 4 });
    const run = await weir.run(id, { items });
    assert.is(run.status, 'success', JSON.stringify(run.error));
    assert.equal(run.result, items.map((it, i) => ({ v: it.v, index: i })));
    assert.is(seen.most, 4, 'never more than parallelism at once, and that many');
    assert.is(run.children!.length, 12);
    for (const child of run.children!) {
      const record = await weir.executions.get(child.executionId);
      assert.equal([record.parentExecutionId, record.parentNodeId, record.trigger, record.workflowId, child.nodeId], [run.id, 'foreach-1', 'foreach', subId, 'foreach-1']);
    }
    const inputs = await Promise.all(run.children!.map(async (c) => (await weir.executions.get(c.executionId)).input as { index: number }));
    assert.equal(inputs.map((i) => i.index).sort((a, b) => a - b), [...Array(12).keys()]);
    const one = await weir.run(await parent({}), { items: items.slice(0, 5) });
    assert.equal(one.result, items.slice(0, 5).map((it, i) => ({ v: it.v, index: i })));
    assert.ok(seen.most >= 1);
  } finally {
    await weir.close();
  }
});

test('onItemError continue: {error} with the failed run in its place; stop: the node fails and no later item starts', async () => {
  const { weir, seen, parent } = await setup();
  try {
    const items = [{ v: 'a' }, { v: 'b', fail: true }, { v: 'c' }];
    const cont = await weir.run(await parent({ onItemError: 'continue' }), { items });
    assert.is(cont.status, 'success', JSON.stringify(cont.error));
    const [a, b, c] = cont.result as Array<Record<string, any>>;
    assert.equal([a, c], [{ v: 'a', index: 0 }, { v: 'c', index: 2 }]);
    assert.equal([b.error.code, b.error.message, b.error.executionId], ['EXECUTION_FAILED', 'item 1 is broken', cont.children![1].executionId]);
    seen.started.length = 0;
    const stop = await weir.run(await parent({}), { items: [...items, { v: 'd' }] });
    assert.is(stop.status, 'error');
    assert.is(stop.error!.node, 'foreach-1');
    assert.match(stop.error!.message, new RegExp(`^foreach: item 1 failed: item 1 is broken \\(execution ${stop.children![1].executionId}\\)$`));
    assert.equal(seen.started, [0, 1], 'items after the failed one are not started');
    assert.is(stop.children!.length, 2);
  } finally {
    await weir.close();
  }
});

test('batchSize: the sub-flow gets {items, index} per batch, the data stays one entry per item; a wrong result fails', async () => {
  const { weir, seen, parent } = await setup();
  try {
    const items = Array.from({ length: 7 }, (_, i) => ({ v: i }));
    const run = await weir.run(await parent({ batchSize: 3, parallelism: 2 }), { items });
    assert.is(run.status, 'success', JSON.stringify(run.error));
    assert.equal(run.result, ['batch@0:0', 'batch@0:1', 'batch@0:2', 'batch@3:3', 'batch@3:4', 'batch@3:5', 'batch@6:6']);
    assert.is(run.children!.length, 3);
    assert.equal(seen.started.sort(), [0, 3, 6]);
    // A sub-flow that answers one value per batch instead of one per item.
    const sub = await weir.workflows.create('batch-wrong');
    await weir.workflows.save(sub.id, chain([{ id: 'set-1', type: 'set', config: { values: { n: '{{ $input.items.length }}' } } }]));
    await weir.workflows.publish(sub.id);
    const { id } = await weir.workflows.create('batch-wrong-parent');
    await weir.workflows.save(id, chain([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input.items }}', flow: 'batch-wrong', batchSize: 2, onItemError: '{{ $input.mode }}' } }]));
    const stop = await weir.run(id, { items: [1, 2, 3], mode: 'stop' });
    assert.is(stop.status, 'error');
    assert.match(stop.error!.message, /^foreach: items 0-1 failed: the sub-flow's result must be an array of 2 \(one entry per item\), got object \(execution exec_/);
    const cont = await weir.run(id, { items: [1, 2, 3], mode: 'continue' });
    const entries = cont.result as Array<{ error: { message: string } }>;
    assert.is(entries.length, 3);
    assert.equal(entries.map((e) => e.error.message), ["the sub-flow's result must be an array of 2 (one entry per item), got object", "the sub-flow's result must be an array of 2 (one entry per item), got object", "the sub-flow's result must be an array of 1 (one entry per item), got object"]);
    // Sub-flows that wait keep the parent waiting on them: its node waits on both children, its progress kept.
    const waits = await weir.workflows.create('waits-an-hour');
    await weir.workflows.save(waits.id, chain([{ id: 'wait-1', type: 'wait', config: { for: '1h' } }]));
    await weir.workflows.publish(waits.id);
    const waitParent = await weir.workflows.create('waits-parent');
    await weir.workflows.save(waitParent.id, chain([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input.items }}', flow: 'waits-an-hour', onItemError: 'continue' } }]));
    const waited = await weir.run(waitParent.id, { items: [1, 2] });
    assert.is(waited.status, 'waiting');
    assert.is(waited.nodes['foreach-1'].status, 'waiting');
    assert.equal(waited.nodes['foreach-1'].wait, { kind: 'children', executionIds: waited.children!.map((c) => c.executionId) });
    assert.is(waited.children!.length, 2, 'the second item ran while the first waited');
    assert.equal(Object.keys((waited.nodes['foreach-1'].progress as { started: object }).started), ['0', '1']);
    assert.is((await weir.executions.cancel(waited.id)).status, 'cancelled');
    const waitingChildren = await Promise.all(waited.children!.map((c) => weir.executions.get(c.executionId)));
    assert.equal(waitingChildren.map((c) => c.status), ['cancelled', 'cancelled'], 'the waiting children are cancelled with their parent');
    const bad = await weir.run(id, { items: [1], mode: 'sometimes' });
    assert.is(bad.error?.message, 'foreach: "onItemError" must be "stop" or "continue", got "sometimes"');
  } finally {
    await weir.close();
  }
});

test('an unknown or unpublished flow fails the node; save refuses map with flow, and sub-flow options without flow', async () => {
  const { weir, parent } = await setup();
  try {
    const missing = await weir.run(await parent({ flow: 'no-such-flow' }), { items: [1] });
    assert.is(missing.status, 'error');
    assert.is(missing.error!.code, 'NOT_FOUND');
    assert.match(missing.error!.message, /workflow "no-such-flow" not found/);
    const draft = await weir.workflows.create('draft-only');
    await weir.workflows.save(draft.id, chain([{ id: 'set-1', type: 'set', config: { values: {} } }]));
    const unpublished = await weir.run(await parent({ flow: 'draft-only' }), { items: [1] });
    assert.is(unpublished.error?.message, 'no published workflow "draft-only"');
    assert.is(unpublished.children, undefined);
    const { id } = await weir.workflows.create('bad-foreach');
    const problems = await weir.workflows
      .save(
        id,
        chain([
          { id: 'foreach-1', type: 'foreach', config: { items: '{{ $input }}', map: '{{ $item }}', flow: 'item-sub' } },
          { id: 'foreach-2', type: 'foreach', config: { items: '{{ $input }}', map: '{{ $item }}', parallelism: 4, batchSize: 2, onItemError: 'continue' } },
          { id: 'foreach-3', type: 'foreach', config: { items: '{{ $input }}', flow: 'item-sub', parallelism: 0, onItemError: 'skip' } },
          { id: 'foreach-4', type: 'foreach', config: { flow: 'item-sub' } },
        ]),
      )
      .then(
        () => '',
        (err: WeirError) => (err.details as Array<{ path: string; message: string }>).map((p) => `${p.path}: ${p.message}`).join('\n'),
      );
    assert.match(problems, /nodes\[1\]\.config\.flow: foreach-1: give "map" or "flow", not both/);
    for (const key of ['parallelism', 'batchSize', 'onItemError']) assert.match(problems, new RegExp(`nodes\\[2\\]\\.config\\.${key}: foreach-2: "${key}" goes with "flow"`));
    assert.match(problems, /nodes\[3\]\.config\.parallelism: foreach-3: /);
    assert.match(problems, /nodes\[3\]\.config\.onItemError: foreach-3: /);
    assert.match(problems, /nodes\[4\]\.config\.items: foreach-4: "items" is required/);
  } finally {
    await weir.close();
  }
});

test('cancelling the parent cancels its running children and starts no more', async () => {
  const { weir, seen, parent } = await setup();
  try {
    const items = Array.from({ length: 10 }, (_, i) => ({ v: i, ms: 60_000 }));
    const running = weir.run(await parent({ parallelism: 3 }), { items });
    await until(() => seen.running === 3, 10_000, 'three children running');
    const [live] = (await weir.executions.list({ limit: 50 })).filter((e) => e.trigger === 'manual' && e.status === 'running');
    await weir.executions.cancel(live.id);
    const run = await running;
    assert.is(run.status, 'cancelled');
    assert.is(run.children!.length, 3);
    const children = await Promise.all(run.children!.map((c) => weir.executions.get(c.executionId)));
    assert.equal(children.map((c) => c.status), ['cancelled', 'cancelled', 'cancelled']);
    assert.is(seen.started.length, 3);
  } finally {
    await weir.close();
  }
});

test.run();
