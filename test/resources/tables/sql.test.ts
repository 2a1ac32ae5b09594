import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, flow, writeJson } from '../../_utils.js';
import { fails, failsJson, home, ok, seed } from '../_helpers.js';

async function withOrders() {
  const h = home();
  await seed(h.dir, async (weir) => {
    await weir.tables.init('user.orders');
    await weir.tables.init('user.customers');
    await weir.tables.insert('user.orders', { id: 'o1', customer: 'c1', total: 10.5 });
    await weir.tables.insert('user.customers', { id: 'c1', name: 'Ada' });
    await weir.tables.insert('user.orders', { id: 'o2', customer: 'c1', total: 32.5 });
  });
  return h;
}

test('query prints rows as an aligned table; --json gives an array of row objects; params are bound', async () => {
  const { weir } = await withOrders();
  const text = ok(await weir('data', 'tables', 'query', 'user.orders', 'SELECT id, total FROM "user.orders" ORDER BY id')).stdout;
  assert.is(text, 'ID  TOTAL\no1  10.5\no2  32.5\n');
  const rows = ok(await weir('data', 'tables', 'query', 'user.orders', 'SELECT id, customer FROM "user.orders" WHERE total > ?', '--params', '[20]', '--json')).json();
  assert.equal(rows, [{ id: 'o2', customer: 'c1' }]);
  const named = ok(await weir('data', 'tables', 'query', 'user.orders', 'SELECT count(*) AS n FROM "user.orders" WHERE customer = :c', '--params', '{"c":"c1"}', '--json')).json();
  assert.equal(named, [{ n: 2 }]);
  // A value that looks like SQL stays a value.
  const inj = ok(await weir('data', 'tables', 'query', 'user.orders', 'SELECT count(*) AS n FROM "user.orders" WHERE id = ?', '--params', `["o1' OR '1'='1"]`, '--json')).json();
  assert.equal(inj, [{ n: 0 }]);
  assert.is(ok(await weir('data', 'tables', 'query', 'user.orders', 'SELECT * FROM "user.orders" WHERE 0')).stdout, '(no rows)\n');
  assert.equal(ok(await weir('data', 'tables', 'query', 'user.orders', 'SELECT * FROM "user.orders" WHERE 0', '--json')).json(), []);
});

test('writing statements report changes; RETURNING gives rows', async () => {
  const { weir } = await withOrders();
  assert.equal(ok(await weir('data', 'tables', 'query', 'user.orders', 'UPDATE "user.orders" SET total = total + 1', '--json')).json(), { changes: 2 });
  assert.match(ok(await weir('data', 'tables', 'query', 'user.orders', 'DELETE FROM "user.orders" WHERE id = ?', '--params', '["o1"]')).stdout, '1 row changed');
  const back = ok(await weir('data', 'tables', 'query', 'user.orders', 'INSERT INTO "user.orders" (id, total) VALUES (?, ?) RETURNING id, total', '--params', '["o3", 7]', '--json')).json();
  assert.equal(back, [{ id: 'o3', total: 7 }]);
});

test('SQL errors are one clear line with exit 1: syntax, missing table, unquoted dotted name, bad params', async () => {
  const { weir } = await withOrders();
  fails(await weir('data', 'tables', 'query', 'user.orders', 'SELEC * FROM "user.orders"'), /^error: SQL error: near "SELEC": syntax error\n/);
  failsJson(await weir('data', 'tables', 'query', 'user.orders', 'SELECT FROM', '--json'), 'INVALID_INPUT');
  fails(await weir('data', 'tables', 'query', 'user.orders', 'SELECT nope FROM "user.orders"'), 'no such column: nope');
  const unquoted = fails(await weir('data', 'tables', 'query', 'user.orders', 'SELECT * FROM user.orders'), 'no such table: user.orders');
  assert.match(unquoted.stderr, 'hint: dotted table names go in double quotes: SELECT * FROM "user.orders"');
  fails(await weir('data', 'tables', 'query', 'user.orders', 'SELECT 1; SELECT 2'), 'more than one statement');
  fails(await weir('data', 'tables', 'query', 'user.orders', 'SELECT ?'), 'Too few parameter values');
  fails(await weir('data', 'tables', 'query', 'user.orders', 'SELECT ?', '--params', '[1'), '--params is not valid JSON');
  assert.not.match(unquoted.stderr, /\n\s+at /);
});

