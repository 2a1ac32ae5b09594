import type { QueryOptions } from '../resources/tables/limits.js';
import type { ExecResult, Row, TableDetails, TableMeta } from '../resources/tables/types.js';
import type { WriteTarget } from '../util/streams.js';

/**
 * SQL tables (`weir.tables`): user tables (`user.*`, SQLite under the home by default) and read-only system
 * tables, user SQL checked before it runs, CSV export and import.
 * @example
 * await weir.tables.init('user.orders')
 * await weir.tables.insert('user.orders', { sku: 'A1', qty: 2 })
 * await weir.tables.query('user.orders', 'SELECT * FROM "user.orders" WHERE qty > ?', [1])
 */
export interface Tables {
  /** User tables by name, then system tables. */
  list(): Promise<TableMeta[]>;
  /** Creates a user table (name must start with `user.`); without a schema it grows a column per new key. */
  init(name: string, description?: string, schema?: unknown): Promise<TableMeta>;
  /** A table with its live columns, indexes and row count. */
  get(ref: string): Promise<TableDetails>;
  /** Drops a user table and its rows. */
  delete(ref: string): Promise<TableMeta>;
  /**
   * Runs one SQL statement with bound parameters on the table `ref` names: the statement may use no other
   * table; read-only tables refuse writes; ATTACH, PRAGMA, schema changes and extension loading are refused.
   * It stops with TIMEOUT after `tables.timeoutMs` (or `options.timeoutMs` when shorter, or when
   * `options.signal` aborts) and with RESULT_TOO_LARGE past `tables.maxRows` rows or `tables.maxBytes` bytes.
   */
  execute(ref: string, sql: string, params?: unknown, options?: QueryOptions): Promise<ExecResult>;
  /** The rows a statement returns (empty for writes without RETURNING). */
  query(ref: string, sql: string, params?: unknown, options?: QueryOptions): Promise<Row[]>;
  /** Inserts a row and returns it as stored. */
  insert(ref: string, row: unknown, options?: InsertOptions): Promise<Row>;
  /** Updates the row whose primary key `primaryKey` equals `rowId`; returns it as stored. */
  update(ref: string, rowId: string, primaryKey: string, data: unknown): Promise<Row>;
  /** Deletes the row whose primary key `primaryKey` equals `rowId`. */
  deleteRow(ref: string, rowId: string, primaryKey: string): Promise<{
    table: string;
    deleted: string;
  }>;
  /** Writes the table as CSV (header = columns) to `out`, streaming; returns the row count. */
  export(ref: string, out: WriteTarget): Promise<number>;
  /**
   * Imports a CSV stream in one transaction (all rows or none): header names map to columns (a schemaless
   * table gains TEXT columns for new ones), values are coerced to the column types.
   */
  import(ref: string, input: NodeJS.ReadableStream, options?: {
    onProgress?: (rows: number) => void;
  }): Promise<{
    table: string;
    rows: number;
  }>;
  /** Closes the engine (the database connection). */
  close(): Promise<void>;
}

/** Options of `tables.insert`. */
export interface InsertOptions {
  /**
   * The key of a row that has none, when the key column is TEXT (a schemaless table's `id`): inserting it
   * again returns the row stored the first time instead of failing, so an insert repeated after a crash
   * stores one row.
   */
  keyIfAbsent?: string;
}
