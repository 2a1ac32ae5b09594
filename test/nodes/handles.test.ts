// A branching node's handles may come from its own config (a switch's cases): save checks edges against
// them and the run follows the one the node returns, with no special case for the type.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defineNode } from '../../src/index.js';
import { chain, memoryWeir, runConfig } from '../flow/_flows.js';

const pick = defineNode<{ cases: string[]; choose: string }>({
  type: 'pick',
  handles: (config) => config.cases ?? [],
  run: (ctx) => ({ handle: ctx.config.choose, data: { chose: ctx.config.choose } }),
});

const flow = (choose: string, handle = 'b') =>
  chain(
    [
      { id: 'pick-1', type: 'pick', config: { cases: ['a', 'b'], choose } },
      { id: 'set-1', type: 'set', config: { values: { went: 'a' } } },
      { id: 'set-2', type: 'set', config: { values: { went: 'b' } } },
    ],
    [
      { source: 'manual_trigger-1', target: 'pick-1' },
      { source: 'pick-1', target: 'set-1', sourceHandle: 'a' },
      { source: 'pick-1', target: 'set-2', sourceHandle: handle },
    ],
  );

test('save refuses an edge leaving by a handle the config does not name, with the handles it has', async () => {
  const weir = await memoryWeir({ nodes: [pick] });
  try {
    await weir.workflows.create('picking');
    const err = await weir.workflows.save('picking', flow('a', 'c')).catch((e) => e);
    assert.is(err.code, 'INVALID_CONFIG');
    assert.equal(err.details, [{ path: 'edges[2].sourceHandle', message: 'edge 2: "pick-1" has the handles "a", "b", not "c"' }]);
    await weir.workflows.save('picking', flow('a'));
  } finally {
    await weir.close();
  }
});

test('the run follows the handle the node returns among those its config names', async () => {
  const weir = await memoryWeir({ nodes: [pick] });
  try {
    const r = await runConfig(weir, flow('b'));
    assert.is(r.status, 'success', JSON.stringify(r.error));
    assert.is(r.nodes['set-1'].status, 'skipped');
    assert.equal(r.nodes['set-2'].data, { went: 'b' });
    assert.is(r.nodes['pick-1'].handle, 'b');
  } finally {
    await weir.close();
  }
});

test.run();
