import { randomUUID } from 'node:crypto';
import type { WeirConfig } from '../../config.js';
import { WeirError } from '../../errors.js';
import { newId } from '../../util/ids.js';
import { isObject } from '../../util/json.js';
import { didYouMean } from '../../util/nearest.js';
import type { WriteTarget } from '../../util/streams.js';
import { readCsv, writeCsv } from './csv.js';
import { openEngine } from './engine.js';
import { callLimits, type QueryOptions, queryLimits } from './limits.js';
import { checkScope } from './scope.js';
import { bindable } from './params.js';
import { AUTO_SCHEMA, checkColumnName, checkTableName, coerce, inferType, parseSchema } from './schema.js';
import type { ColumnDef, ExecResult, Row, SqlValue, SystemTable, TableDetails, TableEngine, TableMeta, Touched } from './types.js';
import type { InsertOptions, Tables } from '../../types/tables.js';

export type { Tables } from '../../types/tables.js';
export * from './types.js';
export { checkTableName, parseSchema } from './schema.js';
export { executionsTable, type ExecutionSource } from './system.js';
export type { QueryOptions } from './limits.js';

export interface TablesOptions {
  home?: string;
  config: WeirConfig;
  /** Read-only tables backed by other resources (`system.executions`). */
  system?: SystemTable[];
  /** An engine to use instead of the one `config.tables` names. */
  engine?: TableEngine;
}

/** A resolved table: its metadata and columns by lower-case name. */
interface Resolved {
  meta: TableMeta;
  /** In table order. */
  list: ColumnDef[];
  columns: Map<string, ColumnDef>;
  key: ColumnDef | undefined;
  system?: SystemTable;
}

const AUTO_COLUMNS = ['id', 'createdAt', 'updatedAt'];
const RECHECK_MS = 250;

/**
 * SQL tables: user tables named `user.*` in the engine (SQLite under the home by
 * default), read-only system tables beside them, user SQL checked before it runs, CSV export/import.
 * Tables are addressed by id or name.
 * @example
 * await weir.tables.init('user.orders')
 * await weir.tables.insert('user.orders', { sku: 'A-1', qty: 2 })
 * await weir.tables.query('user.orders', 'SELECT * FROM "user.orders" WHERE qty > ?', [1])
 */
