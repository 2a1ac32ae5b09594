// Data layer rates through the library API beside the bare drivers, in the same run and interleaved so machine
// noise hits both alike: KV set+get (weir.kv vs unstorage on the same fs driver), table insert+query (weir.tables
// vs better-sqlite3 with the same pragmas), and a 100,000-row CSV import through the CLI in a child process
// (wall time, peak RSS and heap sampled inside that process).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { createStorage } from 'unstorage';
import unstorageFs from 'unstorage/drivers/fs';
import { fsDriver } from '../src/storage/fs-driver.js';
import { median, report } from './_stats.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const KV_OPS = Number(process.env.BENCH_KV_OPS ?? 200);
const TABLE_OPS = Number(process.env.BENCH_TABLE_OPS ?? 500);
const CSV_ROWS = Number(process.env.BENCH_CSV_ROWS ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'weir-bench-data-'));
// The built library, as users run it (`npm run bench` builds first; WEIR_OUT names another build folder).
const built = fileURLToPath(new URL(`../${process.env.WEIR_OUT ?? 'dist'}/index.js`, import.meta.url));
if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first (or \`npm run bench\`)`);
const { createWeir } = (await import(pathToFileURL(built).href)) as typeof import('../src/index.js');

/** Ops per second of `fn` run `n` times in sequence. */
async function rate(n: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return (n / (performance.now() - t)) * 1000;
}

/**
 * Runs both sides `ROUNDS` times, alternating, and reports median rates and the median of the per-round ratios
 * (each ratio compares two runs taken back to back, so load that drifts during the run cancels out).
 * A `target` of null marks an informational row.
 */
async function compare(name: string, n: number, weirSide: (round: number) => (i: number) => unknown, bareSide: (round: number) => (i: number) => unknown, target: number | null = 0.7) {
  const w: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    b.push(await rate(n, bareSide(r)));
    w.push(await rate(n, weirSide(r)));
  }
  const ratio = median(w.map((x, i) => x / b[i]));
  const row = { name, weir: `${Math.round(median(w))} ops/s`, baseline: `${Math.round(median(b))} ops/s`, ratio };
  if (target === null) console.log(`INFO  ${name.padEnd(46)} weir ${row.weir.padEnd(16)} baseline ${row.baseline.padEnd(16)} ratio ${ratio.toFixed(2).padStart(6)}  (no target)`);
  else report({ ...row, target: `>= ${target}x`, ok: ratio >= target });
}

const weir = await createWeir({ home: join(dir, 'home') });

// KV: one set and one get per op, 200-byte JSON values, keys with characters that need encoding.
const value = JSON.stringify({ user: 'u-1', cart: Array.from({ length: 12 }, (_, i) => ({ sku: `A-${i}`, qty: i })) }).slice(0, 200);
await weir.kv.init('bench');
const kvSide = (r: number) => async (i: number) => {
  await weir.kv.setValue('bench', `user:${r}/${i}`, value);
  await weir.kv.getValue('bench', `user:${r}/${i}`);
};
const bareSide = (storage: ReturnType<typeof createStorage>) => (r: number) => async (i: number) => {
  await storage.setItem(`user${r}:${i}`, value);
  await storage.getItem(`user${r}:${i}`);
};
await compare('KV set+get: weir.kv vs unstorage (same fs driver)', KV_OPS, kvSide, bareSide(createStorage({ driver: fsDriver({ base: join(dir, 'bare-kv') }) })));
// unstorage's own fs driver writes in place (no temporary file and rename): faster, but not atomic.
await compare('KV set+get: weir.kv vs unstorage/drivers/fs', KV_OPS, kvSide, bareSide(createStorage({ driver: unstorageFs({ base: join(dir, 'bare-kv-fs') }) })), null);

