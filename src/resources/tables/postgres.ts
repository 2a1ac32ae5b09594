import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { WeirError } from '../../errors.js';
import { loadOptional } from '../../util/optional.js';
import { coerce } from './schema.js';
import { checkStatement, toPgSql, touchedByPlan } from './pg-guard.js';
import { pgError } from './pg-errors.js';
import { queryTimeout, resultCap } from './limits.js';
import type { ColumnDef, ColumnType, IndexDef, Row, SqlValue, SystemTable, TableEngine, TableMeta } from './types.js';

/** `weir.config.json` `tables` for PostgreSQL. */
export interface PostgresTablesOptions {
  url: string;
  /** The schema holding the tables and their metadata (default `public`). */
  schema?: string;
  /** Connections kept open (default 10). */
  poolSize?: number;
}

const SQL_TYPE: Record<ColumnType, string> = { TEXT: 'text', INTEGER: 'bigint', REAL: 'double precision', NUMERIC: 'numeric', BOOLEAN: 'boolean' };
const FROM_SQL: Record<string, ColumnType> = { bigint: 'INTEGER', integer: 'INTEGER', smallint: 'INTEGER', 'double precision': 'REAL', real: 'REAL', numeric: 'NUMERIC', boolean: 'BOOLEAN' };
const META = '_weir_tables';
const VERSION = '_weir_version';
const BATCH = 500;

/**
 * A statement sent with the extended protocol even without parameters: one statement only, so
 * `SELECT 1; DROP TABLE ...` is refused by the server instead of running both.
 */
const extended = (text: string, values: unknown[]): QueryConfig => ({ text, values, queryMode: 'extended' }) as QueryConfig;
const q = (ident: string) => `"${ident.replace(/"/g, '""')}"`;
const toParam = (v: SqlValue): unknown => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v) : v);

/**
 * The PostgreSQL table engine (`{"tables": {"driver": "postgres", "url": "postgres://..."}}`): the same
 * tables, rules and SQL as the embedded SQLite engine, shared by every host of a cluster. Tables keep
 * their dotted names (`"user.orders"`) inside one schema; metadata lives beside them in `_weir_tables`.
 * `pg` loads on first use.
 * @example
 * const engine = createPostgresEngine({ url: 'postgres://127.0.0.1/weir', schema: 'weir' })
 * await engine.execute('SELECT * FROM "user.orders" WHERE id = ?', ['o1'], authorize, [])
 */
