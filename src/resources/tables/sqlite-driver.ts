import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { WeirError } from '../../errors.js';
import { paramCheck, type SqlParams } from './sqlite-params.js';

/** Positional values, or named ones (`:name`, `@name`, `$name` keys without their prefix). */
export type { SqlParams } from './sqlite-params.js';

/** A prepared statement, as both drivers offer it (better-sqlite3's shape, which node:sqlite is adapted to). */
export interface SqlStatement {
  run(params?: SqlParams): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(params?: SqlParams): unknown;
  all(params?: SqlParams): unknown[];
  /** The rows one at a time; leaving the loop early resets the statement. */
  iterate(params?: SqlParams): IterableIterator<unknown>;
  /** Whether the statement returns rows (it has result columns). */
  readonly reader: boolean;
  columns(): Array<{ name: string }>;
}

/** An open SQLite connection. */
export interface SqlDatabase {
  /** Prepares one statement; several, or none, is a RangeError. */
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  close(): void;
  readonly inTransaction: boolean;
}

/** The SQLite library in use: `node` (built in, `node:sqlite`) or `better-sqlite3` (the native addon). */
export interface SqliteDriver {
  name: 'node' | 'better-sqlite3';
  /** Opens `file`, waiting up to `busyTimeoutMs` for another writer's lock. */
  open(file: string, busyTimeoutMs: number): SqlDatabase;
}

type NodeSqlite = typeof import('node:sqlite');

/** How long a connection waits for another writer's lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

// Whitespace, semicolons and comments: what may stand around a single statement.
const TRIVIA = /^(\s|;|--[^\n]*(\n|$)|\/\*[\s\S]*?(\*\/|$))*$/;

/**
 * A row as better-sqlite3 gives it: a plain object (node:sqlite's have no prototype), BLOBs as Buffers, and
 * integers as numbers, rounded past 2^53 (node:sqlite, reading numbers, fails the whole query on one such value).
 */
function plain(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in row) {
    const v = row[k];
    out[k] = typeof v === 'bigint' ? Number(v) : v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v;
  }
  return out;
}

function nodeStatement(s: StatementSync, sql: string): SqlStatement {
  // better-sqlite3 ignores named values the statement does not use.
  s.setAllowUnknownNamedParameters(true);
  s.setReadBigInts(true);
  const check = paramCheck(sql);
  let reader: boolean | undefined;
  const call = <T>(fn: (...args: any[]) => T, p?: SqlParams): T => {
    check(p);
    return p === undefined ? fn.call(s) : Array.isArray(p) ? fn.apply(s, p) : fn.call(s, p);
  };
  return {
    run: (p) => {
      const { changes, lastInsertRowid } = call(s.run, p);
      return { changes: Number(changes), lastInsertRowid: Number(lastInsertRowid) };
    },
    get: (p) => {
      const row = call(s.get, p) as Record<string, unknown> | undefined;
      return row && plain(row);
    },
    all: (p) => (call(s.all, p) as Record<string, unknown>[]).map(plain),
    *iterate(p) {
      for (const row of call(s.iterate, p) as Iterable<Record<string, unknown>>) yield plain(row);
    },
    get reader() {
      return (reader ??= s.columns().length > 0);
    },
    columns: () => s.columns(),
  };
}

function nodeDriver(sqlite: NodeSqlite): SqliteDriver {
  return {
    name: 'node',
    open(file, busyTimeoutMs) {
      const db: DatabaseSync = new sqlite.DatabaseSync(file);
      try {
        db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
      } catch (err) {
        db.close();
        throw err;
      }
      return {
        prepare(sql) {
          if (TRIVIA.test(sql)) throw new RangeError('The supplied SQL string contains no statements');
          const stmt = db.prepare(sql);
          // node:sqlite prepares the first statement and drops the rest silently; better-sqlite3 refuses them.
          if (!TRIVIA.test(sql.slice(stmt.sourceSQL.length))) throw new RangeError('The supplied SQL string contains more than one statement');
          return nodeStatement(stmt, sql);
        },
        exec: (sql) => db.exec(sql),
        close: () => db.close(),
        get inTransaction() {
          return db.isTransaction;
        },
      };
    },
  };
}

/** node:sqlite when this Node has all it needs (StatementSync#columns: Node 22.16 / 23.11), loaded without its ExperimentalWarning. */
function builtin(): NodeSqlite | undefined {
  const emit = process.emitWarning;
  // Only the warning node:sqlite emits while it loads is dropped; any other goes through.
  process.emitWarning = ((warning: string | Error, ...rest: any[]) => {
    if (!/SQLite is an experimental feature/.test(String((warning as Error)?.message ?? warning))) (emit as any).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    const sqlite = process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined;
    const proto = sqlite?.StatementSync?.prototype;
    return typeof proto?.columns === 'function' && typeof proto.setAllowUnknownNamedParameters === 'function' ? sqlite : undefined;
  } finally {
    process.emitWarning = emit;
  }
}

async function betterSqlite(): Promise<SqliteDriver> {
  let Sqlite: typeof import('better-sqlite3');
  try {
    ({ default: Sqlite } = await import('better-sqlite3'));
    // The addon itself loads with the first database: an addon built for another Node version fails here.
    new Sqlite(':memory:').close();
  } catch (err) {
    const code = (err as { code?: string }).code;
    const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
    throw new WeirError('UNAVAILABLE', missing ? `the embedded tables need better-sqlite3 on Node ${process.version} (node:sqlite needs Node 22.16 or later)` : `better-sqlite3 does not load on Node ${process.version}: ${(err as Error).message}`, {
      cause: err,
      hints: [missing ? 'run `npm install better-sqlite3`, or use Node 22.16 or later' : 'run `npm rebuild better-sqlite3` with this Node version'],
    });
  }
  return { name: 'better-sqlite3', open: (file, busyTimeoutMs) => new Sqlite(file, { timeout: busyTimeoutMs }) as unknown as SqlDatabase };
}

/** A SQLite driver by name (`tables.sqlite` in weir.config.json). */
export type SqliteChoice = 'node' | 'better-sqlite3';

/**
 * The SQLite driver: `choice`, else node:sqlite where this Node has it, else better-sqlite3 (an optional
 * dependency, loaded only then).
 * @example
 * const db = (await loadSqliteDriver()).open('/srv/weir/tables.sqlite')
 */
export async function loadSqliteDriver(choice?: SqliteChoice): Promise<SqliteDriver> {
  const sqlite = choice === 'better-sqlite3' ? undefined : builtin();
  if (sqlite) return nodeDriver(sqlite);
  if (choice === 'node') {
    throw new WeirError('UNAVAILABLE', `tables.sqlite is "node", but node:sqlite is not available on Node ${process.version} (it needs Node 22.16 or later)`, {
      hints: ['remove tables.sqlite from weir.config.json to use better-sqlite3, or use Node 22.16 or later'],
    });
  }
  return betterSqlite();
}

/**
 * Runs `fn` in one transaction (IMMEDIATE takes the write lock first), rolled back if it throws.
 * @example
 * transaction(db, () => db.exec('DELETE FROM t'), 'IMMEDIATE')
 */
export function transaction<T>(db: SqlDatabase, fn: () => T, mode: 'DEFERRED' | 'IMMEDIATE' = 'DEFERRED'): T {
  db.exec(`BEGIN ${mode}`);
  try {
    const out = fn();
    db.exec('COMMIT');
    return out;
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
