import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { createSqliteEngine } from './src/resources/tables/sqlite.ts';
const engine = createSqliteEngine({ file: ':memory:' });
await engine.create({ id: 't1', name: 'user.b', type: 'user', readOnly: false, auto: true, createdAt: 'x' }, { columns: [{ name: 'id', type: 'TEXT', primaryKey: true }, { name: 'createdAt', type: 'TEXT' }, { name: 'updatedAt', type: 'TEXT' }, { name: 'sku', type: 'TEXT' }, { name: 'qty', type: 'INTEGER' }, { name: 'price', type: 'REAL' }] });
const d = new Database(':memory:');
d.exec('create table b (id TEXT PRIMARY KEY, createdAt TEXT, updatedAt TEXT, sku TEXT, qty INTEGER, price REAL)');
const ins = d.prepare('insert into b (sku, qty, price, id, createdAt, updatedAt) values (?, ?, ?, ?, ?, ?)');
const sel = d.prepare('select * from b where rowid = ?');
const N = 20000;
for (let r = 0; r < 4; r++) {
  let t = performance.now();
  for (let i = 0; i < N; i++) { const now = new Date().toISOString(); await engine.insert('user.b', { sku: `S-${i}`, qty: i, price: i / 2, id: randomUUID(), createdAt: now, updatedAt: now }); }
  const e = performance.now() - t; t = performance.now();
  for (let i = 0; i < N; i++) { const now = new Date().toISOString(); const x = ins.run([`S-${i}`, i, i / 2, randomUUID(), now, now]); sel.get(x.lastInsertRowid); }
  const b = performance.now() - t;
  console.log('engine.insert µs', (e / N * 1000).toFixed(1), 'raw µs', (b / N * 1000).toFixed(1));
}
