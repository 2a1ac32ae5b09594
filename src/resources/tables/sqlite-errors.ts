import { WeirError } from '../../errors.js';

// SQLite's primary result codes by number, and the extended constraint codes told apart below.
const PRIMARY: Record<number, string> = { 1: 'SQLITE_ERROR', 5: 'SQLITE_BUSY', 6: 'SQLITE_LOCKED', 18: 'SQLITE_TOOBIG', 19: 'SQLITE_CONSTRAINT', 20: 'SQLITE_MISMATCH', 25: 'SQLITE_RANGE' };
const EXTENDED: Record<number, string> = { 1555: 'SQLITE_CONSTRAINT_PRIMARYKEY', 2067: 'SQLITE_CONSTRAINT_UNIQUE' };

/** The SQLite code by name: better-sqlite3 gives it as `code`, node:sqlite as the number `errcode`. */
function codeOf(err: { code?: string; errcode?: number }): string {
  if (err.code !== 'ERR_SQLITE_ERROR' || typeof err.errcode !== 'number') return err.code ?? '';
  return EXTENDED[err.errcode] ?? PRIMARY[err.errcode & 0xff] ?? 'SQLITE_UNKNOWN';
}

/**
 * A SQLite error as the user should read it: syntax and type problems are INVALID_INPUT (exit 1) with SQLite's
 * own words, unique violations CONFLICT, a locked database UNAVAILABLE.
 * @example
 * try { db.prepare('selec 1') } catch (err) { throw sqlError(err) } // "SQL error: near "selec": syntax error"
 */
export function sqlError(err: unknown): WeirError {
  if (err instanceof WeirError) return err;
  const { message = String(err) } = err as { message?: string };
  const code = codeOf(err as { code?: string; errcode?: number });
  if (err instanceof RangeError || err instanceof TypeError) {
    // Both drivers report "more than one statement" / "no statements" as RangeErrors too.
    return new WeirError('INVALID_INPUT', `${/statement/.test(message) ? 'SQL error' : 'SQL parameters'}: ${message}`, { cause: err });
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_BUSY_')) {
    return new WeirError('UNAVAILABLE', 'the tables database is busy (another process is writing); try again', { cause: err });
  }
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new WeirError('CONFLICT', message, { cause: err });
  if (code.startsWith('SQLITE_CONSTRAINT')) return new WeirError('INVALID_INPUT', message, { cause: err });
  const table = /^no such table: (.+)$/.exec(message)?.[1];
  if (table) {
    return new WeirError('NOT_FOUND', `SQL error: no such table: ${table}`, {
      cause: err,
      hints: ['dotted table names go in double quotes: SELECT * FROM "user.orders"', 'run `weir data tables list` to see table names'],
    });
  }
  if (/^unknown database /.test(message)) {
    return new WeirError('INVALID_INPUT', `SQL error: ${message}`, { cause: err, hints: ['dotted table names go in double quotes: SELECT * FROM "user.orders"'] });
  }
  if (code === 'SQLITE_ERROR' || code === 'SQLITE_MISMATCH' || code === 'SQLITE_RANGE' || code === 'SQLITE_TOOBIG') {
    return new WeirError('INVALID_INPUT', `SQL error: ${message}`, { cause: err });
  }
  return new WeirError('STORAGE', `tables database: ${message}`, { cause: err });
}
