// SQL tables on PostgreSQL through the CLI of two homes sharing one schema: the same rules as SQLite.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterHome, dropRedisPrefix, dropSchema, uniqueName, weirCli } from './_scale.js';

const prefix = uniqueName('tables');
const spec = { prefix, schema: prefix };
const [a, b] = [clusterHome(spec), clusterHome(spec)];

const ok = async (home: string, args: string[]) => {
  const r = await weirCli(home, [...args, '--json']);
  assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  return r.json();
};

test.after(async () => {
  await dropSchema(prefix);
  await dropRedisPrefix(prefix);
});

test('a table created and written through one home is read through another', async () => {
  await ok(a, ['data', 'tables', 'init', 'user.orders', 'orders of the shop']);
  await ok(a, ['data', 'tables', 'insert', 'user.orders', '{"id":"o1","sku":"A-1","qty":2,"price":9.5,"meta":{"gift":true}}']);
  await ok(a, ['data', 'tables', 'insert', 'user.orders', '{"id":"o2","sku":"B-2","qty":5}']);
  const rows = await ok(b, ['data', 'tables', 'query', 'user.orders', 'SELECT id, sku, qty, price, meta FROM "user.orders" WHERE qty > 1 ORDER BY id']);
  assert.equal(rows, [
    { id: 'o1', sku: 'A-1', qty: 2, price: 9.5, meta: '{"gift":true}' },
    { id: 'o2', sku: 'B-2', qty: 5, price: null, meta: null },
  ]);
  const listed = await ok(b, ['data', 'tables', 'list']);
  assert.ok(listed.some((t: any) => t.name === 'user.orders' && t.type === 'user' && !t.readOnly));
  assert.ok(listed.some((t: any) => t.name === 'system.executions' && t.readOnly));
});

test('update and delete-row address rows by their primary key', async () => {
  const updated = await ok(b, ['data', 'tables', 'update', 'user.orders', 'o2', 'id', '{"qty":7}']);
  assert.is(updated.qty, 7);
  await ok(a, ['data', 'tables', 'delete-row', 'user.orders', 'o1', 'id']);
  const rows = await ok(b, ['data', 'tables', 'query', 'user.orders', 'SELECT id, qty FROM "user.orders"']);
  assert.equal(rows, [{ id: 'o2', qty: 7 }]);
  const missing = await weirCli(a, ['data', 'tables', 'delete-row', 'user.orders', 'nope', 'id']);
  assert.is(missing.code, 1);
});

test('the rules hold: user. prefix, read-only system tables, refused statements', async () => {
  const bad = await weirCli(a, ['data', 'tables', 'init', 'orders']);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, 'must start with "user."');
  const write = await weirCli(a, ['data', 'tables', 'query', 'system.executions', 'DELETE FROM "system.executions"']);
  assert.is(write.code, 1);
  assert.match(write.stderr, 'read-only');
  const read = await weirCli(a, ['data', 'tables', 'query', 'system.executions', 'SELECT count(*) AS n FROM "system.executions"', '--json']);
  assert.is(read.code, 0, read.stderr);
  assert.equal(read.json(), [{ n: 0 }]);
  for (const sql of ['DROP TABLE "user.orders"', 'SELECT * FROM pg_catalog.pg_user', 'SELECT 1; DELETE FROM "user.orders"', "SELECT pg_read_file('/etc/hostname')"]) {
    const r = await weirCli(a, ['data', 'tables', 'query', 'user.orders', sql]);
    assert.is(r.code, 1, sql);
  }
  const unquoted = await weirCli(a, ['data', 'tables', 'query', 'user.orders', 'SELECT * FROM user.orders']);
  assert.is(unquoted.code, 1);
  assert.match(unquoted.stderr, 'double quotes');
  assert.equal(await ok(b, ['data', 'tables', 'query', 'user.orders', 'SELECT count(*) AS n FROM "user.orders"']), [{ n: 1 }]);
});

