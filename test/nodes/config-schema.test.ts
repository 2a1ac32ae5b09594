// Each node type declares its config as a JSON schema; save refuses a key it does not know, for built-in and
// embedder-defined types alike, while a config already stored keeps running as it was stored.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defineNode, type NodeDefinition } from '../../src/index.js';
import { builtinNodes } from '../../src/nodes/index.js';
import { chain, memoryWeir, runConfig } from '../flow/_flows.js';

test('every built-in node type declares its config: an object schema, each key described, unknown keys refused', () => {
  for (const node of builtinNodes as NodeDefinition[]) {
    const schema = node.config;
    assert.ok(schema, `${node.type} declares no config schema`);
    assert.is(schema!.type, 'object', node.type);
    assert.is(schema!.additionalProperties, false, node.type);
    for (const [key, property] of Object.entries(schema!.properties ?? {})) {
      assert.type(property.description, 'string', `${node.type}.${key} has no description`);
    }
    for (const key of schema!.required ?? []) assert.ok(schema!.properties?.[key], `${node.type} requires "${key}", which it does not declare`);
  }
});

test("an embedder's node type with a schema gets unknown keys refused at save; one without a schema takes any key", async () => {
  const greet = defineNode({
    type: 'greet',
    config: { type: 'object', properties: { name: { type: 'string', description: 'Who to greet' } }, additionalProperties: false },
    run: (ctx) => `hello ${ctx.config.name}`,
  });
  const loose = defineNode({ type: 'loose', run: (ctx) => ctx.config });
  const weir = await memoryWeir({ nodes: [greet, loose] });
  try {
    await weir.workflows.create('greeting');
    const typo = chain([{ id: 'greet-1', type: 'greet', config: { name: 'Ada', nmae: 'Ada' } }]);
    const err = await weir.workflows.save('greeting', typo).catch((e) => e);
    assert.is(err.code, 'INVALID_CONFIG');
    assert.equal(err.details, [{ path: 'nodes[1].config.nmae', message: 'greet-1: unknown key "nmae"; did you mean "name"?' }]);
    await weir.workflows.save('greeting', chain([{ id: 'loose-1', type: 'loose', config: { anything: 1 } }]));
    assert.equal((await weir.workflows.get('greeting')).config.nodes[1].config, { anything: 1 });
    // A config stored before its type declared a schema runs as it did: the schema is a save check.
    const record = await runConfig(weir, typo);
    assert.is(record.status, 'success', JSON.stringify(record.error));
    assert.is(record.result, 'hello Ada');
  } finally {
    await weir.close();
  }
});

test.run();
