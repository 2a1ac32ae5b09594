import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { flow, writeJson } from '../_utils.js';
import { createWeir } from '../../src/weir.js';
import { builtinNodes, defineNode } from '../../src/nodes/index.js';
import { fails, home, ok } from '../resources/_helpers.js';

const chain = (nodes: any[]) =>
  flow(
    { type: 'manual_trigger' },
    nodes,
    nodes.map((n, i) => ({ id: `e${i + 1}`, source: i ? nodes[i - 1].id : 'manual_trigger-1', target: n.id })),
  );

test('resource nodes work through a flow run: kv, tables, storage and knowledge search', async () => {
  const { dir, weir } = home();
  ok(await weir('data', 'kv', 'init', 'counters'));
  ok(await weir('data', 'tables', 'init', 'user.orders'));
  const { writeFileSync } = await import('node:fs');
  writeFileSync(`${dir}/guide.md`, 'Our returns desk answers within two days.');
  ok(await weir('kb', 'upload', 'guide.md'));
  const wf = ok(await weir('workflows', 'create', 'resources', '--json')).json();
  const config = chain([
    { id: 'kv_set-1', type: 'kv_set', config: { namespace: 'counters', key: 'last:{{ $input.sku }}', value: { sku: '{{ $input.sku }}', qty: '{{ $input.qty }}' } } },
    { id: 'kv_get-1', type: 'kv_get', config: { namespace: 'counters', key: 'last:{{ $input.sku }}' } },
    { id: 'table_insert-1', type: 'table_insert', config: { table: 'user.orders', row: { sku: '{{ $input.sku }}', qty: '{{ $input.qty }}' } } },
    { id: 'table_query-1', type: 'table_query', config: { table: 'user.orders', sql: 'SELECT sku, qty FROM "user.orders" WHERE sku = ?', params: ['{{ $input.sku }}'] } },
    { id: 'storage_put-1', type: 'storage_put', config: { key: 'orders/{{ $input.sku }}.json', content: '{{ $node.table_query-1.data }}' } },
    { id: 'storage_get-1', type: 'storage_get', config: { key: 'orders/{{ $input.sku }}.json' } },
    { id: 'knowledge_search-1', type: 'knowledge_search', config: { query: 'returns', limit: 3 } },
    { id: 'kv_delete-1', type: 'kv_delete', config: { namespace: 'counters', key: 'last:{{ $input.sku }}' } },
    { id: 'set-1', type: 'set', config: { values: { kv: '{{ $node.kv_get-1.data }}', rows: '{{ $node.table_query-1.data }}', stored: '{{ $node.storage_get-1.data.content }}', type: '{{ $node.storage_get-1.data.contentType }}', found: '{{ $node.knowledge_search-1.data[0].name }}', deleted: '{{ $node.kv_delete-1.data.deleted }}' } } },
  ]);
  ok(await weir('workflows', 'save', wf.id, writeJson(dir, 'flow.json', config)));
  const run = ok(await weir('workflows', 'run', wf.id, '--input', '{"sku":"A-1","qty":3}', '--json')).json();
  assert.is(run.status, 'success');
  assert.equal(run.result, {
    kv: '{"sku":"A-1","qty":3}',
    rows: [{ sku: 'A-1', qty: 3 }],
    stored: '[{"sku":"A-1","qty":3}]',
    type: 'application/json',
    found: 'guide.md',
    deleted: true,
  });
  assert.equal(ok(await weir('data', 'kv', 'keys', 'counters', '--json')).json(), []);
  assert.is(ok(await weir('storage', 'get', 'orders/A-1.json')).stdout, '[{"sku":"A-1","qty":3}]');
});

test('a failing resource node fails the run with its message (read-only table, traversal key, missing namespace)', async () => {
  const { dir, weir } = home();
  const cases: [any, string][] = [
    [{ id: 'table_query-1', type: 'table_query', config: { table: 'system.executions', sql: 'DELETE FROM "system.executions"' } }, 'read-only'],
    [{ id: 'storage_put-1', type: 'storage_put', config: { key: '{{ $input.key }}', content: 'x' } }, '".." segments are not allowed'],
    [{ id: 'kv_get-1', type: 'kv_get', config: { namespace: 'nope', key: 'a' } }, 'KV namespace "nope" not found'],
  ];
  await Promise.all(
    cases.map(async ([node, message]) => {
      const wf = ok(await weir('workflows', 'create', node.id, '--json')).json();
      ok(await weir('workflows', 'save', wf.id, writeJson(dir, `${node.id}.json`, chain([node]))));
      fails(await weir('workflows', 'run', wf.id, '--input', '{"key":"../x"}'), message, node.id);
    }),
  );
});

