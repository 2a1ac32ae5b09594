import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { createWeir } from './src/weir.ts';
const dir = mkdtempSync('/tmp/wb-');
const weir = await createWeir({ home: dir });
await weir.tables.init('user.bench');
await weir.tables.insert('user.bench', { sku: 'warm', qty: 0, price: 0.5 });
const db = new Database(join(dir, 'bare.sqlite'), { timeout: 5000 });
db.pragma('journal_mode = WAL'); db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE bench (id TEXT PRIMARY KEY, createdAt TEXT, updatedAt TEXT, sku TEXT, qty INTEGER, price REAL)');
const insert = db.prepare('INSERT INTO bench (id, createdAt, updatedAt, sku, qty, price) VALUES (?, ?, ?, ?, ?, ?)');
const select = db.prepare('SELECT * FROM bench WHERE id = ?');
const lookup = 'SELECT * FROM "user.bench" WHERE id = ?';
const N = 2000; const res: Record<string, number[]> = {};
const time = async (k: string, fn: (i: number) => unknown) => { const t = performance.now(); for (let i = 0; i < N; i++) await fn(i); (res[k] ??= []).push((performance.now() - t) / N * 1000); };
for (let r = 0; r < 3; r++) {
  await time('bare', (i) => { const id = randomUUID(); const now = new Date().toISOString(); insert.run(id, now, now, `S-${i}`, i, i / 2); select.get(id); });
  await time('weir', async (i) => { const row = await weir.tables.insert('user.bench', { sku: `S-${i}`, qty: i, price: i / 2 }); await weir.tables.query('user.bench', lookup, [row.id]); });
  await time('weir-insert-only', async (i) => { await weir.tables.insert('user.bench', { sku: `S-${i}`, qty: i, price: i / 2 }); });
  await time('bare-insert-only', (i) => { const id = randomUUID(); const now = new Date().toISOString(); insert.run(id, now, now, `S-${i}`, i, i / 2); });
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(18), v.sort((a, b) => a - b).map((x) => x.toFixed(0)).join(' '));
const { statSync } = await import('node:fs');
for (const f of ['tables.sqlite-wal', 'bare.sqlite-wal', 'tables.sqlite', 'bare.sqlite']) console.log(f, statSync(join(dir, f)).size);
