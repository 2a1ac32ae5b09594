import type { SqlDatabase as Database, SqlStatement as Statement, SqlParams } from './sqlite-driver.js';
import { WeirError } from '../../errors.js';
import { spelledNames } from './scope.js';
import type { Touched } from './types.js';

// Statement kinds a table query may run; everything else (ATTACH, PRAGMA, CREATE, VACUUM, BEGIN, ...) is refused.
const ALLOWED = new Set(['select', 'with', 'insert', 'update', 'delete', 'replace', 'values']);
// SQL functions that reach outside the database.
const DENIED_FUNCTIONS = new Set(['load_extension', 'sqlite_attach', 'sqlite_detach', 'readfile', 'writefile', 'edit', 'fts3_tokenizer']);
// Opcodes that change the schema or the file; the keyword check already keeps them out, this is the backstop.
const DENIED_OPCODES = new Set(['Vacuum', 'IncrVacuum', 'CreateBtree', 'Destroy', 'DropTable', 'DropIndex', 'DropTrigger', 'ParseSchema', 'SqlExec', 'VCreate', 'VDestroy', 'VUpdate', 'JournalMode', 'LoadAnalysis']);
/**
 * Names a table query may not spell, in any quoting and under any schema: the schema tables, weir's table
 * registry, SQLite's internal objects (`sqlite_*`) and the virtual tables that show the file, its pages or
 * its settings (table-valued pragmas such as `pragma_database_list`, which shows the file's path, and
 * `dbstat`). Spelling is checked, not only what the program opens: the optimizer drops a table whose rows it
 * never needs (`WHERE 0 AND EXISTS (SELECT ... FROM weir_tables)`), and virtual tables open no b-tree.
 */
const HIDDEN_NAMES = new Set(['weir_tables', 'dbstat']);
const HIDDEN_PREFIX = /^(sqlite_|pragma_)/;
const MAIN = 0;
const TEMP = 1;

const WHY: Record<string, string> = {
  attach: 'ATTACH would reach another database file',
  detach: 'DETACH is not allowed',
  pragma: 'PRAGMA statements are not allowed (use `weir data tables get` for a table\'s columns)',
  create: 'schema changes go through `weir data tables init`',
  drop: 'schema changes go through `weir data tables delete`',
  alter: 'schema changes go through `weir data tables init` (schemaless tables add columns on insert)',
  vacuum: 'VACUUM is not allowed',
};

/** The first keyword of a statement, after whitespace and comments. */
export function firstKeyword(sql: string): string {
  const rest = sql.replace(/^(\s+|--[^\n]*(\n|$)|\/\*[\s\S]*?(\*\/|$))+/, '');
  return (/^[A-Za-z]+/.exec(rest)?.[0] ?? '').toLowerCase();
}

/** What a prepared user statement touches: tables read or written, found from its compiled program. */
export interface Inspected {
  stmt: Statement;
  touched: Touched[];
  writes: boolean;
}

/**
 * Prepares one user statement and finds what it would touch, refusing what a table query must not do. The
 * compiled program (EXPLAIN) lists every b-tree the statement opens with its root page and database: pages map
 * to table names through the schema, so views, CTEs and subqueries cannot hide a table, and anything opened
 * in an attached database or through a denied function is refused.
 * @example
 * const { touched } = inspect(db, 'SELECT * FROM "user.orders"', []) // [{ name: 'user.orders', write: false }]
 */
export function inspect(db: Database, sql: string, params: SqlParams): Inspected {
  // Preparing runs nothing; it reports syntax errors in SQLite's words before any rule is checked.
  const stmt = db.prepare(sql);
  const kw = firstKeyword(sql);
  if (!ALLOWED.has(kw)) {
    throw new WeirError('RULE', `${kw.toUpperCase()} is not allowed in a table query: ${WHY[kw] ?? 'only SELECT, INSERT, UPDATE, DELETE, REPLACE, VALUES and WITH statements run here'}`);
  }
  for (const name of spelledNames(sql)) {
    if (HIDDEN_NAMES.has(name) || HIDDEN_PREFIX.test(name)) {
      throw new WeirError('RULE', `"${name}" is not reachable from a table query: ${name.startsWith('pragma_') ? WHY.pragma : 'it is internal to the database'}`);
    }
  }
  const program = db.prepare(`EXPLAIN ${sql}`).all(params) as Array<{ opcode: string; p1: number; p2: number; p3: number; p4: unknown }>;
  const pages = rootPages(db);
  const touched = new Map<string, boolean>();
  const open = (db: number, page: number, write: boolean) => {
    if (db !== MAIN && db !== TEMP) throw new WeirError('RULE', 'a table query may not use attached databases');
    const name = pages.get(`${db}:${page}`) ?? (page === 1 ? 'sqlite_schema' : `<unknown table at page ${page}>`);
    touched.set(name, (touched.get(name) ?? false) || write);
  };
  for (const op of program) {
    if (op.opcode === 'OpenRead' || op.opcode === 'OpenWrite' || op.opcode === 'ReopenIdx') open(op.p3, op.p2, op.opcode === 'OpenWrite');
    else if (op.opcode === 'Clear') open(op.p2, op.p1, true);
    else if (DENIED_OPCODES.has(op.opcode)) throw new WeirError('RULE', `this statement is not allowed in a table query (${op.opcode})`);
    else if (/Func|Agg/.test(op.opcode) && typeof op.p4 === 'string') {
      const fn = op.p4.replace(/\(.*$/, '').toLowerCase();
      if (DENIED_FUNCTIONS.has(fn)) throw new WeirError('RULE', `${fn}() is not allowed in a table query`);
    }
  }
  // A write transaction (or a checkpoint) in the program is what makes SQLite call a statement not read-only.
  const writes = program.some((op) => (op.opcode === 'Transaction' && op.p2 !== 0) || op.opcode === 'Checkpoint');
  return { stmt, touched: [...touched].map(([name, write]) => ({ name, write })), writes };
}

/** `<db>:<root page>` -> table name, for tables and their indexes in the main and temp databases. */
function rootPages(db: Database): Map<string, string> {
  const map = new Map<string, string>();
  for (const [schema, index] of [['sqlite_schema', MAIN], ['sqlite_temp_schema', TEMP]] as const) {
    const rows = db.prepare(`SELECT rootpage, tbl_name FROM ${schema} WHERE rootpage > 0`).all() as Array<{ rootpage: number; tbl_name: string }>;
    for (const r of rows) map.set(`${index}:${r.rootpage}`, r.tbl_name);
  }
  return map;
}
