import { WeirError } from '../../errors.js';
import type { Problem } from '../../nodes/define.js';
import { isObject } from '../../util/json.js';
import { COLUMN_TYPES, type ColumnDef, type ColumnType, type SqlValue, type TableSchema } from './types.js';

const TABLE_NAME = /^user\.[A-Za-z0-9_][A-Za-z0-9_.-]{0,62}$/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The columns of a table made without a schema: `id` (TEXT key, generated when absent), `createdAt`, `updatedAt`. */
export const AUTO_SCHEMA: TableSchema = {
  columns: [
    { name: 'id', type: 'TEXT', primaryKey: true, notNull: true },
    { name: 'createdAt', type: 'TEXT' },
    { name: 'updatedAt', type: 'TEXT' },
  ],
};

/**
 * User table names start with `user.` (exit 1, code RULE, naming the rule).
 * @example
 * checkTableName('orders') // throws: table names must start with "user." ...
 */
export function checkTableName(name: string): string {
  if (typeof name !== 'string' || !name.startsWith('user.')) {
    throw new WeirError('RULE', `invalid table name ${JSON.stringify(name)}: table names must start with "user." (e.g. "user.${name || 'orders'}")`);
  }
  if (!TABLE_NAME.test(name)) {
    throw new WeirError('RULE', `invalid table name ${JSON.stringify(name)}: after "user." use letters, digits, "_", "-" or "." (at most 63)`);
  }
  return name;
}

/** Checks a column name (used for schema columns and for keys that `insert` turns into columns). */
export function checkColumnName(name: string): string {
  if (!IDENT.test(name)) {
    throw new WeirError('INVALID_INPUT', `invalid column name ${JSON.stringify(name)}: use letters, digits and "_", not starting with a digit`);
  }
  return name;
}

/** Validates the JSON of `--schema`; every problem is listed at once. */
export function parseSchema(value: unknown): TableSchema {
  const problems: Problem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (!isObject(value)) throw new WeirError('INVALID_INPUT', 'a table schema must be a JSON object with "columns" (and optional "indexes")');
  const columns: ColumnDef[] = [];
  if (!Array.isArray(value.columns) || value.columns.length === 0) add('columns', '"columns" must be a non-empty array');
  else {
    value.columns.forEach((c: unknown, i) => {
      const at = `columns[${i}]`;
      if (!isObject(c)) return add(at, 'a column must be an object');
      if (typeof c.name !== 'string' || !IDENT.test(c.name)) add(`${at}.name`, 'a column name uses letters, digits and "_", not starting with a digit');
      const type = typeof c.type === 'string' ? c.type.toUpperCase() : c.type;
      if (!COLUMN_TYPES.includes(type as ColumnType)) add(`${at}.type`, `type must be one of ${COLUMN_TYPES.join(', ')}`);
      for (const flag of ['primaryKey', 'notNull'] as const) if (c[flag] !== undefined && typeof c[flag] !== 'boolean') add(`${at}.${flag}`, `"${flag}" must be a boolean`);
      columns.push({ name: c.name as string, type: type as ColumnType, ...(c.primaryKey ? { primaryKey: true } : {}), ...(c.notNull ? { notNull: true } : {}) });
    });
    const names = columns.map((c) => c.name?.toLowerCase());
    names.forEach((n, i) => names.indexOf(n) !== i && add(`columns[${i}].name`, `duplicate column "${columns[i].name}"`));
    const keys = columns.filter((c) => c.primaryKey).length;
    if (keys !== 1) add('columns', `exactly one column must be the primaryKey (found ${keys}): rows are addressed by it`);
  }
  const indexes = value.indexes === undefined ? [] : value.indexes;
  if (!Array.isArray(indexes)) add('indexes', '"indexes" must be an array');
  else {
    const known = new Set(columns.map((c) => c.name));
    indexes.forEach((ix: unknown, i) => {
      const at = `indexes[${i}]`;
      if (!isObject(ix)) return add(at, 'an index must be an object');
      if (typeof ix.name !== 'string' || !IDENT.test(ix.name)) add(`${at}.name`, 'an index name uses letters, digits and "_"');
      if (!Array.isArray(ix.columns) || !ix.columns.length) add(`${at}.columns`, '"columns" must be a non-empty array of column names');
      else ix.columns.forEach((c, j) => !known.has(c) && add(`${at}.columns[${j}]`, `unknown column ${JSON.stringify(c)}`));
      if (ix.unique !== undefined && typeof ix.unique !== 'boolean') add(`${at}.unique`, '"unique" must be a boolean');
    });
  }
  if (problems.length) {
    throw new WeirError('INVALID_INPUT', `invalid table schema (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n${problems.map((p) => `  - ${p.path}: ${p.message}`).join('\n')}`, { details: problems });
  }
  return { columns, indexes: (indexes as TableSchema['indexes'])!.map((ix) => ({ name: ix.name, columns: ix.columns, ...(ix.unique ? { unique: true } : {}) })) };
}

/** The column type `insert` gives a new key of a schemaless table (objects are stored as JSON text). */
export function inferType(value: unknown): ColumnType {
  if (typeof value === 'number') return Number.isInteger(value) ? 'INTEGER' : 'REAL';
  if (typeof value === 'boolean' || typeof value === 'bigint') return 'INTEGER';
  return 'TEXT';
}

function mismatch(value: unknown, column: ColumnDef, where: string): never {
  throw new WeirError('INVALID_INPUT', `${where}: column "${column.name}" is ${column.type}, got ${JSON.stringify(value)}`, {
    hints: ['a schemaless table types a column by its first value; `tables init --schema` chooses types'],
  });
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const BOOLEANS: Record<string, number> = { true: 1, false: 0, '1': 1, '0': 0, yes: 1, no: 0 };

/**
 * A value as stored in a column of the given type: numbers from numeric text, booleans as 1/0, objects as
 * JSON text. A value that cannot be one (`"abc"` for an INTEGER) is refused, naming `where`. `widen` lets an
 * INTEGER column take decimals: a schemaless table's column type is only a guess from its first value.
 * @example
 * coerce('42', { name: 'qty', type: 'INTEGER' }, 'line 3') // 42
 */
export function coerce(value: unknown, column: ColumnDef, where: string, widen = false): SqlValue {
  if (value === null || value === undefined) return null;
  // Called per cell of an import, so it makes no closures.
  switch (column.type) {
    case 'INTEGER':
      if (typeof value === 'number') return Number.isInteger(value) || (widen && Number.isFinite(value)) ? value : mismatch(value, column, where);
      if (widen && typeof value === 'string' && NUMBER.test(value.trim()) && !INTEGER.test(value.trim())) return Number(value);
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value === 'bigint') return value;
      if (typeof value === 'string' && INTEGER.test(value.trim())) {
        const n = Number(value);
        return Number.isSafeInteger(n) ? n : BigInt(value.trim());
      }
      return mismatch(value, column, where);
    case 'REAL':
    case 'NUMERIC':
      if (typeof value === 'number') return Number.isFinite(value) ? value : mismatch(value, column, where);
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value === 'string' && NUMBER.test(value.trim())) return Number(value);
      return mismatch(value, column, where);
    case 'BOOLEAN':
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value === 'number' && (value === 0 || value === 1)) return value;
      if (typeof value === 'string' && value.trim().toLowerCase() in BOOLEANS) return BOOLEANS[value.trim().toLowerCase()];
      return mismatch(value, column, where);
    default:
      if (typeof value === 'string') return value;
      if (value instanceof Uint8Array) return value;
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
