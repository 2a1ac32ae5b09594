import { WeirError } from '../../errors.js';
import { firstKeyword } from './sqlite-guard.js';
import type { Touched } from './types.js';

/** Statement kinds a table query may run on PostgreSQL (the SQLite set minus REPLACE, which PG lacks). */
const ALLOWED = new Set(['select', 'with', 'insert', 'update', 'delete', 'values']);
const WHY: Record<string, string> = {
  create: 'schema changes go through `weir data tables init`',
  drop: 'schema changes go through `weir data tables delete`',
  alter: 'schema changes go through `weir data tables init` (schemaless tables add columns on insert)',
  copy: 'COPY reaches the server\'s files; use `weir data tables import`/`export`',
  set: 'SET is not allowed in a table query',
};
// Functions that reach outside the tables (server files, other sessions, settings, other databases).
const DENIED_FUNCTIONS =
  /\b(pg_read_file|pg_read_binary_file|pg_ls_\w+|pg_stat_file|lo_\w+|dblink\w*|pg_terminate_backend|pg_cancel_backend|pg_reload_conf|pg_rotate_logfile|set_config|current_setting|pg_sleep\w*|pg_advisory\w*|pg_notify|query_to_xml\w*|table_to_xml\w*|cursor_to_xml\w*|database_to_xml\w*|schema_to_xml\w*|pg_switch_wal|pg_create_\w+|pg_drop_\w+)\s*\(/i;

/**
 * The SQL of a table query in PostgreSQL's dialect: `?` placeholders (the SQLite style flows are written
 * in) become `$1..$n`, and named parameters (`:name`, `@name`, `$name`) become positional, with their
 * values in order. Quoted strings, identifiers and comments are left alone.
 * @example
 * toPgSql('SELECT * FROM "user.t" WHERE a = ? AND b = ?', [1, 2]) // { sql: '... a = $1 AND b = $2', values: [1, 2] }
 */
export function toPgSql(sql: string, params: unknown[] | Record<string, unknown>): { sql: string; values: unknown[] } {
  const named = !Array.isArray(params);
  const values: unknown[] = named ? [] : [...params];
  const numbered = new Map<string, number>();
  let n = 0;
  const out = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|\$\d+|::|[?]|[:@$][A-Za-z_]\w*/g, (token) => {
    if (token === '?') return named ? token : `$${++n}`;
    if (!named || !/^[:@$][A-Za-z_]/.test(token)) return token;
    const name = token.slice(1);
    if (!(name in params)) throw new WeirError('INVALID_INPUT', `SQL parameters: no value for ${token}`);
    if (!numbered.has(name)) {
      values.push((params as Record<string, unknown>)[name]);
      numbered.set(name, values.length);
    }
    return `$${numbered.get(name)}`;
  });
  return { sql: out, values };
}

/** Refuses statement kinds and functions a table query must not use, before anything reaches the server. */
export function checkStatement(sql: string): void {
  const kw = firstKeyword(sql);
  if (!ALLOWED.has(kw)) {
    const what = kw ? kw.toUpperCase() : 'an empty statement';
    throw new WeirError('RULE', `${what} is not allowed in a table query: ${WHY[kw] ?? 'only SELECT, INSERT, UPDATE, DELETE, VALUES and WITH statements run here'}`);
  }
  const fn = DENIED_FUNCTIONS.exec(sql.replace(/'(?:[^']|'')*'/g, "''"));
  if (fn) throw new WeirError('RULE', `${fn[1].toLowerCase()}() is not allowed in a table query`);
}

interface PlanNode {
  'Node Type'?: string;
  'Relation Name'?: string;
  Schema?: string;
  Operation?: string;
  Plans?: PlanNode[];
}

/**
 * What a statement touches, from its plan (`EXPLAIN (FORMAT JSON, VERBOSE)`): every scanned relation and
 * every ModifyTable target, so CTEs, subqueries and views cannot hide a table. Relations outside the
 * tables' schema (and the session's temp schema, where system tables are loaded) are refused.
 * @example
 * touchedByPlan(plan, 'weir') // { touched: [{ name: 'user.orders', write: true }], writes: true }
 */
export function touchedByPlan(plan: PlanNode, schema: string): { touched: Touched[]; writes: boolean } {
  const touched = new Map<string, boolean>();
  let writes = false;
  const visit = (node: PlanNode) => {
    const write = node['Node Type'] === 'ModifyTable';
    if (write) writes = true;
    const name = node['Relation Name'];
    if (name) {
      const where = node.Schema ?? schema;
      if (where !== schema && !where.startsWith('pg_temp')) {
        throw new WeirError('RULE', `a table query may only use weir tables (it reads ${where}.${name})`);
      }
      touched.set(name, (touched.get(name) ?? false) || write);
    }
    node.Plans?.forEach(visit);
  };
  visit(plan);
  return { touched: [...touched].map(([name, write]) => ({ name, write })), writes };
}
