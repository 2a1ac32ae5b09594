import { type SqlDatabase as Database, transaction } from './sqlite-driver.js';
import type { ColumnDef } from './types.js';

/** Double-quotes an identifier (table names hold dots). */
export const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The column definition in CREATE TABLE (an INTEGER primary key is the rowid, never NULL). */
export const columnDdl = (c: ColumnDef): string =>
  `${q(c.name)} ${c.type}${c.primaryKey ? ' PRIMARY KEY' : ''}${c.notNull && !(c.primaryKey && c.type === 'INTEGER') ? ' NOT NULL' : ''}`;

/** A system table as a connection holds it: a TEMP table of that name, filled before a statement reads it. */
export interface TempTable {
  name: string;
  columns: ColumnDef[];
}

/**
 * Creates the TEMP tables a connection lacks (`made` remembers those it has), so statements naming system
 * tables prepare.
 * @example
 * ensureTemp(db, made, [{ name: 'system.executions', columns }])
 */
export function ensureTemp(db: Database, made: Set<string>, tables: TempTable[]): void {
  for (const t of tables) {
    if (made.has(t.name)) continue;
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${q(t.name)} (${t.columns.map(columnDdl).join(', ')})`);
    made.add(t.name);
  }
}

/**
 * Replaces the rows of a TEMP table (`rows` as arrays in column order), in one transaction.
 * @example
 * fillTemp(db, { name: 'system.executions', columns }, [['ex_1', 'wf_1']])
 */
export function fillTemp(db: Database, table: TempTable, rows: unknown[][]): void {
  const cols = table.columns.map((c) => c.name);
  const insert = db.prepare(`INSERT INTO temp.${q(table.name)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
  transaction(db, () => {
    db.prepare(`DELETE FROM temp.${q(table.name)}`).run();
    for (const r of rows) insert.run(r);
  });
}
