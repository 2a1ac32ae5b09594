// The SQL process: runs the statements users write against one tables database, away from the host, so a
// statement past its time limit can be stopped by ending this process (SQLite in WAL mode is crash-safe) and
// a result past the caps is refused here, before it reaches the host. Started by sqlite-process.ts with the
// database file and the starter's pid as its arguments; it answers one request at a time, and ends as soon as
// its starter is gone (a statement may be running: nothing else would stop it then).
import { toWeirError } from '../../errors.js';
import { BUSY_TIMEOUT_MS, type SqlDatabase, type SqlParams, type SqlStatement, type SqliteChoice, loadSqliteDriver } from './sqlite-driver.js';
import { ensureTemp, fillTemp, type TempTable } from './sqlite-ddl.js';
import { endWithParent } from './parent-watch.js';
import { sqlError } from './sqlite-errors.js';
import { runStatement } from './sqlite-run.js';
import type { ExecResult, QueryLimits, Row } from './types.js';

/** A statement to run, with the system tables it reads (their rows as arrays in column order). */
export interface SqlRequest {
  id: number;
  sql: string;
  params: SqlParams;
  limits: Pick<QueryLimits, 'maxRows' | 'maxBytes'>;
  system: Array<TempTable & { rows: unknown[][] }>;
}

/** What the process sends back: batches of rows, then the outcome or an error. */
export type SqlReply =
  | { id: number; rows: Row[] }
  | { id: number; done: ExecResult }
  | { id: number; error: { code: string; message: string; hints: string[] } };

const CACHE_MAX = 256;
const file = process.argv[2];
endWithParent(Number(process.argv[3]));
const statements = new Map<string, SqlStatement>();
const temp = new Set<string>();
// argv: the database file, the parent's pid, and the driver `tables.sqlite` names (if any).
const opened: Promise<SqlDatabase> = loadSqliteDriver(process.argv[4] as SqliteChoice | undefined).then((driver) => driver.open(file, BUSY_TIMEOUT_MS));
// Rejections are answered per request; this keeps an early one from ending the process.
opened.catch(() => {});

const send = (reply: SqlReply) => process.send!(reply);

function prepared(db: SqlDatabase, sql: string): SqlStatement {
  let stmt = statements.get(sql);
  if (!stmt) {
    if (statements.size >= CACHE_MAX) statements.delete(statements.keys().next().value!);
    statements.set(sql, (stmt = db.prepare(sql)));
  }
  return stmt;
}

async function handle(req: SqlRequest): Promise<void> {
  try {
    const db = await opened;
    ensureTemp(db, temp, req.system);
    for (const s of req.system) fillTemp(db, s, s.rows);
    const done = runStatement(prepared(db, req.sql), req.params, { limits: req.limits, onBatch: (rows) => send({ id: req.id, rows }) });
    send({ id: req.id, done });
  } catch (err) {
    const e = toWeirError(sqlError(err));
    send({ id: req.id, error: { code: e.code, message: e.message, hints: e.hints } });
  }
}

// Requests arrive one at a time (the host waits for each answer), so they never overlap.
process.on('message', (req: SqlRequest) => void handle(req));
