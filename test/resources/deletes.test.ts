// Deletes delete: what a delete removes is gone from the disk of a home (CLI) and from memory storage
// (library), on every driver; neighbours sharing a prefix stay.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BUSY_TIMEOUT_MS, loadSqliteDriver } from '../../src/resources/tables/sqlite-driver.js';
import { createStorage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { createWeir } from '../../src/weir.js';
import { openStorage } from '../../src/storage/index.js';
import { ROOT, tmpDir, writeJson } from '../_utils.js';
import { deleteEverything } from './_deletes.js';
import { home, ok } from './_helpers.js';

/** Files below a folder, relative to it; none when it does not exist. */
const filesBelow = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesBelow(join(dir, name)).map((f) => `${name}/${f}`) : [name]))
    : [];

test('kv delete removes the namespace values from disk; another namespace keeps its own', async () => {
  const { dir, weir } = home();
  const [gone, kept] = [ok(await weir('data', 'kv', 'init', 'gone', '--json')).json(), ok(await weir('data', 'kv', 'init', 'kept', '--json')).json()];
  const values = writeJson(dir, 'values.json', { a: '1', 'b/c?d': '2', ['k'.repeat(300)]: '3' });
  for (const ns of ['gone', 'kept']) ok(await weir('data', 'kv', 'import', ns, values));
  const data = (id: string) => filesBelow(join(dir, 'cloud/kv/data', id));
  assert.is(data(gone.id).length, 3);
  ok(await weir('data', 'kv', 'delete', 'gone'));
  assert.equal(data(gone.id), [], 'no value file of the deleted namespace is left');
  assert.ok(!existsSync(join(dir, 'cloud/kv/data', gone.id)), 'its folder went with it');
  assert.equal(filesBelow(join(dir, 'cloud/kv/namespaces')), [kept.id]);
  assert.is(data(kept.id).length, 3);
  // A namespace made again under the same name starts empty.
  ok(await weir('data', 'kv', 'init', 'gone'));
  assert.equal(ok(await weir('data', 'kv', 'keys', 'gone', '--json')).json(), []);
});

test('tables delete drops the table and its rows from the SQLite file', async () => {
  const { dir, weir } = home();
  for (const name of ['user.gone', 'user.kept']) ok(await weir('data', 'tables', 'init', name));
  for (const name of ['user.gone', 'user.kept']) ok(await weir('data', 'tables', 'insert', name, '{"secret":"row-of-' + name + '"}'));
  ok(await weir('data', 'tables', 'delete', 'user.gone'));
  // Read through the engine's own driver: node:sqlite where Node has it, better-sqlite3 elsewhere.
  const db = (await loadSqliteDriver()).open(join(dir, 'tables.sqlite'), BUSY_TIMEOUT_MS);
  const column = (sql: string) => (db.prepare(sql).all() as Array<Record<string, unknown>>).map((row) => Object.values(row)[0]);
  try {
    assert.equal(column("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'user.%'"), ['user.kept']);
    assert.equal(column('SELECT name FROM weir_tables'), ['user.kept']);
    assert.equal(column('SELECT secret FROM "user.kept"'), ['row-of-user.kept']);
  } finally {
    db.close();
  }
});

test('knowledge folders delete --recursive removes the documents below: records, text, token and bytes', async () => {
  const { dir, weir } = home();
  writeFileSync(join(dir, 'inside.md'), '# Inside\nDeleted with its folder.');
  writeFileSync(join(dir, 'outside.md'), '# Outside\nStays.');
  ok(await weir('kb', 'folders', 'create', 'top'));
  ok(await weir('kb', 'folders', 'create', 'mid', 'top'));
  const inside = ok(await weir('kb', 'upload', 'inside.md', 'mid', '--json')).json();
  const outside = ok(await weir('kb', 'upload', 'outside.md', '--json')).json();
  const knowledge = () => [...filesBelow(join(dir, 'cloud/knowledge')), ...filesBelow(join(dir, 'knowledge')).map((f) => `bytes/${f}`)];
  assert.ok(knowledge().filter((f) => f.includes(inside.id)).length >= 3, knowledge().join('\n'));
  ok(await weir('kb', 'folders', 'delete', 'top', '--recursive'));
  const left = knowledge();
  assert.equal(left.filter((f) => f.includes(inside.id)), [], left.join('\n'));
  assert.equal(left.filter((f) => f.startsWith('folders/')), [], 'both folder records are gone');
  assert.is(left.filter((f) => f.startsWith('tokens/')).length, 1, 'only the kept document keeps a token');
  assert.equal(left.filter((f) => f.startsWith('docs/')), [`docs/${outside.id}`]);
  assert.ok(left.includes(`bytes/${outside.id.slice(0, 2)}/${outside.id}`), 'the kept document keeps its bytes');
});