test('save refuses bad resource node configs: spliced SQL, literal traversal keys, table names without user.', async () => {
  const { dir, weir } = home();
  const wf = ok(await weir('workflows', 'create', 'bad', '--json')).json();
  const config = chain([
    { id: 'table_query-1', type: 'table_query', config: { table: 'orders', sql: 'SELECT * FROM "user.orders" WHERE id = \'{{ $input.id }}\'' } },
    { id: 'storage_get-1', type: 'storage_get', config: { key: '../secrets' } },
    { id: 'kv_set-1', type: 'kv_set', config: { namespace: 'ns' } },
    { id: 'table_insert-1', type: 'table_insert', config: { table: 'user.x', row: 'nope' } },
  ]);
  const r = fails(await weir('workflows', 'save', wf.id, writeJson(dir, 'bad.json', config)), 'invalid workflow config');
  for (const m of ['table names start with "user."', 'put values in "params"', '".." segments are not allowed', '"key" is required', '"value" is required', '"row" must be an object']) assert.match(r.stderr, m);
});

test('node run functions work on a library instance without a CLI', async () => {
  const weir = await createWeir({});
  const byType = new Map(builtinNodes.map((n) => [n.type, n]));
  const ctx = (type: string, config: Record<string, unknown>) => ({ config, input: {}, node: { id: `${type}-1`, type }, env: {}, log: () => {}, signal: new AbortController().signal, onCancel: () => () => {}, services: weir, execution: {} as never, progress: undefined, saveProgress: async () => {}, recordUsage: () => {} });
  await weir.kv.init('ns');
  await byType.get('kv_set')!.run!(ctx('kv_set', { namespace: 'ns', key: 'k', value: 5 }));
  assert.is(await byType.get('kv_get')!.run!(ctx('kv_get', { namespace: 'ns', key: 'k' })), '5');
  assert.is(await byType.get('kv_get')!.run!(ctx('kv_get', { namespace: 'ns', key: 'absent' })), null);
  await weir.tables.init('user.t');
  const row = (await byType.get('table_insert')!.run!(ctx('table_insert', { table: 'user.t', row: { a: 1 } }))) as any;
  assert.equal(await byType.get('table_query')!.run!(ctx('table_query', { table: 'user.t', sql: 'UPDATE "user.t" SET a = ? WHERE id = ?', params: [2, row.id] })), { changes: 1 });
  const binary = (await byType.get('storage_put')!.run!(ctx('storage_put', { key: 'bin.png', content: 'not really a png' }))) as any;
  assert.is(binary.contentType, 'image/png');
  assert.is(((await byType.get('storage_get')!.run!(ctx('storage_get', { key: 'bin.png' }))) as any).encoding, 'base64');
  const noServices = { ...ctx('kv_get', { namespace: 'ns', key: 'k' }), services: {} };
  const err = (await Promise.resolve(byType.get('kv_get')!.run!(noServices)).catch((e) => e)) as Error;
  assert.match(err.message, 'this weir instance has no kv manager');
  await weir.close();
});

test('a custom node sees the narrow node services, not the instance: it may use kv and run, not close it', async () => {
  const seen = defineNode({
    type: 'services_probe',
    run: async (ctx) => {
      await ctx.services.kv!.setValue('ns', 'from-node', 'yes');
      return { keys: Object.keys(ctx.services).sort(), close: typeof (ctx.services as Record<string, unknown>).close };
    },
  });
  const weir = await createWeir({ nodes: [seen] });
  await weir.kv.init('ns');
  const config = { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, { id: 'services_probe-1', type: 'services_probe', config: {} }], edges: [{ source: 'manual_trigger-1', target: 'services_probe-1' }], variables: {}, metadata: {} };
  const r = await weir.executor.run({ workflow: { id: 'wf_probe', name: 'probe', config }, input: {}, trigger: 'manual' });
  assert.is(r.status, 'success', JSON.stringify(r.error));
  assert.equal(r.result, { keys: ['agents', 'awaitExecution', 'chatModel', 'expressions', 'knowledge', 'kv', 'network', 'objects', 'published', 'run', 'sandbox', 'tables'], close: 'undefined' });
  assert.is(await weir.kv.getValue('ns', 'from-node'), 'yes');
  await weir.close();
});

test.run();
