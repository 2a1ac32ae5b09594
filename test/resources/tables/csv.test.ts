import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJson } from '../../_utils.js';
import { fails, failsJson, home, ok, seed } from '../_helpers.js';

const NASTY = [
  { id: 'q1', text: 'she said "hi", then left', n: 1 },
  { id: 'q2', text: 'a,b,,c', n: -2 },
  { id: 'q3', text: 'line one\nline two\r\nline three', n: 3 },
  { id: 'q4', text: 'ünïcödé 日本語 😀 עברית', n: 4 },
  { id: 'q5', text: '', n: 0 },
  { id: 'q6', text: null, n: null },
  { id: 'q7', text: '  leading and trailing  ', n: 7 },
  { id: 'q8', text: '"', n: 8 },
  { id: 'q9', text: '=1+2', n: 9 },
];

async function nastyTable() {
  const h = home();
  const schema = { columns: [{ name: 'id', type: 'TEXT', primaryKey: true }, { name: 'text', type: 'TEXT' }, { name: 'n', type: 'INTEGER' }] };
  ok(await h.weir('data', 'tables', 'init', 'user.nasty', '--schema', writeJson(h.dir, 'schema.json', schema)));
  await seed(h.dir, async (weir) => {
    await weir.tables.init('user.copy', undefined, schema);
    for (const row of NASTY) await weir.tables.insert('user.nasty', row);
  });
  return h;
}

const all = async (weir: (...a: string[]) => Promise<any>, table: string) =>
  ok(await weir('data', 'tables', 'query', table, `SELECT * FROM "${table}" ORDER BY id`, '--json')).json();

test('CSV export then import round-trips quotes, commas, newlines, unicode, empty strings and NULLs', async () => {
  const { dir, weir } = await nastyTable();
  const exported = ok(await weir('data', 'tables', 'export', 'user.nasty', 'out.csv', '--json')).json();
  assert.equal(exported, { table: 'user.nasty', rows: 9, file: 'out.csv' });
  const csv = readFileSync(join(dir, 'out.csv'), 'utf8');
  assert.ok(csv.startsWith('id,text,n\n'));
  assert.match(csv, 'q5,"",0');
  assert.match(csv, /q6,,\n/);
  assert.match(ok(await weir('data', 'tables', 'import', 'user.copy', 'out.csv')).stdout, 'imported 9 rows into user.copy');
  assert.equal(await all(weir, 'user.copy'), NASTY);
  // Stdout export is byte-identical to the file export, and so is a second generation.
  assert.is(ok(await weir('data', 'tables', 'export', 'user.copy')).stdout, csv);
});

test('import maps header names to columns in any order and coerces types', async () => {
  const { dir, weir } = await nastyTable();
  writeFileSync(join(dir, 'in.csv'), '\ufeffN,Id,text\n 42 ,r1,hello\n,r2,""\n');
  ok(await weir('data', 'tables', 'import', 'user.copy', 'in.csv'));
  assert.equal(await all(weir, 'user.copy'), [{ id: 'r1', text: 'hello', n: 42 }, { id: 'r2', text: '', n: null }]);
});

test('a schemaless table gains TEXT columns for new headers and fills id and timestamps', async () => {
  const { dir, weir } = home();
  ok(await weir('data', 'tables', 'init', 'user.loose'));
  writeFileSync(join(dir, 'in.csv'), 'name,city\nAda,London\nGrace,"New York, NY"\n');
  ok(await weir('data', 'tables', 'import', 'user.loose', 'in.csv'));
  const rows = ok(await weir('data', 'tables', 'query', 'user.loose', 'SELECT * FROM "user.loose" ORDER BY name', '--json')).json();
  assert.equal(rows.map((r: any) => [r.name, r.city]), [['Ada', 'London'], ['Grace', 'New York, NY']]);
  for (const r of rows) assert.ok(r.id && r.createdAt && r.updatedAt);
  // Export and re-import into a fresh schemaless table keeps ids and timestamps.
  ok(await weir('data', 'tables', 'export', 'user.loose', 'loose.csv'));
  ok(await weir('data', 'tables', 'init', 'user.loose2'));
  ok(await weir('data', 'tables', 'import', 'user.loose2', 'loose.csv'));
  assert.equal(ok(await weir('data', 'tables', 'query', 'user.loose2', 'SELECT * FROM "user.loose2" ORDER BY name', '--json')).json(), rows);
});

test('malformed CSV exits 1 with the line, and the import is all or nothing', async () => {
  const { dir, weir } = await nastyTable();
  const cases: [string, string, string][] = [
    ['unclosed.csv', 'id,text,n\na,ok,1\nb,"never closed,2\n', 'invalid CSV: Quote Not Closed'],
    ['ragged.csv', 'id,text,n\na,ok,1\nb,too,many,fields\n', 'invalid CSV: Invalid Record Length'],
    ['badtype.csv', 'id,text,n\na,ok,1\nb,ok,two\n', 'CSV row 2: column "n" is INTEGER, got "two"'],
    ['dupe.csv', 'id,text,n\na,ok,1\na,again,2\n', 'UNIQUE constraint failed'],
    ['unknown.csv', 'id,colour\na,red\n', 'CSV column "colour" is not a column of user.copy'],
    ['twice.csv', 'id,id\na,b\n', 'column "id" appears twice'],
    ['noname.csv', 'id,,n\na,b,1\n', 'header column 2 has no name'],
    ['empty.csv', '', 'the file is empty'],
  ];
  for (const [file, body] of cases) writeFileSync(join(dir, file), body);
  const runs = await Promise.all(cases.map(([file]) => weir('data', 'tables', 'import', 'user.copy', file)));
  runs.forEach((r, i) => fails(r, cases[i][2], cases[i][0]));
  failsJson(await weir('data', 'tables', 'import', 'user.copy', 'ragged.csv', '--json'), 'INVALID_INPUT');
  fails(await weir('data', 'tables', 'import', 'user.copy', 'missing.csv'), 'file not found: missing.csv');
  assert.equal(await all(weir, 'user.copy'), []);
});

test('no progress line when stderr is not a terminal; export --json carries the CSV in one document', async () => {
  const { dir, weir } = await nastyTable();
  const csv = ok(await weir('data', 'tables', 'export', 'user.nasty')).stdout;
  writeFileSync(join(dir, 'n.csv'), csv);
  const r = ok(await weir('data', 'tables', 'import', 'user.copy', 'n.csv'));
  assert.is(r.stderr, '');
  const doc = ok(await weir('data', 'tables', 'export', 'user.nasty', '--json')).json();
  assert.equal([doc.table, doc.rows, doc.csv], ['user.nasty', 9, csv]);
});

test('an empty table exports its header', async () => {
  const { weir } = await nastyTable();
  assert.is(ok(await weir('data', 'tables', 'export', 'user.copy')).stdout, 'id,text,n\n');
});

test.run();