// Tables: one insert and one lookup by primary key per op, autocommit, WAL + synchronous=NORMAL on both sides.
await weir.tables.init('user.bench');
await weir.tables.insert('user.bench', { sku: 'warm', qty: 0, price: 0.5 });
const db = new Database(join(dir, 'bare.sqlite'), { timeout: 5000 });
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE bench (id TEXT PRIMARY KEY, createdAt TEXT, updatedAt TEXT, sku TEXT, qty INTEGER, price REAL)');
const insert = db.prepare('INSERT INTO bench (id, createdAt, updatedAt, sku, qty, price) VALUES (?, ?, ?, ?, ?, ?)');
const select = db.prepare('SELECT * FROM bench WHERE id = ?');
const lookup = 'SELECT * FROM "user.bench" WHERE id = ?';
await compare(
  'table insert+query: weir.tables vs better-sqlite3',
  TABLE_OPS,
  () => async (i) => {
    const row = await weir.tables.insert('user.bench', { sku: `S-${i}`, qty: i, price: i / 2 });
    await weir.tables.query('user.bench', lookup, [row.id]);
  },
  // The bare side does the same row work: a UUID and timestamps, then a prepared insert and lookup.
  () => (i) => {
    const id = randomUUID();
    const now = new Date().toISOString();
    insert.run(id, now, now, `S-${i}`, i, i / 2);
    select.get(id);
  },
);
db.close();
await weir.close();

// CSV import: 100,000 rows with quotes, commas and unicode, through the CLI in a child process.
const cli = fileURLToPath(new URL(`../${process.env.WEIR_OUT ?? 'dist'}/cli.js`, import.meta.url));
const home = join(dir, 'csv-home');
const csv = join(dir, 'rows.csv');
const out = createWriteStream(csv);
out.write('id,name,qty,price,note\n');
for (let i = 0; i < CSV_ROWS; i++) out.write(`r${i},"Name ${i}, Jr.",${i % 1000},${(i / 7).toFixed(3)},"note ""${i}"" ünï"\n`);
await new Promise((r) => out.end(r));
const schema = join(dir, 'schema.json');
writeFileSync(schema, JSON.stringify({ columns: [{ name: 'id', type: 'TEXT', primaryKey: true }, { name: 'name', type: 'TEXT' }, { name: 'qty', type: 'INTEGER' }, { name: 'price', type: 'REAL' }, { name: 'note', type: 'TEXT' }] }));
const run = (args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [cli, '--home', home, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`weir ${args.join(' ')}: ${r.stderr}`);
  return r;
};
run(['data', 'tables', 'init', 'user.rows', '--schema', schema]);
const probe = join(dir, 'probe.cjs');
// Sampled inside the child: getrusage's maxRSS of a child starts at its parent's size at fork.
writeFileSync(probe, `let rss = 0, heap = 0;
const sample = () => { const m = process.memoryUsage(); rss = Math.max(rss, m.rss); heap = Math.max(heap, m.heapUsed); };
setInterval(sample, 5).unref();
process.on('exit', () => { sample(); process.stderr.write('peak ' + JSON.stringify({ rss, heap }) + '\\n'); });`);
const t = performance.now();
const imported = run(['data', 'tables', 'import', 'user.rows', csv], { NODE_OPTIONS: `--require ${probe}` });
const ms = performance.now() - t;
const peak = JSON.parse(/peak (.*)/.exec(imported.stderr)![1]) as { rss: number; heap: number };
const count = JSON.parse(run(['data', 'tables', 'query', 'user.rows', 'SELECT count(*) AS n FROM "user.rows"', '--json']).stdout)[0].n;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
report({ name: `CSV import ${count} rows (weir CLI, wall time)`, weir: `${(ms / 1000).toFixed(2)} s`, baseline: `${Math.round(count / (ms / 1000))} rows/s`, ratio: ms / 5000, target: '< 5 s', ok: ms < 5000 && count === CSV_ROWS });
report({ name: 'CSV import peak memory (RSS / heap)', weir: mb(peak.rss), baseline: mb(peak.heap), ratio: peak.rss / (150 * 1024 * 1024), target: '< 150 MB', ok: peak.rss < 150 * 1024 * 1024 });