test('statements outside the rules are refused: ATTACH, DETACH, PRAGMA, schema changes, VACUUM, load_extension, internal tables', async () => {
  const { dir, weir } = await withOrders();
  const cases: [string, string][] = [
    [`ATTACH '${join(dir, 'other.db')}' AS other`, 'ATTACH is not allowed'],
    ['DETACH other', 'DETACH is not allowed'],
    ['PRAGMA user_version = 7', 'PRAGMA is not allowed'],
    ['PRAGMA writable_schema = ON', 'PRAGMA is not allowed'],
    ['CREATE TABLE x (a)', 'CREATE is not allowed'],
    ['DROP TABLE "user.orders"', 'DROP is not allowed'],
    ['ALTER TABLE "user.orders" ADD COLUMN x', 'ALTER is not allowed'],
    [`VACUUM INTO '${join(dir, 'copy.db')}'`, 'VACUUM is not allowed'],
    ["SELECT load_extension('/tmp/evil.so')", 'load_extension() is not allowed'],
    ['SELECT name FROM sqlite_master', '"sqlite_master" is not reachable from a table query'],
    ['SELECT * FROM weir_tables', '"weir_tables" is not reachable'],
    ['WITH t AS (SELECT * FROM weir_tables) SELECT * FROM t', '"weir_tables" is not reachable'],
    // Internal tables in any spelling, and table-valued pragmas and dbstat (the file's path, pages, schema).
    ['SELECT * FROM [sqlite_schema]', '"sqlite_schema" is not reachable'],
    ['SELECT * FROM "sqlite_temp_master"', '"sqlite_temp_master" is not reachable'],
    ['SELECT * FROM `weir_tables`', '"weir_tables" is not reachable'],
    ['SELECT * FROM main.weir_tables', '"weir_tables" is not reachable'],
    ['SELECT sql FROM "main"."SQLITE_MASTER"', '"sqlite_master" is not reachable'],
    ['SELECT 1 FROM "user.orders" WHERE 0 AND EXISTS (SELECT 1 FROM weir_tables)', '"weir_tables" is not reachable'],
    ['SELECT file FROM pragma_database_list', 'PRAGMA statements are not allowed'],
    ["SELECT * FROM pragma_table_info('weir_tables')", '"pragma_table_info" is not reachable'],
    ['SELECT name FROM PRAGMA_FUNCTION_LIST', '"pragma_function_list" is not reachable'],
    ['SELECT * FROM dbstat', '"dbstat" is not reachable'],
    ['BEGIN', 'BEGIN is not allowed'],
  ];
  const runs = await Promise.all(cases.map(([sql]) => weir('data', 'tables', 'query', 'user.orders', sql, '--json')));
  runs.forEach((r, i) => {
    const [sql, message] = cases[i];
    failsJson(r, 'RULE', sql);
    assert.match(JSON.parse(r.stderr).error.message, message, sql);
  });
  fails(await weir('data', 'tables', 'query', 'user.orders', 'PRAGMA user_version = 7'), /^error: PRAGMA is not allowed in a table query/);
  // Those names inside a string literal are only text.
  assert.equal(ok(await weir('data', 'tables', 'query', 'user.orders', `SELECT id FROM "user.orders" WHERE id <> 'weir_tables' AND id <> 'pragma_database_list' ORDER BY id`, '--json')).json(), [{ id: 'o1' }, { id: 'o2' }]);
  // Nothing was changed or created by the refused statements.
  assert.equal(ok(await weir('data', 'tables', 'list', '--json')).json().map((t: any) => t.name), ['user.customers', 'user.orders', 'system.executions']);
  assert.is(ok(await weir('data', 'tables', 'get', 'user.orders', '--json')).json().rows, 2);
});

test('read-only tables refuse writing statements', async () => {
  const { weir } = await withOrders();
  const writes = ['DELETE FROM "system.executions"', 'INSERT INTO "system.executions" (id) VALUES (\'x\')', 'UPDATE "system.executions" SET status = \'ok\''];
  const runs = await Promise.all(writes.flatMap((sql) => [weir('data', 'tables', 'query', 'system.executions', sql), weir('data', 'tables', 'query', 'system.executions', sql, '--json')]));
  writes.forEach((sql, i) => {
    fails(runs[2 * i], 'table "system.executions" is read-only', sql);
    failsJson(runs[2 * i + 1], 'READ_ONLY', sql);
  });
});

