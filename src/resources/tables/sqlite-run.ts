import { queryTimeout, resultCap } from './limits.js';
import type { SqlParams, SqlStatement } from './sqlite-driver.js';
import type { ExecResult, QueryLimits, Row } from './types.js';

/** Rows per batch handed to `onBatch` (one IPC message from the SQL process). */
const BATCH = 1000;

export interface RunOptions {
  limits: Pick<QueryLimits, 'maxRows' | 'maxBytes'>;
  /** Takes full batches as they are read; the rows left over come back in the result. */
  onBatch?: (rows: Row[]) => void;
  /** `Date.now()` past which reading stops with TIMEOUT (checked between rows), and the limit it stands for. */
  deadline?: { at: number; ms: number };
}

/**
 * Runs a prepared user statement, reading its rows one at a time under the result caps: the statement stops
 * (RESULT_TOO_LARGE) as soon as a cap is passed, so no more than the caps is ever held.
 * @example
 * const { rows } = runStatement(stmt, [1], { limits: { maxRows: 1000, maxBytes: 1 << 20 } })
 */
export function runStatement(stmt: SqlStatement, params: SqlParams, { limits, onBatch, deadline }: RunOptions): ExecResult {
  if (!stmt.reader) return { reader: false, rows: [], columns: [], changes: Number(stmt.run(params).changes) };
  const cap = resultCap(limits);
  let rows: Row[] = [];
  let columns: string[] | undefined;
  for (const row of stmt.iterate(params) as Iterable<Row>) {
    cap.add(row);
    // Column names from the first row: stmt.columns() costs more than a lookup by primary key.
    columns ??= Object.keys(row);
    rows.push(row);
    if (deadline && Date.now() > deadline.at) throw queryTimeout(deadline.ms);
    if (onBatch && rows.length === BATCH) (onBatch(rows), (rows = []));
  }
  return { reader: true, rows, columns: columns ?? stmt.columns().map((c) => c.name), changes: 0 };
}