test('interface rm removes the record, its builds, sources and every log entry from disk', async () => {
  const { dir, weir } = home();
  const app = ok(await weir('i', 'init', '--name', 'app', '--json')).json();
  for (let i = 0; i < 2; i++) ok(await weir('i', 'deploy', '--name', 'app'));
  const stored = () => filesBelow(join(dir, 'cloud/interfaces')).filter((f) => !f.startsWith('access/'));
  assert.is(stored().filter((f) => f.startsWith(`logs/${app.id}/`)).length, 2);
  assert.ok(stored().includes(`builds/${app.id}`) && stored().includes(`sources/${app.id}`));
  ok(await weir('i', 'rm', 'app'));
  assert.equal(stored(), []);
});

test('executions beyond the retention are removed from disk; the newest stay', async () => {
  const { dir, weir } = home();
  writeJson(dir, 'weir.config.json', { executions: { maxPerWorkflow: 1 } });
  const { id } = ok(await weir('f', 'create', 'greet', '--json')).json();
  ok(await weir('f', 'save', id, join(ROOT, 'test/fixtures/flows/chain.json')));
  const runs: string[] = [];
  for (let i = 0; i < 3; i++) runs.push(ok(await weir('f', 'run', id, '--input', '{"name":"ada"}', '--json')).json().executionId);
  const batches = filesBelow(join(dir, 'cloud/executions/runs', id));
  assert.is(batches.length, 1, batches.join('\n'));
  assert.equal(ok(await weir('f', 'executions', id, '--json')).json().map((r: any) => r.id), [runs[2]]);
});

test('every delete empties its prefix on memory storage (a library without a home)', async () => {
  const weir = await createWeir({ env: {} });
  try {
    const outcome = await deleteEverything(weir);
    const cloud = weir.storage.cloud;
    for (const prefix of outcome.emptied) assert.equal(await cloud.getKeys(prefix), [], prefix);
    for (const key of outcome.removed) assert.is(await cloud.hasItem(key), false, key);
    for (const [prefix, n] of Object.entries(outcome.kept)) assert.is((await cloud.getKeys(prefix)).length, n, prefix);
  } finally {
    await weir.close();
  }
});

test('clear(base) on a view removes whole segments only, on a root mount and on mounts inside the base', async () => {
  const inner = createStorage();
  const storage = await openStorage({ cloud: inner });
  inner.mount('kv:data:ns1:cache', memoryDriver());
  for (const key of ['kv:data:ns1:a', 'kv:data:ns1:deep:b', 'kv:data:ns1:cache:c', 'kv:data:ns10:a', 'kv:other']) await storage.cloud.setItem(key, 1);
  await storage.view('cloud', 'kv:data').clear('ns1');
  assert.equal((await inner.getKeys()).sort(), ['kv:data:ns10:a', 'kv:other']);
  await storage.view('cloud', 'kv').clear();
  assert.equal(await inner.getKeys(), []);
});

test('clear(base) on unstorage drivers that ignore the base (fs-lite) removes only what is under it', async () => {
  const base = tmpDir();
  const storage = await openStorage({ config: { storage: { cloud: { driver: 'fs-lite', base } } }, home: tmpDir() });
  for (const key of ['kv:data:ns1:a', 'kv:data:ns1:b', 'kv:data:ns2:a']) await storage.cloud.setItem(key, 1);
  await storage.view('cloud', 'kv:data').clear('ns1');
  assert.equal(filesBelow(base), ['kv/data/ns2/a']);
});

test.run();
