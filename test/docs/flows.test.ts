import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, ROOT, tmpDir, writeJson } from '../_utils.js';

// Every JSON example of docs/flows.md must work as shown: flow configs save, table schemas create a table.
const examples = [...readFileSync(join(ROOT, 'docs/flows.md'), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
const flows = examples.filter((e) => Array.isArray(e.nodes));
const schemas = examples.filter((e) => Array.isArray(e.columns));

test('docs/flows.md holds flow configs for the full example, the nodes, a wait and every schedule form, and a schema', () => {
  assert.is(examples.length, flows.length + schemas.length, 'every JSON example is a flow config or a schema');
  const triggers = flows.map((f) => f.nodes[0].config?.scheduleType ?? f.nodes[0].type);
  assert.equal(triggers, ['webhook_trigger', 'webhook_trigger', 'webhook_trigger', 'interval', 'cron', 'daily', 'weekly']);
  assert.is(schemas.length, 1);
});

test('every flow config of docs/flows.md saves (exit 0)', async () => {
  const home = tmpDir();
  for (const [i, config] of flows.entries()) {
    assert.is((await cli(['f', 'create', `doc-${i}`], { home })).code, 0);
    const r = await cli(['f', 'save', `doc-${i}`, writeJson(home, `doc-${i}.json`, config)], { home });
    assert.is(r.code, 0, `example ${i + 1}: ${r.stderr}`);
  }
});

test('the complete example branches on the plan as described', async () => {
  const home = tmpDir();
  assert.is((await cli(['f', 'create', 'signup'], { home })).code, 0);
  assert.is((await cli(['f', 'save', 'signup', writeJson(home, 'signup.json', flows[0])], { home })).code, 0);
  // A webhook flow's --input is the request body.
  const run = async (plan: string) => (await cli(['f', 'run', 'signup', '--input', JSON.stringify({ name: 'Ada', plan }), '--json'], { home })).json().result;
  assert.equal(await run('pro'), { greeting: 'Welcome back, Ada!', plan: 'pro' });
  assert.equal(await run('free'), { greeting: 'Hello, Ada: upgrade to pro first' });
});

test('the table schema of docs/flows.md creates a table (exit 0)', async () => {
  const home = tmpDir();
  const r = await cli(['data', 'tables', 'init', 'user.orders', 'Orders', '--schema', writeJson(home, 'orders.schema.json', schemas[0])], { home });
  assert.is(r.code, 0, r.stderr);
  const table = (await cli(['data', 'tables', 'get', 'user.orders', '--json'], { home })).json();
  assert.equal(table.columns.map((c: { name: string }) => c.name), schemas[0].columns.map((c: { name: string }) => c.name));
  assert.equal(table.indexes.map((ix: { name: string }) => ix.name), ['orders_by_sku']);
});

test.run();