export function createPostgresEngine(options: PostgresTablesOptions): TableEngine {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new WeirError('INVALID_CONFIG', `tables.schema must be a lower-case identifier (letters, digits, "_"), got ${JSON.stringify(schema)}`);
  }
  let pool: Promise<Pool> | undefined;

  const open = async (): Promise<Pool> => {
    const { default: pg } = await loadOptional('pg', 'PostgreSQL tables (tables.driver "postgres")', () => import('pg'));
    const types = {
      getTypeParser(oid: number, format?: 'text' | 'binary') {
        // COUNT(*) and INTEGER columns are int8: numbers (as SQLite gives them) when they fit.
        if (oid === 20) return (v: string) => (Number.isSafeInteger(Number(v)) ? Number(v) : v);
        if (oid === 1700) return (v: string) => Number(v);
        return pg.types.getTypeParser(oid, format as 'text');
      },
    };
    const p = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, options: `-c search_path=${schema}`, types: types as never });
    p.on('error', () => {}); // an idle connection dropped by the server: the pool replaces it
    const c = await p.connect().catch((err) => {
      void p.end();
      throw pgError(err);
    });
    try {
      await c.query('BEGIN');
      // Several hosts may start at once: one creates the schema, the others wait and find it.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`weir-tables:${schema}`]);
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${q(schema)}`);
      await c.query(`CREATE TABLE IF NOT EXISTS ${q(schema)}.${META} (id text PRIMARY KEY, name text UNIQUE NOT NULL, meta jsonb NOT NULL)`);
      await c.query(`CREATE TABLE IF NOT EXISTS ${q(schema)}.${VERSION} (one boolean PRIMARY KEY DEFAULT true CHECK (one), v bigint NOT NULL)`);
      await c.query(`INSERT INTO ${q(schema)}.${VERSION} (v) VALUES (0) ON CONFLICT DO NOTHING`);
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw pgError(err);
    } finally {
      c.release();
    }
    return p;
  };
  const getPool = () => (pool ??= open().catch((err) => ((pool = undefined), Promise.reject(err))));

  const query = async (text: string, values: unknown[] = []): Promise<QueryResult> => {
    try {
      return await (await getPool()).query(extended(text, values));
    } catch (err) {
      throw pgError(err);
    }
  };
  async function tx<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await (await getPool()).connect().catch((err) => Promise.reject(pgError(err)));
    try {
      await c.query('BEGIN');
      const out = await work(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {});
      throw pgError(err);
    } finally {
      c.release();
    }
  }
  /** A statement addressing one row by its key; a key value the column cannot hold (`abc` for an INTEGER) matches nothing. */
  const byKey = (text: string, keyValue: string, rest: unknown[] = []) =>
    query(text, [keyValue, ...rest]).catch((err: WeirError) => {
      if ((err.cause as { code?: string } | undefined)?.code === '22P02' && /\$1\b/.test(text)) return null;
      throw err;
    });
  const bump = (c: PoolClient) => c.query(`UPDATE ${VERSION} SET v = v + 1`);
  const metaOf = (rows: Array<{ meta: TableMeta }>) => rows.map((r) => r.meta);

  async function columns(name: string): Promise<ColumnDef[]> {
    const { rows } = await query(
      `SELECT c.column_name AS name, c.data_type AS type, c.is_nullable = 'NO' AS not_null,
              EXISTS (SELECT 1 FROM information_schema.key_column_usage k JOIN information_schema.table_constraints t
                      ON t.constraint_name = k.constraint_name AND t.table_schema = k.table_schema
                      WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_schema = c.table_schema AND k.table_name = c.table_name
                        AND k.column_name = c.column_name) AS pk
         FROM information_schema.columns c WHERE c.table_schema = $1 AND c.table_name = $2 ORDER BY c.ordinal_position`,
      [schema, name],
    );
    return rows.map((r) => ({ name: r.name, type: FROM_SQL[r.type] ?? 'TEXT', ...(r.pk ? { primaryKey: true } : {}), ...(r.not_null ? { notNull: true } : {}) }));
  }

  async function loadSystem(c: PoolClient, table: SystemTable): Promise<void> {
    const cols = table.columns;
    await c.query(`CREATE TEMP TABLE ${q(table.meta.name)} (${cols.map((col) => `${q(col.name)} ${SQL_TYPE[col.type]}`).join(', ')}) ON COMMIT DROP`);
    const rows = await table.load();
    for (let i = 0; i < rows.length; i += BATCH) {
      const chunk = rows.slice(i, i + BATCH);
      const values = chunk.flatMap((row) => cols.map((col) => toParam(coerce(row[col.name], col, table.meta.name))));
      const tuples = chunk.map((_, r) => `(${cols.map((_, k) => `$${r * cols.length + k + 1}`).join(', ')})`);
      await c.query(`INSERT INTO ${q(table.meta.name)} VALUES ${tuples.join(', ')}`, values);
    }
  }

  return {
    dialect: 'postgres',
    async version() {
      return String((await query(`SELECT v FROM ${VERSION}`)).rows[0]?.v ?? 0);
    },
    async listMeta() {
      return metaOf((await query(`SELECT meta FROM ${META} ORDER BY name`)).rows);
    },
    async findMeta(ref) {
      return metaOf((await query(`SELECT meta FROM ${META} WHERE id = $1 OR name = $1 ORDER BY (id = $1) DESC LIMIT 1`, [ref])).rows)[0] ?? null;
    },
    async create(meta, schemaDef) {
      const key = schemaDef.columns.find((c) => c.primaryKey)?.name;
      const cols = schemaDef.columns.map((c) => `${q(c.name)} ${SQL_TYPE[c.type]}${c.notNull || c.primaryKey ? ' NOT NULL' : ''}`);
      await tx(async (c) => {
        const exists = await c.query(`SELECT 1 FROM ${META} WHERE name = $1`, [meta.name]);
        if (exists.rowCount) throw new WeirError('EXISTS', `a table named "${meta.name}" already exists`);
        await c.query(`CREATE TABLE ${q(meta.name)} (${[...cols, ...(key ? [`PRIMARY KEY (${q(key)})`] : [])].join(', ')})`);
        for (const ix of schemaDef.indexes ?? []) {
          await c.query(`CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX ${q(ix.name)} ON ${q(meta.name)} (${ix.columns.map(q).join(', ')})`);
        }
        await c.query(`INSERT INTO ${META} (id, name, meta) VALUES ($1, $2, $3)`, [meta.id, meta.name, JSON.stringify(meta)]);
        await bump(c);
      });
    },
    async drop(meta) {
      await tx(async (c) => {
        await c.query(`DROP TABLE IF EXISTS ${q(meta.name)}`);
        await c.query(`DELETE FROM ${META} WHERE id = $1`, [meta.id]);
        await bump(c);
      });
    },
    columns,
    async describe(name) {
      const [cols, ix, count] = await Promise.all([
        columns(name),
        query(
          `SELECT i.relname AS name, ix.indisunique AS unique, array_agg(a.attname::text ORDER BY k.n) AS columns
             FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
             JOIN pg_namespace s ON s.oid = t.relnamespace
             CROSS JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n)
             JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
            WHERE s.nspname = $1 AND t.relname = $2 AND NOT ix.indisprimary GROUP BY i.relname, ix.indisunique ORDER BY i.relname`,
          [schema, name],
        ),
        query(`SELECT count(*) AS n FROM ${q(name)}`),
      ]);
      const indexes: IndexDef[] = ix.rows.map((r) => ({ name: r.name, columns: r.columns, ...(r.unique ? { unique: true } : {}) }));
      return { columns: cols, indexes, rows: Number(count.rows[0].n) };
    },
    async addColumns(name, cols) {
      if (!cols.length) return;
      await tx(async (c) => {
        await c.query(`ALTER TABLE ${q(name)} ${cols.map((col) => `ADD COLUMN IF NOT EXISTS ${q(col.name)} ${SQL_TYPE[col.type]}`).join(', ')}`);
        await bump(c);
      });
    },
    async insert(name, row) {
      const keys = Object.keys(row);
      const sql = keys.length
        ? `INSERT INTO ${q(name)} (${keys.map(q).join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`
        : `INSERT INTO ${q(name)} DEFAULT VALUES RETURNING *`;
      return (await query(sql, keys.map((k) => toParam(row[k])))).rows[0] as Row;
    },
    async update(name, key, keyValue, data) {
      const keys = Object.keys(data);
      const res = keys.length
        ? await byKey(`UPDATE ${q(name)} SET ${keys.map((k, i) => `${q(k)} = $${i + 2}`).join(', ')} WHERE ${q(key)} = $1 RETURNING *`, keyValue, keys.map((k) => toParam(data[k])))
        : await byKey(`SELECT * FROM ${q(name)} WHERE ${q(key)} = $1`, keyValue);
      return (res?.rows[0] as Row) ?? null;
    },
    async deleteRow(name, key, keyValue) {
      return ((await byKey(`DELETE FROM ${q(name)} WHERE ${q(key)} = $1`, keyValue))?.rowCount ?? 0) > 0;
    },
    async execute(sql, params, authorize, system, { limits }) {
      checkStatement(sql);
      const { sql: text, values } = toPgSql(sql, params);
      const deadline = Date.now() + limits.timeoutMs;
      return tx(async (c) => {
        // Each statement may use only what is left of the time limit; the server stops it there.
        const timed = async (statement: string | QueryConfig) => {
          const left = Math.floor(deadline - Date.now());
          if (left < 1) throw queryTimeout(limits.timeoutMs);
          await c.query(`SET LOCAL statement_timeout = ${left}`);
          return c.query(statement as QueryConfig);
        };
        try {
          for (const table of system.filter((s) => sql.includes(`"${s.meta.name}"`))) await loadSystem(c, table);
          const explained = await timed(extended(`EXPLAIN (FORMAT JSON, VERBOSE) ${text}`, values));
          const plan = (explained.rows[0] as { 'QUERY PLAN': Array<{ Plan: object }> })['QUERY PLAN'][0].Plan;
          const { touched, writes } = touchedByPlan(plan, schema);
          authorize(touched, writes);
          const cap = resultCap(limits);
          if (writes) {
            const res = await timed(extended(text, values));
            for (const r of res.rows) cap.add(r);
            return { reader: res.fields.length > 0, rows: res.rows as Row[], columns: res.fields.map((f) => f.name), changes: res.rowCount ?? 0 };
          }
          // A cursor reads a result in batches, so one past the caps stops there instead of filling memory.
          await timed(extended(`DECLARE weir_rows NO SCROLL CURSOR FOR ${text}`, values));
          const rows: Row[] = [];
          for (;;) {
            const res = await timed(`FETCH ${BATCH} FROM weir_rows`);
            for (const r of res.rows) (cap.add(r), rows.push(r));
            if (res.rows.length < BATCH) return { reader: true, rows, columns: res.fields.map((f) => f.name), changes: 0 };
          }
        } catch (err) {
          // 57014: the server cancelled the statement at statement_timeout.
          throw (err as { code?: string }).code === '57014' ? queryTimeout(limits.timeoutMs) : err;
        }
      });
    },
    async *rows(name) {
      const c = await (await getPool()).connect().catch((err) => Promise.reject(pgError(err)));
      let open = false;
      try {
        await c.query('BEGIN');
        open = true;
        await c.query(`DECLARE weir_rows NO SCROLL CURSOR FOR SELECT * FROM ${q(name)}`);
        for (;;) {
          const { rows } = await c.query(`FETCH ${BATCH} FROM weir_rows`);
          for (const row of rows) yield row as Row;
          if (rows.length < BATCH) break;
        }
      } catch (err) {
        throw pgError(err);
      } finally {
        // Also when the reader stopped early: the cursor's transaction must not outlive it.
        if (open) await c.query('ROLLBACK').catch(() => {});
        c.release();
      }
    },
    async bulkInsert(name, cols, rows, onRow) {
      const per = Math.max(1, Math.min(BATCH, Math.floor(60000 / Math.max(1, cols.length))));
      return tx(async (c) => {
        let count = 0;
        let chunk: SqlValue[][] = [];
        const flush = async () => {
          if (!chunk.length) return;
          const tuples = chunk.map((_, r) => `(${cols.map((_, k) => `$${r * cols.length + k + 1}`).join(', ')})`);
          await c.query(`INSERT INTO ${q(name)} (${cols.map(q).join(', ')}) VALUES ${tuples.join(', ')}`, chunk.flat().map(toParam));
          chunk = [];
        };
        for await (const row of rows) {
          chunk.push(row);
          count++;
          onRow?.(count);
          if (chunk.length >= per) await flush();
        }
        await flush();
        return count;
      });
    },
    async close() {
      const p = pool;
      pool = undefined;
      if (p) await (await p.catch(() => null))?.end();
    },
  };
}
