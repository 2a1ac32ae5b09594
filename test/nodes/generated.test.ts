// The node registry is the one source of the workflow schema, the node tables of docs/flows.md and
// `weir nodes`: each is generated from it, and a test fails when one of them drifts.
// `npm run generate` (WEIR_UPDATE_DOCS=1) rewrites the files instead of comparing them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILTIN_NODES, builtinNodes, createNodeRegistry } from '../../src/nodes/index.js';
import { nodeTables, withGenerated } from '../../src/nodes/reference.js';
import { workflowSchema } from '../../src/nodes/schema.js';
import { validateSchema, type JsonSchema } from '../../src/util/json-schema.js';
import { templates } from '../../src/resources/workflows/templates/index.js';
import { ROOT, cli, tmpDir } from '../_utils.js';
import { chain, fixture, memoryWeir } from '../flow/_flows.js';

const SCHEMA_FILE = join(ROOT, 'schema/workflow.schema.json');
const FLOWS_PAGE = join(ROOT, 'docs/flows.md');
const registry = createNodeRegistry();

test('schema/workflow.schema.json is the schema generated from the node registry', () => {
  const expected = `${JSON.stringify(workflowSchema(registry), null, 2)}\n`;
  if (process.env.WEIR_UPDATE_DOCS) writeFileSync(SCHEMA_FILE, expected);
  assert.ok(readFileSync(SCHEMA_FILE, 'utf8') === expected, 'schema/workflow.schema.json differs from the registry: run `npm run generate` and commit the result');
});

test("docs/flows.md's node and trigger tables are the ones generated from the registry", () => {
  const { nodes, triggers } = nodeTables(registry);
  const page = readFileSync(FLOWS_PAGE, 'utf8');
  const expected = withGenerated(withGenerated(page, 'nodes', nodes), 'triggers', triggers);
  if (process.env.WEIR_UPDATE_DOCS) writeFileSync(FLOWS_PAGE, expected);
  assert.ok(readFileSync(FLOWS_PAGE, 'utf8') === expected, 'docs/flows.md differs from the registry: run `npm run generate` and commit the result');
});

test('the schema, the docs tables and `weir nodes --json` name the same node types, every registered one', async () => {
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as JsonSchema;
  const inSchema = Object.values(schema.$defs!)
    .map((def) => def.properties?.type?.const)
    .filter((t): t is string => typeof t === 'string');
  const page = readFileSync(FLOWS_PAGE, 'utf8');
  const inDocs = [...page.matchAll(/<!-- generated: (?:nodes|triggers) -->([\s\S]*?)<!-- \/generated -->/g)].flatMap((m) => [...m[1].matchAll(/^\| `([a-z_]+)` \|/gm)].map((r) => r[1]));
  const r = await cli(['nodes', '--json'], { home: tmpDir() });
  assert.is(r.code, 0, r.stderr);
  const listed = r.json<Array<{ type: string; trigger: boolean; summary: string }>>();
  const inCli = listed.map((n) => n.type);
  const registered = [...registry.keys()].sort();
  assert.equal([...inSchema].sort(), registered, 'schema/workflow.schema.json');
  assert.equal([...inDocs].sort(), registered, 'docs/flows.md');
  assert.equal([...inCli].sort(), registered, 'weir nodes --json');
  assert.equal(listed.find((n) => n.type === 'webhook_trigger')?.trigger, true);
  assert.equal(listed.find((n) => n.type === 'set'), { type: 'set', trigger: false, summary: registry.get('set')!.docs!.summary });
});

test('a flow file validates against the generated schema; a wrong config names the node and the key', () => {
  const schema = workflowSchema(registry);
  const flow = fixture('branch');
  flow.nodes[1].position = { x: 120, y: 40 };
  flow.nodes[1].label = 'Big order?';
  assert.equal(validateSchema(flow, schema), []);
  const wrong = structuredClone(flow);
  const set = wrong.nodes.findIndex((n: { type: string }) => n.type === 'set');
  wrong.nodes[set].config = { value: { tier: 'big' } };
  assert.equal(validateSchema(wrong, schema), [
    { path: `nodes[${set}].config.values`, message: 'is required' },
    { path: `nodes[${set}].config.value`, message: 'unknown key (did you mean "values"?)' },
  ]);
  wrong.nodes[set] = { id: 'sett-1', type: 'sett', config: {} };
  assert.equal(validateSchema(wrong, schema), [{ path: `nodes[${set}].type`, message: 'unknown value "sett"; did you mean "set"?' }]);
  // A {{ }} template stands for a number where the node's schema wants one, as save lets it.
  const delay = chain([{ id: 'delay-1', type: 'delay', config: { ms: '{{ $input.ms }}' } }]);
  assert.equal(validateSchema(delay, schema), []);
  assert.is(validateSchema(chain([{ id: 'delay-1', type: 'delay', config: { ms: 'soon' } }]), schema)[0]?.path, 'nodes[1].config.ms');
});

test('the flow fixtures and every template validate against the generated schema', () => {
  const schema = workflowSchema(registry);
  for (const name of ['branch', 'chain', 'fanout', 'github-signature']) assert.equal(validateSchema(fixture(name), schema), [], name);
  for (const template of templates) assert.equal(validateSchema(template.config(), schema), [], template.name);
});

test('every built-in node type documents itself: a summary, what its data holds, an example config', () => {
  for (const [key, def] of Object.entries(BUILTIN_NODES)) assert.is(def.type, key, 'BUILTIN_NODES keys a node by its type (the key gives NodeConfigs)');
  for (const def of builtinNodes) {
    assert.ok(def.config, `${def.type} declares no config schema`);
    assert.type(def.docs?.summary, 'string', `${def.type} has no docs.summary`);
    assert.ok(def.docs!.summary.length > 10 && def.docs!.output.length > 3, `${def.type}'s docs are empty`);
    assert.type(def.docs!.example, 'object', `${def.type} has no docs.example`);
  }
});

test("every node type's example config saves in a flow", async () => {
  const weir = await memoryWeir();
  try {
    for (const def of builtinNodes.filter((d) => d.docs)) {
      const id = `${def.type}-1`;
      const config = def.trigger
        ? { nodes: [{ id, type: def.type, config: def.docs!.example }], edges: [] }
        : chain([{ id, type: def.type, config: def.docs!.example as Record<string, unknown> }]);
      const name = `example-${def.type.replace(/_/g, '-')}`;
      await weir.workflows.create(name);
      const err = await weir.workflows.save(name, config).then(() => null, (e) => e);
      assert.is(err, null, `${def.type}: ${err?.message}`);
    }
  } finally {
    await weir.close();
  }
});

test('`weir nodes <type>` prints its config keys, handles and example; an unknown type exits 1 with the nearest', async () => {
  const home = tmpDir();
  const one = await cli(['nodes', 'condition'], { home });
  assert.is(one.code, 0, one.stderr);
  assert.match(one.stdout, 'condition: Decides between two branches');
  assert.match(one.stdout, 'handles: true, false');
  assert.match(one.stdout, '  rules (any, required): A json-logic rule');
  assert.match(one.stdout, '  onError ("stop" | "continue"): ');
  assert.match(one.stdout, 'example: {"rules":');
  const json = (await cli(['nodes', 'set', '--json'], { home })).json();
  assert.equal(json.config.required, ['values']);
  assert.equal(json.example, registry.get('set')!.docs!.example);
  const typo = await cli(['nodes', 'sett'], { home });
  assert.is(typo.code, 1);
  assert.match(typo.stderr, 'unknown node type "sett"; did you mean "set"?');
});

test.run();