export function createTables({ home, config, system = [], engine: given }: TablesOptions): Tables {
  const limits = queryLimits(config);
  let engine: TableEngine | undefined = given;
  const db = () => (engine ??= openEngine({ home, config }));
  let version: number | string | undefined;
  let checkedAt = 0;
  const resolved = new Map<string, Resolved>();
  let known: Map<string, TableMeta> | undefined;
  const forget = () => (resolved.clear(), (known = undefined));

  /**
   * Drops cached tables when the engine's structure changed in another process. Checked at most every
   * {@link RECHECK_MS} (this process's own changes clear the caches at once): the check is a round trip that
   * would otherwise cost as much as a primary-key lookup. A stale entry meets the engine's own checks (a
   * dropped table or a missing column is a clear error); only a table dropped and made again under the same
   * name within that window could see one insert coerced for its old column types.
   */
  async function fresh(force = false) {
    if (!force && Date.now() - checkedAt < RECHECK_MS) return;
    const v = await db().version();
    checkedAt = Date.now();
    if (v !== version) (forget(), (version = v));
  }

  const asResolved = (meta: TableMeta, columns: ColumnDef[], s?: SystemTable): Resolved => ({
    meta,
    list: columns,
    columns: new Map(columns.map((c) => [c.name.toLowerCase(), c])),
    key: columns.find((c) => c.primaryKey),
    system: s,
  });

  /** A table by id or name (a table not in the cache is always looked up in the engine). */
  async function resolve(ref: string): Promise<Resolved> {
    const s = system.find((t) => t.meta.id === ref || t.meta.name === ref);
    if (s) return asResolved(s.meta, s.columns, s);
    if (Date.now() - checkedAt >= RECHECK_MS) await fresh();
    const hit = resolved.get(ref);
    if (hit) return hit;
    const meta = await db().findMeta(ref);
    if (!meta) {
      const known = [...(await db().listMeta()), ...system.map((t) => t.meta)].flatMap((m) => [m.name, m.id]);
      throw new WeirError('NOT_FOUND', `table "${ref}" not found${didYouMean(ref, known)}`, {
        hints: [ref.includes('.') || ref.startsWith('tbl_') ? 'run `weir data tables list` to see tables' : 'user table names start with "user." (e.g. "user.orders")'],
      });
    }
    const r = asResolved(meta, await db().columns(meta.name));
    resolved.set(ref, r);
    return r;
  }

  async function writable(ref: string): Promise<Resolved> {
    const t = await resolve(ref);
    if (t.meta.readOnly) throw new WeirError('READ_ONLY', `table "${t.meta.name}" is read-only`);
    return t;
  }

  /** Every table by name (cached like resolved tables). */
  async function tablesByName(): Promise<Map<string, TableMeta>> {
    return (known ??= new Map([...(await db().listMeta()), ...system.map((s) => s.meta)].map((m) => [m.name, m])));
  }

  /** Row values as stored; new keys of a schemaless table become columns (returned to be added first). */
  function values(t: Resolved, data: Record<string, unknown>, where: string, insert: boolean) {
    const out: Record<string, SqlValue> = {};
    const added: ColumnDef[] = [];
    for (const [k, v] of Object.entries(data)) {
      if (v === undefined) continue;
      let col = t.columns.get(k.toLowerCase());
      if (!col) {
        if (!t.meta.auto) throw new WeirError('INVALID_INPUT', `${where}: unknown column "${k}" (columns: ${t.list.map((c) => c.name).join(', ')})`);
        added.push((col = { name: checkColumnName(k), type: inferType(v) }));
      }
      out[col.name] = coerce(v, col, where, t.meta.auto);
    }
    if (t.meta.auto) {
      const now = new Date().toISOString();
      if (insert) out.id ??= randomUUID();
      if (insert) out.createdAt ??= now;
      out.updatedAt = data.updatedAt === undefined ? now : out.updatedAt;
    }
    return { out, added };
  }

  async function withColumns(t: Resolved, added: ColumnDef[]): Promise<void> {
    if (!added.length) return;
    await db().addColumns(t.meta.name, added);
    forget();
  }

  function keyOf(t: Resolved, primaryKey: string): string {
    if (!t.key || t.key.name.toLowerCase() !== primaryKey.toLowerCase()) {
      throw new WeirError('RULE', `"${primaryKey}" is not the primary key of ${t.meta.name}${t.key ? ` (its primary key is "${t.key.name}")` : ''}`);
    }
    return t.key.name;
  }

  const api = {
    /** User tables by name, then system tables. */
    async list(): Promise<TableMeta[]> {
      return [...(await db().listMeta()), ...system.map((s) => s.meta)];
    },

    /** Creates a user table (name must start with `user.`); without a schema it grows a column per new key. */
    async init(name: string, description?: string, schema?: unknown): Promise<TableMeta> {
      checkTableName(name);
      const parsed = schema === undefined ? AUTO_SCHEMA : parseSchema(schema);
      const meta: TableMeta = { id: newId('tbl'), name, ...(description ? { description } : {}), type: 'user', readOnly: false, auto: schema === undefined, createdAt: new Date().toISOString() };
      await db().create(meta, parsed);
      forget();
      return meta;
    },

    /** A table with its live columns, indexes and row count. */
    async get(ref: string): Promise<TableDetails> {
      const t = await resolve(ref);
      if (t.system) return { ...t.meta, columns: t.system.columns, indexes: [], rows: (await t.system.load()).length };
      return { ...t.meta, ...(await db().describe(t.meta.name)) };
    },

    /** Drops a user table and its rows. */
    async delete(ref: string): Promise<TableMeta> {
      const t = await writable(ref);
      await db().drop(t.meta);
      forget();
      return t.meta;
    },

    /**
     * Runs one SQL statement with bound parameters on the table `ref` names: the statement may use no other
     * table; read-only tables refuse writes; ATTACH, PRAGMA, schema changes and extension loading are refused.
     * It stops with TIMEOUT after `tables.timeoutMs` (or `options.limitMs` in its place; `options.timeoutMs`
     * when shorter; or when `options.signal` aborts) and with RESULT_TOO_LARGE past `tables.maxRows` rows or `tables.maxBytes` bytes.
     */
    async execute(ref: string, sql: string, params: unknown = [], options: QueryOptions = {}): Promise<ExecResult> {
      if (typeof sql !== 'string' || !sql.trim()) throw new WeirError('INVALID_INPUT', 'SQL text must not be empty');
      const target = await resolve(ref);
      const bound = bindable(params);
      for (let retried = false; ; retried = true) {
        const names = known ?? (await tablesByName());
        let unknown: string | undefined;
        const authorize = (touched: Touched[], writes: boolean) => {
          const stranger = touched.find((t) => !names.has(t.name));
          if (stranger) throw new WeirError('RULE', `the statement uses "${(unknown = stranger.name)}", which is not a table of this organization`, { hints: ['run `weir data tables list` to see tables'] });
          checkScope(target.meta.name, sql, touched, names.keys());
          if (writes && target.meta.readOnly) throw new WeirError('READ_ONLY', `table "${target.meta.name}" is read-only: writing statements are refused`);
        };
        try {
          return await db().execute(sql, bound, authorize, system, { limits: callLimits(limits, options), signal: options.signal });
        } catch (err) {
          // A table another process made a moment ago: look again once before refusing.
          if (!unknown || retried) throw err;
          await fresh(true);
        }
      }
    },

    /** The rows a statement returns (empty for writes without RETURNING). */
    async query(ref: string, sql: string, params: unknown = [], options: QueryOptions = {}): Promise<Row[]> {
      return (await api.execute(ref, sql, params, options)).rows;
    },

    /** Inserts a row and returns it as stored. */
    async insert(ref: string, row: unknown, { keyIfAbsent }: InsertOptions = {}): Promise<Row> {
      if (!isObject(row)) throw new WeirError('INVALID_INPUT', 'a row must be a JSON object');
      const t = await writable(ref);
      const key = keyIfAbsent !== undefined && t.key?.type === 'TEXT' && row[t.key.name] === undefined ? t.key.name : null;
      const { out, added } = values(t, key ? { ...row, [key]: keyIfAbsent } : row, 'row', true);
      await withColumns(t, added);
      // The column list in table order lets the engine return the stored row without reading it back.
      return db().insert(t.meta.name, out, added.length ? undefined : t.list).catch(async (err) => {
        // The same insert made again (its node ran again after a crash): the row stored the first time is its result.
        const stored = key && (err as WeirError).code === 'CONFLICT' ? await db().update(t.meta.name, key, keyIfAbsent!, { [key]: keyIfAbsent! }) : null;
        if (!stored) throw err;
        return stored;
      });
    },

    /** Updates the row whose primary key `primaryKey` equals `rowId`; returns it as stored. */
    async update(ref: string, rowId: string, primaryKey: string, data: unknown): Promise<Row> {
      if (!isObject(data) || !Object.keys(data).length) throw new WeirError('INVALID_INPUT', 'update data must be a non-empty JSON object');
      const t = await writable(ref);
      const key = keyOf(t, primaryKey);
      const { out, added } = values(t, data, 'update', false);
      await withColumns(t, added);
      const row = await db().update(t.meta.name, key, rowId, out);
      if (!row) throw new WeirError('NOT_FOUND', `no row with ${key} = ${JSON.stringify(rowId)} in ${t.meta.name}`);
      return row;
    },

    /** Deletes the row whose primary key `primaryKey` equals `rowId`. */
    async deleteRow(ref: string, rowId: string, primaryKey: string): Promise<{ table: string; deleted: string }> {
      const t = await writable(ref);
      const key = keyOf(t, primaryKey);
      if (!(await db().deleteRow(t.meta.name, key, rowId))) throw new WeirError('NOT_FOUND', `no row with ${key} = ${JSON.stringify(rowId)} in ${t.meta.name}`);
      return { table: t.meta.name, deleted: rowId };
    },

    /** Writes the table as CSV (header = columns) to `out`, streaming; returns the row count. */
    async export(ref: string, out: WriteTarget): Promise<number> {
      const t = await resolve(ref);
      const columns = t.list.map((c) => c.name);
      const rows = t.system ? (async function* () { yield* await t.system!.load(); })() : db().rows(t.meta.name);
      return writeCsv(columns, rows, out);
    },

    /**
     * Imports a CSV stream in one transaction (all rows or none): header names map to columns (a schemaless
     * table gains TEXT columns for new ones), values are coerced to the column types.
     */
    async import(ref: string, input: NodeJS.ReadableStream, options: { onProgress?: (rows: number) => void } = {}): Promise<{ table: string; rows: number }> {
      let t = await writable(ref);
      const { header, batches } = await readCsv(input);
      const seen = new Set<string>();
      const added: ColumnDef[] = [];
      for (const h of header) {
        if (seen.has(h.toLowerCase())) throw new WeirError('INVALID_INPUT', `invalid CSV: column "${h}" appears twice in the header`);
        seen.add(h.toLowerCase());
        if (t.columns.has(h.toLowerCase())) continue;
        if (!t.meta.auto) throw new WeirError('INVALID_INPUT', `CSV column "${h}" is not a column of ${t.meta.name} (columns: ${t.list.map((c) => c.name).join(', ')})`);
        added.push({ name: checkColumnName(h), type: 'TEXT' });
      }
      await withColumns(t, added);
      t = await resolve(ref);
      const mapped = header.map((h) => t.columns.get(h.toLowerCase())!);
      const generated = t.meta.auto ? AUTO_COLUMNS.filter((c) => !seen.has(c.toLowerCase())) : [];
      const widen = t.meta.auto;
      async function* rows() {
        for await (const batch of batches) {
          const now = new Date().toISOString();
          for (const { values: cells, row } of batch) {
            const where = `CSV row ${row}`;
            yield [...mapped.map((c, i) => coerce(cells[i], c, where, widen)), ...generated.map((c) => (c === 'id' ? randomUUID() : now))];
          }
        }
      }
      const count = await db().bulkInsert(t.meta.name, [...mapped.map((c) => c.name), ...generated], rows(), options.onProgress);
      return { table: t.meta.name, rows: count };
    },

    /** Closes the engine (the database connection). */
    async close(): Promise<void> {
      await engine?.close();
    },
  };
  return api;
}
