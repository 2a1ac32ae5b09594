import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJson } from '../../_utils.js';
import { fails, failsJson, home, ok } from '../_helpers.js';

test('init refuses a name without the user. prefix: exit 1, message naming the rule, code RULE', async () => {
  const { weir } = home();
  const [plain, json, empty] = await Promise.all([weir('data', 'tables', 'init', 'orders'), weir('data', 'tables', 'init', 'orders', '--json'), weir('data', 'tables', 'init', 'user.')]);
  fails(plain, 'table names must start with "user."');
  failsJson(json, 'RULE');
  fails(empty, 'after "user."');
  assert.equal(ok(await weir('data', 'tables', 'list', '--json')).json().map((t: any) => t.name), ['system.executions']);
});

test('list shows user tables beside the read-only system table, with type and read-only status', async () => {
  const { weir } = home();
  const made = ok(await weir('data', 'tables', 'init', 'user.orders', 'Customer orders', '--json')).json();
  assert.match(made.id, /^tbl_/);
  const [listed, shown, again] = await Promise.all([weir('data', 'tables', 'list', '--json'), weir('data', 'tables', 'list'), weir('data', 'tables', 'init', 'user.orders')]);
  assert.equal(ok(listed).json().map((t: any) => [t.name, t.type, t.readOnly]), [['user.orders', 'user', false], ['system.executions', 'system', true]]);
  const text = ok(shown).stdout;
  assert.match(text, /NAME\s+TYPE\s+READONLY/);
  assert.match(text, /user\.orders\s+user\s+no/);
  assert.match(text, /system\.executions\s+system\s+yes/);
  fails(again, 'already exists');
});

test('a table without a schema starts with id, createdAt, updatedAt and grows a typed column per new key', async () => {
  const { weir } = home();
  ok(await weir('data', 'tables', 'init', 'user.events'));
  const row = ok(await weir('data', 'tables', 'insert', 'user.events', '{"kind":"click","count":3,"ratio":0.5,"meta":{"x":[1,2]},"ok":true}', '--json')).json();
  assert.match(row.id, /^[0-9a-f-]{36}$/);
  assert.ok(row.createdAt && row.updatedAt);
  assert.equal([row.kind, row.count, row.ratio, row.meta, row.ok], ['click', 3, 0.5, '{"x":[1,2]}', 1]);
  const own = ok(await weir('data', 'tables', 'insert', 'user.events', '{"id":"e-1","kind":"view"}', '--json')).json();
  assert.is(own.id, 'e-1');
  const details = ok(await weir('data', 'tables', 'get', 'user.events', '--json')).json();
  assert.equal(details.columns.map((c: any) => [c.name, c.type]), [
    ['id', 'TEXT'], ['createdAt', 'TEXT'], ['updatedAt', 'TEXT'], ['kind', 'TEXT'], ['count', 'INTEGER'], ['ratio', 'REAL'], ['meta', 'TEXT'], ['ok', 'INTEGER'],
  ]);
  assert.is(details.rows, 2);
  // A later value of another type is refused rather than silently stored; a decimal widens an INTEGER guess.
  const [many, bad, dupe, decimal] = await Promise.all(
    ['{"count":"many"}', '{"bad name":1}', '{"id":"e-1"}', '{"count":2.5}'].map((row) => weir('data', 'tables', 'insert', 'user.events', row, '--json')),
  );
  assert.match(JSON.parse(many.stderr).error.message, 'column "count" is INTEGER');
  assert.match(JSON.parse(bad.stderr).error.message, 'invalid column name');
  failsJson(dupe, 'CONFLICT');
  assert.is(ok(decimal).json().count, 2.5);
});

