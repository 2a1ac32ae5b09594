/** How much one user statement may return and how long it may run. */
export interface QueryLimits {
  maxRows: number;
  maxBytes: number;
  timeoutMs: number;
}

/** A value stored in a table cell. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** A row as returned by queries. */
export type Row = Record<string, unknown>;

/** Column types a schema may use; the same set works on every engine. */
export const COLUMN_TYPES = ['TEXT', 'INTEGER', 'REAL', 'NUMERIC', 'BOOLEAN'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** A column of a table schema. */
export interface ColumnDef {
  name: string;
  type: ColumnType;
  primaryKey?: boolean;
  notNull?: boolean;
}

/** An index of a table schema. */
export interface IndexDef {
  name: string;
  columns: string[];
  unique?: boolean;
}

/** The schema given to `tables init --schema`. */
export interface TableSchema {
  columns: ColumnDef[];
  indexes?: IndexDef[];
}

/** A table as listed: user tables live in the engine, system tables are views of other resources. */
export interface TableMeta {
  id: string;
  name: string;
  description?: string;
  type: 'user' | 'system';
  readOnly: boolean;
  /** Created without a schema: `insert` adds a column for each new key. */
  auto: boolean;
  createdAt: string;
}

/** `tables get`: the table with its live columns, indexes and row count. */
export interface TableDetails extends TableMeta {
  columns: ColumnDef[];
  indexes: IndexDef[];
  rows: number;
}

/** A table a statement reads or writes, as the engine saw it. */
export interface Touched {
  name: string;
  write: boolean;
}

/** The outcome of one user statement. */
export interface ExecResult {
  /** True when the statement returns rows (SELECT, or a write with RETURNING). */
  reader: boolean;
  rows: Row[];
  /** Column names in result order (also when there are no rows). */
  columns: string[];
  changes: number;
}

/** A read-only table whose rows come from elsewhere (e.g. `system.executions`), loaded when a query uses it. */
export interface SystemTable {
  meta: TableMeta;
  columns: ColumnDef[];
  load(): Promise<Row[]>;
}

/**
 * The storage engine behind `weir.tables`: SQLite now, PostgreSQL later (`weir.config.json` `tables.driver`).
 * Everything dialect-specific (DDL, quoting, statement inspection, error texts) lives behind this interface;
 * the manager keeps the rules (names, types, read-only, which tables a statement may touch).
 */
export interface TableEngine {
  readonly dialect: 'sqlite' | 'postgres';
  /** Changes whenever any table's structure changes (a cache key for the manager). */
  version(): Promise<number | string>;
  listMeta(): Promise<TableMeta[]>;
  /** A user table by id or name. */
  findMeta(ref: string): Promise<TableMeta | null>;
  /** Creates the table and records its metadata, atomically. */
  create(meta: TableMeta, schema: TableSchema): Promise<void>;
  /** Drops the table and its metadata, atomically. */
  drop(meta: TableMeta): Promise<void>;
  columns(name: string): Promise<ColumnDef[]>;
  describe(name: string): Promise<{ columns: ColumnDef[]; indexes: IndexDef[]; rows: number }>;
  /** Adds the columns that do not exist yet (safe when another process adds them at the same time). */
  addColumns(name: string, columns: ColumnDef[]): Promise<void>;
  /**
   * Inserts a row and returns it as stored. `columns`, when given, are the table's columns in order: an engine
   * may build the returned row from them and the values (an INTEGER primary key left out is generated)
   * instead of reading it back.
   */
  insert(name: string, row: Record<string, SqlValue>, columns?: ColumnDef[]): Promise<Row>;
  /** Updates the row whose `key` column equals `keyValue`; null when there is none. */
  update(name: string, key: string, keyValue: string, data: Record<string, SqlValue>): Promise<Row | null>;
  deleteRow(name: string, key: string, keyValue: string): Promise<boolean>;
  /**
   * Runs one user statement. Before running, the engine tells `authorize` which tables it touches (and refuses
   * statements outside the allowed kinds itself); system tables it touches are loaded first. The statement
   * stops with TIMEOUT at `limits.timeoutMs` or when `signal` aborts, and with RESULT_TOO_LARGE as soon as its
   * rows pass `limits.maxRows` or `limits.maxBytes`.
   */
  execute(sql: string, params: unknown[] | Record<string, unknown>, authorize: (touched: Touched[], writes: boolean) => void, system: SystemTable[], run: { limits: QueryLimits; signal?: AbortSignal }): Promise<ExecResult>;
  /** Every row of a table, read in batches. */
  rows(name: string): AsyncIterable<Row>;
  /** Inserts rows (arrays in `columns` order) in one transaction; all or nothing. */
  bulkInsert(name: string, columns: string[], rows: AsyncIterable<SqlValue[]>, onRow?: (count: number) => void): Promise<number>;
  close(): Promise<void>;
}