test('CSV export and import round-trip quotes, commas, newlines and unicode across homes', async () => {
  const schema = join(a, 'schema.json');
  writeFileSync(schema, JSON.stringify({ columns: [{ name: 'k', type: 'TEXT', primaryKey: true }, { name: 'v', type: 'TEXT' }, { name: 'n', type: 'INTEGER' }] }));
  await ok(a, ['data', 'tables', 'init', 'user.notes', '--schema', schema]);
  const tricky = ['plain', 'comma, inside', 'quote " inside', 'line\nbreak', 'ünïcødé ✓ 漢字'];
  for (const [i, v] of tricky.entries()) await ok(a, ['data', 'tables', 'insert', 'user.notes', JSON.stringify({ k: `k${i}`, v, n: i })]);
  const file = join(a, 'notes.csv');
  await ok(a, ['data', 'tables', 'export', 'user.notes', file]);
  await ok(b, ['data', 'tables', 'init', 'user.notes2', '--schema', schema]);
  await ok(b, ['data', 'tables', 'import', 'user.notes2', file]);
  const back = await ok(a, ['data', 'tables', 'query', 'user.notes2', 'SELECT k, v, n FROM "user.notes2" ORDER BY n']);
  assert.equal(back, tricky.map((v, i) => ({ k: `k${i}`, v, n: i })));
  const again = join(b, 'again.csv');
  await ok(b, ['data', 'tables', 'export', 'user.notes2', again]);
  assert.is(readFileSync(again, 'utf8'), readFileSync(file, 'utf8'));
});

test('a failed import leaves nothing behind (all rows or none)', async () => {
  const file = join(a, 'bad.csv');
  writeFileSync(file, 'k,v,n\nx1,ok,1\nx2,bad,not-a-number\n');
  const r = await weirCli(a, ['data', 'tables', 'import', 'user.notes2', file]);
  assert.is(r.code, 1);
  assert.equal(await ok(b, ['data', 'tables', 'query', 'user.notes2', `SELECT count(*) AS n FROM "user.notes2" WHERE k LIKE 'x%'`]), [{ n: 0 }]);
});

test('SQL limits on PostgreSQL: statement_timeout stops a slow statement (TIMEOUT); results past the caps are refused', async () => {
  const c = clusterHome(spec);
  const file = join(c, 'weir.config.json');
  const config = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, JSON.stringify({ ...config, tables: { ...config.tables, timeoutMs: 500, maxRows: 1000, maxBytes: 100_000 } }));
  const query = (sql: string) => weirCli(c, ['data', 'tables', 'query', 'user.orders', sql, '--json']);
  const started = Date.now();
  const slow = await query('SELECT count(*) AS n FROM generate_series(1, 2000000000)');
  assert.is(slow.code, 1, slow.stderr);
  assert.is(JSON.parse(slow.stderr).error.code, 'TIMEOUT');
  assert.ok(Date.now() - started < 3000, `answered after ${Date.now() - started} ms`);
  const many = await query('SELECT g FROM generate_series(1, 1000000) g');
  assert.is(JSON.parse(many.stderr).error.code, 'RESULT_TOO_LARGE');
  assert.match(JSON.parse(many.stderr).error.message, 'more than 1000 rows; add LIMIT or raise tables.maxRows');
  const wide = await query("SELECT repeat('x', 200000) AS big");
  assert.match(JSON.parse(wide.stderr).error.message, 'raise tables.maxBytes');
  const fine = await query('SELECT g FROM generate_series(1, 1000) g');
  assert.is(fine.code, 0, fine.stderr);
  assert.is(fine.json().length, 1000);
  // The statement_timeout was LOCAL: the next statement on the same pooled connection has the full limit.
  assert.is((await query('SELECT count(*) AS n FROM generate_series(1, 1000)')).json()[0].n, 1000);
});

test.run();