test('a schema sets columns, types, primary key, not-null and indexes; get shows them', async () => {
  const { dir, weir } = home();
  const schema = writeJson(dir, 'schema.json', {
    columns: [
      { name: 'sku', type: 'TEXT', primaryKey: true },
      { name: 'title', type: 'TEXT', notNull: true },
      { name: 'qty', type: 'INTEGER' },
      { name: 'price', type: 'REAL' },
      { name: 'active', type: 'BOOLEAN' },
    ],
    indexes: [{ name: 'by_title', columns: ['title'], unique: true }],
  });
  ok(await weir('data', 'tables', 'init', 'user.products', 'Catalog', '--schema', schema));
  const t = ok(await weir('data', 'tables', 'get', 'user.products', '--json')).json();
  assert.equal(t.columns, [
    { name: 'sku', type: 'TEXT', primaryKey: true },
    { name: 'title', type: 'TEXT', notNull: true },
    { name: 'qty', type: 'INTEGER' },
    { name: 'price', type: 'REAL' },
    { name: 'active', type: 'BOOLEAN' },
  ]);
  assert.equal(t.indexes, [{ name: 'by_title', columns: ['title'], unique: true }]);
  assert.is(t.auto, false);
  const text = ok(await weir('data', 'tables', 'get', t.id)).stdout;
  assert.match(text, /indexes:\nNAME\s+COLUMNS\s+UNIQUE\nby_title/);

  const row = ok(await weir('data', 'tables', 'insert', 'user.products', '{"sku":"A-1","title":"Mug","qty":"4","price":3,"active":true}', '--json')).json();
  assert.equal(row, { sku: 'A-1', title: 'Mug', qty: 4, price: 3, active: 1 });
  const bad: [string, string][] = [
    ['{"sku":"A-2"}', 'NOT NULL constraint failed'],
    ['{"sku":"A-3","title":"Mug"}', 'UNIQUE constraint failed'],
    ['{"sku":"A-4","title":"Cup","color":"red"}', 'unknown column "color"'],
    ['{"sku":"A-5","title":"Cup","qty":1.5}', 'column "qty" is INTEGER, got 1.5'],
  ];
  const runs = await Promise.all(bad.map(([json]) => weir('data', 'tables', 'insert', 'user.products', json)));
  runs.forEach((r, i) => fails(r, bad[i][1], bad[i][0]));
});

test('bad schemas are refused with every problem listed; malformed JSON files and rows exit 1', async () => {
  const { dir, weir } = home();
  const bad = writeJson(dir, 'bad.json', { columns: [{ name: 'a b', type: 'TEXTY' }, { name: 'x', type: 'TEXT', primaryKey: true }, { name: 'x', type: 'TEXT' }], indexes: [{ name: 'i', columns: ['nope'] }] });
  const noKey = writeJson(dir, 'nokey.json', { columns: [{ name: 'a', type: 'TEXT' }] });
  writeFileSync(join(dir, 'broken.json'), '{"columns": [');
  const [r, nokey, broken, missing] = await Promise.all([bad, noKey, 'broken.json', 'missing.json'].map((f) => weir('data', 'tables', 'init', 'user.bad', '--schema', f)));
  fails(r, 'invalid table schema (4 problems)');
  assert.match(r.stderr, 'columns[0].type: type must be one of TEXT, INTEGER, REAL, NUMERIC, BOOLEAN');
  assert.match(r.stderr, 'duplicate column "x"');
  assert.match(r.stderr, 'indexes[0].columns[0]: unknown column "nope"');
  fails(nokey, 'exactly one column must be the primaryKey');
  fails(broken, 'broken.json is not valid JSON');
  fails(missing, 'file not found: missing.json');
  ok(await weir('data', 'tables', 'init', 'user.ok'));
  const [half, array] = await Promise.all(['{"a":', '[1,2]'].map((row) => weir('data', 'tables', 'insert', 'user.ok', row)));
  fails(half, 'the row is not valid JSON');
  fails(array, 'a row must be a JSON object');
  assert.equal(ok(await weir('data', 'tables', 'list', '--json')).json().map((t: any) => t.name), ['user.ok', 'system.executions']);
});

test('update and delete-row address a row by its primary key; wrong key column and missing rows exit 1', async () => {
  const { weir } = home();
  ok(await weir('data', 'tables', 'init', 'user.people'));
  ok(await weir('data', 'tables', 'insert', 'user.people', '{"id":"p1","name":"Ada"}'));
  const before = ok(await weir('data', 'tables', 'query', 'user.people', 'SELECT * FROM "user.people"', '--json')).json()[0];
  const updated = ok(await weir('data', 'tables', 'update', 'user.people', 'p1', 'id', '{"name":"Ada L.","born":1815}', '--json')).json();
  assert.equal([updated.id, updated.name, updated.born, updated.createdAt], ['p1', 'Ada L.', 1815, before.createdAt]);
  assert.ok(updated.updatedAt >= before.updatedAt);
  const bad: [string[], string][] = [
    [['p9', 'id', '{"name":"x"}'], 'no row with id = "p9" in user.people'],
    [['Ada L.', 'name', '{"name":"x"}'], '"name" is not the primary key of user.people (its primary key is "id")'],
    [['p1', 'id', '{}'], 'non-empty JSON object'],
    [['p1', 'id', 'nope'], 'not valid JSON'],
  ];
  const runs = await Promise.all(bad.map(([args]) => weir('data', 'tables', 'update', 'user.people', ...args)));
  runs.forEach((r, i) => fails(r, bad[i][1], bad[i][0].join(' ')));
  const del = ok(await weir('data', 'tables', 'delete-row', 'user.people', 'p1', 'id', '--json')).json();
  assert.equal(del, { table: 'user.people', deleted: 'p1' });
  fails(await weir('data', 'tables', 'delete-row', 'user.people', 'p1', 'id'), 'no row with id = "p1"');
  assert.is(ok(await weir('data', 'tables', 'get', 'user.people', '--json')).json().rows, 0);
});

