import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliInProcess, ROOT, tmpDir, writeJson } from '../_utils.js';

// Every JSON example of docs/flows.md must work as shown: flow configs save, table schemas create a table.
const examples = [...readFileSync(join(ROOT, 'docs/flows.md'), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
const flows = examples.filter((e) => Array.isArray(e.nodes));
const schemas = examples.filter((e) => Array.isArray(e.columns));

test('docs/flows.md holds flow configs for the full example, the nodes, a switch, a wait, foreach, concurrency and rate limits, a debounce, an error flow and every schedule form, and a schema', () => {
  assert.is(examples.length, flows.length + schemas.length, 'every JSON example is a flow config or a schema');
  const triggers = flows.map((f) => f.nodes[0].config?.scheduleType ?? f.nodes[0].type);
  assert.equal(triggers, ['webhook_trigger', 'webhook_trigger', 'webhook_trigger', 'webhook_trigger', 'manual_trigger', 'manual_trigger', 'manual_trigger', 'webhook_trigger', 'webhook_trigger', 'interval', 'cron', 'daily', 'weekly', 'error_trigger', 'manual_trigger']);
  assert.is(schemas.length, 1);
});

test('every flow config of docs/flows.md saves (exit 0)', async () => {
  // A home per example, all at once; each flow is created in this process, its save is the `weir` process tested.
  await Promise.all(
    flows.map(async (config, i) => {
      const home = tmpDir();
      assert.is((await cliInProcess(['f', 'create', `doc-${i}`], { home })).code, 0);
      const r = await cli(['f', 'save', `doc-${i}`, writeJson(home, `doc-${i}.json`, config)], { home });
      assert.is(r.code, 0, `example ${i + 1}: ${r.stderr}`);
    }),
  );
});

test('the complete example branches on the plan as described', async () => {
  const home = tmpDir();
  assert.is((await cliInProcess(['f', 'create', 'signup'], { home })).code, 0);
  assert.is((await cliInProcess(['f', 'save', 'signup', writeJson(home, 'signup.json', flows[0])], { home })).code, 0);
  // A webhook flow's --input is the request body.
  const run = async (plan: string) => (await cli(['f', 'run', 'signup', '--input', JSON.stringify({ name: 'Ada', plan }), '--json'], { home })).json().result;
  const [pro, free] = await Promise.all([run('pro'), run('free')]);
  assert.equal(pro, { greeting: 'Welcome back, Ada!', plan: 'pro' });
  assert.equal(free, { greeting: 'Hello, Ada: upgrade to pro first' });
});

test('the switch example routes each event type as described', async () => {
  const home = tmpDir();
  const example = flows.find((f) => f.nodes.some((n: { type: string }) => n.type === 'switch'));
  assert.ok(example, 'docs/flows.md has a switch example');
  assert.is((await cliInProcess(['f', 'create', 'events'], { home })).code, 0);
  assert.is((await cliInProcess(['f', 'save', 'events', writeJson(home, 'events.json', example)], { home })).code, 0);
  const run = async (body: unknown) => (await cli(['f', 'run', 'events', '--input', JSON.stringify(body), '--json'], { home })).json().result;
  const results = await Promise.all([run({ type: 'order', id: 7 }), run({ type: 'refund', id: 8, amount: 40 }), run({ type: 'refund', id: 9, amount: 400 }), run({ type: 'ping' })]);
  assert.equal(results, [{ queued: 'order 7' }, { refunded: 40 }, { review: 'refund 9' }, { error: 'unknown event type ping' }]);
});

test('the foreach examples give the results the text says', async () => {
  const [map, stock, loop] = flows.filter((f) => f.nodes.some((n: { type: string }) => n.type === 'foreach') || f.nodes[1]?.config?.values?.inStock);
  const home = tmpDir();
  const save = async (name: string, config: unknown) => {
    assert.is((await cliInProcess(['f', 'create', name], { home })).code, 0);
    const r = await cli(['f', 'save', name, writeJson(home, `${name}.json`, config)], { home });
    assert.is(r.code, 0, r.stderr);
  };
  await save('lines', map);
  const lines = await cli(['f', 'run', 'lines', '--input', JSON.stringify({ orders: [{ id: 'o1', qty: 2, sku: 'tea' }, { id: 'o2', qty: 1, sku: 'mug' }] }), '--json'], { home });
  assert.equal(lines.json().result, [{ id: 'o1', line: '#0: 2 x tea' }, { id: 'o2', line: '#1: 1 x mug' }]);
  await save('check-stock', stock);
  assert.is((await cli(['f', 'publish', 'check-stock'], { home })).code, 0);
  await save('stock-loop', loop);
  const run = await cli(['f', 'run', 'stock-loop', '--input', JSON.stringify({ skus: ['tea', 'kettle'] }), '--json'], { home });
  assert.is(run.code, 0, run.stderr);
  assert.equal(run.json().result, [{ sku: 'tea', position: 0, inStock: true }, { sku: 'kettle', position: 1, inStock: false }]);
  const shown = await cli(['workflows', 'execution', run.json().executionId, '--json'], { home });
  assert.is(shown.json().children.length, 2);
});

test('the error flow example runs when the flow naming it fails, with the message described', async () => {
  const home = tmpDir();
  const alerts = flows.find((f) => f.nodes[0].type === 'error_trigger');
  const charge = flows.find((f) => f.settings?.errorFlow === 'alerts');
  for (const [name, config] of [['alerts', alerts], ['charge', charge]]) {
    assert.is((await cliInProcess(['f', 'create', name], { home })).code, 0);
    assert.is((await cliInProcess(['f', 'save', name, writeJson(home, `${name}.json`, config)], { home })).code, 0);
    assert.is((await cliInProcess(['f', 'publish', name], { home })).code, 0);
  }
  const failed = await cli(['f', 'run', 'charge', '--input', '{}', '--json'], { home });
  assert.is(failed.code, 1);
  const { executionId } = failed.json().errorFlow;
  const ran = (await cli(['f', 'execution', executionId, '--json'], { home })).json();
  assert.is(ran.result.text, 'charge failed at code-1: code: amount is required (line 1)');
  assert.is(ran.result.executionId, failed.json().executionId);
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
