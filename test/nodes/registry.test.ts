// createWeir({ nodes, triggers }) adds node types to the built-in ones; a name already taken is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, defineNode, defineTrigger, WeirError } from '../../src/index.js';
import { tmpDir } from '../_utils.js';

const refusal = (options: Parameters<typeof createWeir>[0]) => createWeir({ home: tmpDir('weir-registry-'), ...options }).then(() => null, (err: unknown) => err);

test('a custom node type named like a built-in one, or given twice, is an INVALID_CONFIG WeirError naming it', async () => {
  const builtin = await refusal({ nodes: [defineNode({ type: 'set', run: () => ({}) })] });
  assert.instance(builtin, WeirError);
  assert.is((builtin as WeirError).code, 'INVALID_CONFIG');
  assert.is((builtin as WeirError).message, 'node type "set" is already defined (a built-in node type)');
  const twice = defineNode({ type: 'twice', run: () => ({}) });
  const given = await refusal({ nodes: [twice], triggers: [defineTrigger({ node: { ...twice, trigger: true } })] });
  assert.is((given as WeirError).message, 'node type "twice" is already defined (given twice)');
  assert.equal((given as WeirError).hints, ['give your node type a name of its own']);
});

test('custom node types and a trigger node join the registry beside the built-in ones', async () => {
  const weir = await createWeir({ home: tmpDir('weir-registry-'), nodes: [defineNode({ type: 'mine', run: () => 1 })], triggers: [defineTrigger({ node: defineNode({ type: 'mine_trigger', trigger: true }) })] });
  assert.ok(weir.nodes.get('mine'));
  assert.ok(weir.nodes.get('mine_trigger')?.trigger);
  assert.ok(weir.nodes.get('set'));
  await weir.close();
});

test.run();
