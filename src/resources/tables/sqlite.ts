import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { WeirError } from '../../errors.js';
import { BUSY_TIMEOUT_MS, type SqlDatabase as Database, type SqlStatement as Statement, type SqliteChoice, type SqliteDriver, loadSqliteDriver, transaction } from './sqlite-driver.js';
import { columnDdl, ensureTemp, fillTemp, q } from './sqlite-ddl.js';
import { sqlError } from './sqlite-errors.js';
import { inspect, type Inspected } from './sqlite-guard.js';
import { createSqlProcess } from './sqlite-process.js';
import { runStatement } from './sqlite-run.js';
import { COLUMN_TYPES, type ColumnDef, type ColumnType, type IndexDef, type Row, type SqlValue, type TableEngine, type TableMeta } from './types.js';

export { q } from './sqlite-ddl.js';

const META = 'weir_tables';
const CACHE_MAX = 256;
const BATCH = 1000;
// Index names are global in SQLite: each is stored as `<table>__<name>` and shown without the prefix.
const indexName = (table: string, name: string) => `${table}__${name}`;

/** The row SQLite stores for coerced `values`: absent columns NULL, an INTEGER primary key the new rowid. */
function storedRow(columns: ColumnDef[], values: Record<string, SqlValue>, rowid: number | bigint): Row {
  const row: Row = {};
  for (const c of columns) {
    const v = values[c.name];
    row[c.name] = v === undefined ? (c.primaryKey && c.type === 'INTEGER' ? Number(rowid) : null) : typeof v === 'bigint' ? Number(v) : v;
  }
  return row;
}

const toType = (declared: string): ColumnType => {
  const t = declared.toUpperCase();
  return (COLUMN_TYPES as readonly string[]).includes(t) ? (t as ColumnType) : 'TEXT';
};

/**
 * The SQLite engine: one database file (WAL, busy timeout so several processes can write), its driver
 * (`driver`, else node:sqlite, or better-sqlite3 where Node lacks it) loaded on first use. Table metadata
 * lives in the same file (`weir_tables`), so a table and its record are created and dropped in one transaction.
 * @example
 * const engine = createSqliteEngine({ file: '/srv/weir/tables.sqlite' })
 */