test('an INTEGER primary key is generated and addressed by its number', async () => {
  const { dir, weir } = home();
  const schema = writeJson(dir, 's.json', { columns: [{ name: 'n', type: 'INTEGER', primaryKey: true }, { name: 'label', type: 'TEXT' }] });
  ok(await weir('data', 'tables', 'init', 'user.nums', '--schema', schema));
  assert.is(ok(await weir('data', 'tables', 'insert', 'user.nums', '{"label":"first"}', '--json')).json().n, 1);
  assert.is(ok(await weir('data', 'tables', 'update', 'user.nums', '1', 'n', '{"label":"one"}', '--json')).json().label, 'one');
  ok(await weir('data', 'tables', 'delete-row', 'user.nums', '1', 'n'));
});

test('tables are found by name or id; unknown ones exit 1 with NOT_FOUND; delete drops the table', async () => {
  const { weir } = home();
  const { id } = ok(await weir('data', 'tables', 'init', 'user.tmp', '--json')).json();
  assert.is(ok(await weir('data', 'tables', 'get', id, '--json')).json().name, 'user.tmp');
  ok(await weir('data', 'tables', 'insert', id, '{"a":1}'));
  const r = fails(await weir('data', 'tables', 'get', 'tmp'), 'table "tmp" not found');
  assert.match(r.stderr, 'user table names start with "user."');
  const missing = [['get', 'user.nope'], ['delete', 'user.nope'], ['insert', 'user.nope', '{}'], ['query', 'user.nope', 'SELECT 1'], ['export', 'user.nope'], ['update', 'user.nope', '1', 'id', '{"a":1}'], ['delete-row', 'user.nope', '1', 'id']];
  const runs = await Promise.all(missing.map((args) => weir('data', 'tables', ...args, '--json')));
  runs.forEach((r, i) => failsJson(r, 'NOT_FOUND', missing[i].join(' ')));
  assert.match(ok(await weir('data', 'tables', 'delete', 'user.tmp')).stdout, 'deleted table user.tmp');
  failsJson(await weir('data', 'tables', 'get', id, '--json'), 'NOT_FOUND');
  fails(await weir('data', 'tables', 'query', 'system.executions', 'SELECT * FROM "user.tmp"'), 'no such table: user.tmp');
});

test('the system table refuses every write: delete, insert, update, delete-row, import', async () => {
  const { dir, weir } = home();
  writeFileSync(join(dir, 'x.csv'), 'id\nx\n');
  const cases = [['delete', 'system.executions'], ['insert', 'system.executions', '{"id":"x"}'], ['update', 'system.executions', 'x', 'id', '{"status":"ok"}'], ['delete-row', 'system.executions', 'x', 'id'], ['import', 'system.executions', 'x.csv']];
  const runs = await Promise.all(cases.map((args) => weir('data', 'tables', ...args)));
  runs.forEach((r, i) => fails(r, 'table "system.executions" is read-only', cases[i].join(' ')));
  const t = ok(await weir('data', 'tables', 'get', 'system.executions', '--json')).json();
  assert.equal([t.type, t.readOnly], ['system', true]);
  assert.ok(t.columns.some((c: any) => c.name === 'status'));
});

test('usage errors: missing arguments exit 2', async () => {
  const { weir } = home();
  const cases = [['init'], ['get'], ['query', 'user.x'], ['insert', 'user.x'], ['update', 'user.x', '1', 'id'], ['delete-row', 'user.x', '1'], ['import', 'user.x']];
  const runs = await Promise.all(cases.map((args) => weir('data', 'tables', ...args)));
  runs.forEach((r, i) => {
    assert.is(r.code, 2, cases[i].join(' '));
    assert.match(r.stderr, 'missing argument');
  });
  const bare = await weir('data', 'tables');
  assert.is(bare.code, 0);
  assert.match(bare.stdout, 'Usage: weir data tables <command>');
});

test.run();
