// Many sub-flows of one foreach waiting on a time and ending together: each one's end wakes the parent for that
// child alone (its own wake key, so two ends in one millisecond do not hide each other), the parent ends with
// every final result in item order, and it is woken no more often than it has waiting children.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import type { ExecutionRecord } from '../../src/flow/types.js';
import { chain, publish, tmpDir, until } from '../host/_helpers.js';

const ITEMS = 24;

test('a burst of waiting children ending at once: every end reaches the parent, results in item order, one wake per child at most', async () => {
  const weir = await createWeir({ home: tmpDir('weir-foreach-wait-many-') });
  const woken: string[] = [];
  weir.bus.on('wait:woken', (e) => woken.push((e as { executionId: string }).executionId));
  try {
    const sub = chain('manual_trigger', [
      { type: 'wait', id: 'wait-1', config: { for: '1s' } },
      { type: 'set', id: 'set-1', config: { values: { item: '{{ $input.item }}', at: '{{ $input.index }}' } } },
    ]);
    await publish(weir, 'pause-item', { type: 'manual_trigger' }, sub.nodes, sub.edges);
    const loop = chain('manual_trigger', [{ type: 'foreach', id: 'foreach-1', config: { items: '{{ $input.items }}', flow: 'pause-item', parallelism: 8 } }]);
    const { id } = await publish(weir, 'pause-all', { type: 'manual_trigger' }, loop.nodes, loop.edges);
    const items = Array.from({ length: ITEMS }, (_, i) => `item-${i}`);

    const first = await weir.run(id, { items }, { published: true });
    assert.is(first.status, 'waiting', JSON.stringify(first.error));
    const wait = first.nodes['foreach-1'].wait;
    assert.ok(wait?.kind === 'children' && wait.executionIds.length === ITEMS, 'the parent waits on every child');

    await weir.waits.start();
    const read = (executionId: string) => weir.executions.get(executionId).catch(() => null) as Promise<ExecutionRecord | null>;
    const done = await until(async () => {
      const r = await read(first.id);
      return r && r.status !== 'waiting' && r.status !== 'running' && r;
    }, 30_000, 'the parent to end');
    assert.is(done.status, 'success', JSON.stringify(done.error));
    assert.equal(done.result, items.map((item, at) => ({ item, at })), 'final results in item order');
    assert.is(new Set(done.children!.map((c) => c.executionId)).size, ITEMS, 'each item ran in one child, none started again');
    const parentWakes = woken.filter((executionId) => executionId === first.id).length;
    assert.ok(parentWakes >= 1 && parentWakes <= ITEMS, `the parent was woken ${parentWakes} times for ${ITEMS} children`);
  } finally {
    await weir.close();
  }
});

test.run();