export function createSqliteEngine({ file, driver: choice }: { file: string; driver?: SqliteChoice }): TableEngine {
  let opened: Promise<Database> | undefined;
  let driver: SqliteDriver | undefined;
  const statements = new Map<string, Statement>();
  const inspected = new Map<string, Inspected>();
  // Insert and read-back statements by table and column list: building the SQL text costs more than the insert.
  const inserts = new Map<string, [Statement, Statement]>();
  const temp = new Set<string>();
  // User statements on a file run in their own process, where a time limit can stop them; an in-memory
  // database exists only in this process, so its statements run here, the limit checked between rows.
  const runner = file === ':memory:' ? undefined : createSqlProcess({ file, driver: choice });

  async function connect(): Promise<Database> {
    driver = await loadSqliteDriver(choice);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    let db: Database | undefined;
    try {
      db = driver.open(file, BUSY_TIMEOUT_MS);
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA synchronous = NORMAL');
      db.exec(`CREATE TABLE IF NOT EXISTS ${META} (id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, description TEXT, auto INTEGER NOT NULL, createdAt TEXT NOT NULL)`);
    } catch (err) {
      db?.close();
      throw sqlError(err);
    }
    return db;
  }
  // Once open, calls skip the await on the connection promise: the hot paths are a few microseconds long.
  let handle: Database | undefined;
  const open = async (): Promise<Database> => handle ?? (handle = await (opened ??= connect()));

  // Reading the tables of a home that has no database yet answers "none" without creating it (nor the home).
  const absent = () => !handle && file !== ':memory:' && !existsSync(file);

  /** Runs `fn` on the open database, turning SQLite errors into WeirErrors. */
  async function use<T>(fn: (db: Database) => T): Promise<T> {
    const db = handle ?? (await open());
    try {
      return fn(db);
    } catch (err) {
      throw sqlError(err);
    }
  }

  /** A cached prepared statement (statements survive schema changes; SQLite re-prepares them). */
  const prepared = (db: Database, sql: string): Statement => {
    let stmt = statements.get(sql);
    if (!stmt) {
      if (statements.size >= CACHE_MAX) statements.delete(statements.keys().next().value!);
      statements.set(sql, (stmt = db.prepare(sql)));
    }
    return stmt;
  };

  const toMeta = (r: { id: string; name: string; description: string | null; auto: number; createdAt: string }): TableMeta => ({
    id: r.id,
    name: r.name,
    ...(r.description ? { description: r.description } : {}),
    type: 'user',
    readOnly: false,
    auto: !!r.auto,
    createdAt: r.createdAt,
  });

  const columnsOf = (db: Database, name: string): ColumnDef[] =>
    (db.prepare(`PRAGMA table_info(${q(name)})`).all() as Array<{ name: string; type: string; notnull: number; pk: number }>).map((c) => ({
      name: c.name,
      type: toType(c.type),
      ...(c.pk ? { primaryKey: true } : {}),
      ...(c.notnull || (c.pk && toType(c.type) === 'INTEGER') ? { notNull: true } : {}),
    }));

  return {
    dialect: 'sqlite',

    version: async () => (absent() ? 0 : use((db) => (prepared(db, 'PRAGMA schema_version').get() as { schema_version: number }).schema_version)),

    listMeta: async () => (absent() ? [] : use((db) => (prepared(db, `SELECT * FROM ${META} ORDER BY name`).all() as any[]).map(toMeta))),

    findMeta: async (ref) =>
      absent() ? null : use((db) => {
        const r = prepared(db, `SELECT * FROM ${META} WHERE id = ? OR name = ? ORDER BY id = ? DESC LIMIT 1`).get([ref, ref, ref]) as any;
        return r ? toMeta(r) : null;
      }),

    create: (meta, schema) =>
      use((db) =>
        transaction(db, () => {
          db.exec(`CREATE TABLE ${q(meta.name)} (${schema.columns.map(columnDdl).join(', ')})`);
          for (const ix of schema.indexes ?? []) {
            db.exec(`CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX ${q(indexName(meta.name, ix.name))} ON ${q(meta.name)} (${ix.columns.map(q).join(', ')})`);
          }
          db.prepare(`INSERT INTO ${META} (id, name, description, auto, createdAt) VALUES (?, ?, ?, ?, ?)`).run([meta.id, meta.name, meta.description ?? null, meta.auto ? 1 : 0, meta.createdAt]);
        }, 'IMMEDIATE'),
      ).catch((err) => {
        throw /already exists|UNIQUE constraint failed: weir_tables/.test(err.message) ? new WeirError('EXISTS', `table "${meta.name}" already exists`) : err;
      }),

    drop: (meta) =>
      use((db) =>
        transaction(db, () => {
          db.exec(`DROP TABLE IF EXISTS ${q(meta.name)}`);
          db.prepare(`DELETE FROM ${META} WHERE id = ?`).run([meta.id]);
        }, 'IMMEDIATE'),
      ),

    columns: (name) => use((db) => columnsOf(db, name)),

    describe: (name) =>
      use((db) => {
        const list = db.prepare(`PRAGMA index_list(${q(name)})`).all() as Array<{ name: string; unique: number; origin: string }>;
        const indexes: IndexDef[] = list
          .filter((ix) => ix.origin === 'c')
          .map((ix) => ({
            name: ix.name.startsWith(`${name}__`) ? ix.name.slice(name.length + 2) : ix.name,
            columns: (db.prepare(`PRAGMA index_info(${q(ix.name)})`).all() as Array<{ name: string }>).map((c) => c.name),
            ...(ix.unique ? { unique: true } : {}),
          }));
        const { rows } = db.prepare(`SELECT count(*) AS rows FROM ${q(name)}`).get() as { rows: number };
        return { columns: columnsOf(db, name), indexes, rows };
      }),

    addColumns: (name, columns) =>
      use((db) =>
        transaction(db, () => {
          // Checked again inside the write lock: another process may have added the same column meanwhile.
          const have = new Set(columnsOf(db, name).map((c) => c.name.toLowerCase()));
          for (const c of columns) if (!have.has(c.name.toLowerCase())) db.exec(`ALTER TABLE ${q(name)} ADD COLUMN ${q(c.name)} ${c.type}`);
        }, 'IMMEDIATE'),
      ),

    insert: (name, row, columns) =>
      use((db) => {
        const cols = Object.keys(row);
        const key = `${name}\0${cols.join('\0')}`;
        let pair = inserts.get(key);
        if (!pair) {
          const sql = cols.length ? `INSERT INTO ${q(name)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})` : `INSERT INTO ${q(name)} DEFAULT VALUES`;
          if (inserts.size >= CACHE_MAX) inserts.delete(inserts.keys().next().value!);
          inserts.set(key, (pair = [db.prepare(sql), db.prepare(`SELECT * FROM ${q(name)} WHERE rowid = ?`)]));
        }
        const { lastInsertRowid } = pair[0].run(Object.values(row));
        // Values are already coerced to their column types, so the stored row is known without reading it
        // back (a read-back costs a fifth of the insert); RETURNING would cost more still.
        if (columns) return storedRow(columns, row, lastInsertRowid);
        return pair[1].get([lastInsertRowid]) as Row;
      }),

    update: (name, key, keyValue, data) =>
      use((db) => {
        const cols = Object.keys(data);
        const sql = `UPDATE ${q(name)} SET ${cols.map((c) => `${q(c)} = ?`).join(', ')} WHERE ${q(key)} = ? RETURNING *`;
        // all(), not get(): a RETURNING statement left unfinished by get() slows every later read on the connection.
        return (prepared(db, sql).all([...Object.values(data), keyValue]) as Row[])[0] ?? null;
      }),

    deleteRow: (name, key, keyValue) => use((db) => prepared(db, `DELETE FROM ${q(name)} WHERE ${q(key)} = ?`).run([keyValue]).changes > 0),

    async execute(text, params, authorize, system, { limits, signal }) {
      const db = handle ?? (await open());
      const tables = system.map((s) => ({ name: s.meta.name, columns: s.columns }));
      let found: Inspected;
      try {
        ensureTemp(db, temp, tables);
        // Cached by SQL text across schema changes: a statement names its tables, and no statement that can
        // run here creates views, triggers or aliases, so the names it touches stay the same.
        found = inspected.get(text) ?? inspect(db, text, params);
      } catch (err) {
        throw sqlError(err);
      }
      authorize(found.touched, found.writes);
      if (inspected.size >= CACHE_MAX) inspected.delete(inspected.keys().next().value!);
      inspected.set(text, found);
      const used = system.filter((s) => found.touched.some((t) => t.name === s.meta.name));
      const filled = await Promise.all(used.map(async (s) => ({ name: s.meta.name, columns: s.columns, rows: (await s.load()).map((r) => s.columns.map((c) => r[c.name] ?? null)) })));
      if (runner) return runner.run({ sql: text, params, system: filled }, limits, signal);
      try {
        for (const t of filled) fillTemp(db, t, t.rows);
        return runStatement(found.stmt, params, { limits, deadline: { at: Date.now() + limits.timeoutMs, ms: limits.timeoutMs } });
      } catch (err) {
        throw sqlError(err);
      }
    },

    async *rows(name) {
      const db = await open();
      // Keyset pages by rowid: no statement stays open between batches, so other calls can use the connection.
      const page = await use(() => db.prepare(`SELECT rowid AS __weir_rowid, * FROM ${q(name)} WHERE rowid > ? ORDER BY rowid LIMIT ${BATCH}`));
      for (let after = Number.MIN_SAFE_INTEGER; ; ) {
        const batch = page.all([after]) as Row[];
        for (const { __weir_rowid, ...row } of batch) {
          after = __weir_rowid as number;
          yield row;
        }
        if (batch.length < BATCH) return;
      }
    },

    async bulkInsert(name, columns, rows, onRow) {
      const main = await open();
      // Its own connection, so the long transaction does not capture other calls on this instance.
      let db = main;
      let count = 0;
      try {
        if (file !== ':memory:') db = driver!.open(file, BUSY_TIMEOUT_MS);
        const insert = db.prepare(`INSERT INTO ${q(name)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
        db.exec('BEGIN IMMEDIATE');
        try {
          for await (const values of rows) {
            insert.run(values);
            count++;
            onRow?.(count);
          }
          db.exec('COMMIT');
        } catch (err) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw err;
        }
      } catch (err) {
        throw sqlError(err);
      } finally {
        if (db !== main) db.close();
      }
      return count;
    },

    async close() {
      if (!opened) return;
      const db = await opened.catch(() => null);
      opened = undefined;
      handle = undefined;
      statements.clear();
      inspected.clear();
      inserts.clear();
      temp.clear();
      runner?.close();
      db?.close();
    },
  };
}