test('a query uses only the table it names: others are refused (RULE), CTEs and self-joins of it run', async () => {
  const { dir, weir } = await withOrders();
  const refused = [
    'SELECT o.id, c.name FROM "user.orders" o JOIN "user.customers" c ON c.id = o.customer',
    'SELECT * FROM "system.executions"',
    'SELECT id FROM "user.orders" WHERE customer IN (SELECT id FROM "user.customers")',
    'WITH c AS (SELECT * FROM "user.customers") SELECT * FROM "user.orders", c',
    'INSERT INTO "user.orders" (id, total) SELECT id, 0 FROM "system.executions"',
    'INSERT INTO "user.customers" (id, name) SELECT id, id FROM "user.orders"',
    'DELETE FROM "system.executions"',
    // The optimizer would never open these tables; naming them is still refused.
    'SELECT o.* FROM "user.orders" o LEFT JOIN "user.customers" c ON c.id = o.customer',
    'SELECT * FROM "user.orders" WHERE 0 AND EXISTS (SELECT 1 FROM [user.customers])',
  ];
  const runs = await Promise.all(refused.map((sql) => weir('data', 'tables', 'query', 'user.orders', sql, '--json')));
  runs.forEach((r, i) => {
    failsJson(r, 'RULE', refused[i]);
    assert.match(JSON.parse(r.stderr).error.message, /a query of "user.orders" may use only that table; this statement also uses "(user.customers|system.executions)"/, refused[i]);
  });
  fails(await weir('data', 'tables', 'query', 'user.orders', 'SELECT * FROM "system.executions"'), 'this statement also uses "system.executions"');
  assert.is(ok(await weir('data', 'tables', 'get', 'user.orders', '--json')).json().rows, 2, 'the refused INSERT wrote nothing');
  assert.is(ok(await weir('data', 'tables', 'get', 'user.customers', '--json')).json().rows, 1);

  const cte = ok(await weir('data', 'tables', 'query', 'user.orders', 'WITH big AS (SELECT * FROM "user.orders" WHERE total > 20), customers AS (SELECT 1) SELECT id FROM big', '--json')).json();
  assert.equal(cte, [{ id: 'o2' }]);
  const self = ok(await weir('data', 'tables', 'query', 'user.orders', 'SELECT a.id, b.id AS other FROM "user.orders" a JOIN "user.orders" b ON a.customer = b.customer AND a.id < b.id', '--json')).json();
  assert.equal(self, [{ id: 'o1', other: 'o2' }]);
  const quoted = ok(await weir('data', 'tables', 'query', 'user.orders', `SELECT count(*) AS n FROM "user.orders" WHERE id <> 'user.customers' -- not "user.customers"`, '--json')).json();
  assert.equal(quoted, [{ n: 2 }], 'a name inside a string or a comment is not a table');

  // The table_query node keeps to its table the same way.
  const wf = ok(await weir('workflows', 'create', 'scoped', '--json')).json();
  const node = { id: 'table_query-1', type: 'table_query', config: { table: 'user.orders', sql: 'SELECT * FROM "system.executions"' } };
  ok(await weir('workflows', 'save', wf.id, writeJson(dir, 'scoped.json', flow({ type: 'manual_trigger' }, [node], [{ id: 'e1', source: 'manual_trigger-1', target: 'table_query-1' }]))));
  fails(await weir('workflows', 'run', wf.id), 'a query of "user.orders" may use only that table; this statement also uses "system.executions"');
});

test('system.executions shows the executions of flows run on the home', async () => {
  const { dir, weir } = home();
  const wf = ok(await weir('workflows', 'create', 'hello', '--json')).json();
  const config = flow({ type: 'manual_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { greeting: 'hi {{ $input.name }}' } } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }]);
  ok(await weir('workflows', 'save', wf.id, writeJson(dir, 'flow.json', config)));
  const run = ok(await weir('workflows', 'run', wf.id, '--input', '{"name":"Ada"}', '--json')).json();
  const rows = ok(await weir('data', 'tables', 'query', 'system.executions', 'SELECT id, workflowName, status, trigger, result FROM "system.executions"', '--json')).json();
  assert.equal(rows, [{ id: run.executionId, workflowName: 'hello', status: 'success', trigger: 'manual', result: JSON.stringify({ greeting: 'hi Ada' }) }]);
  assert.is(ok(await weir('data', 'tables', 'get', 'system.executions', '--json')).json().rows, 1);
  const csv = ok(await weir('data', 'tables', 'export', 'system.executions')).stdout;
  assert.match(csv, /^id,workflowId,workflowName,version,status,trigger,/);
  assert.match(csv, run.executionId);
});

test('two processes inserting at once lose nothing (WAL and a busy timeout)', async () => {
  const { dir } = home();
  ok(await cli(['data', 'tables', 'init', 'user.hits'], { home: dir }));
  const rows = Array.from({ length: 4 }, (_, p) => Array.from({ length: 30 }, (_, i) => ({ id: `p${p}-${i}`, p, i })));
  const files = rows.map((r, p) => {
    const file = join(dir, `rows${p}.csv`);
    writeFileSync(file, `id,p,i\n${r.map((x) => `${x.id},${x.p},${x.i}`).join('\n')}\n`);
    return file;
  });
  // Imports hold the write lock for their whole transaction; inserts run beside them and wait their turn.
  const results = await Promise.all([
    ...files.map((f) => cli(['data', 'tables', 'import', 'user.hits', f], { home: dir })),
    ...Array.from({ length: 4 }, (_, i) => cli(['data', 'tables', 'insert', 'user.hits', JSON.stringify({ id: `single-${i}`, extra: i })], { home: dir })),
  ]);
  for (const r of results) ok(r);
  const n = ok(await cli(['data', 'tables', 'query', 'user.hits', 'SELECT count(*) AS n FROM "user.hits"', '--json'], { home: dir })).json();
  assert.equal(n, [{ n: 124 }]);
});

test.run();
