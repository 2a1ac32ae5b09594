import { WeirError } from '../../errors.js';

/**
 * A SQLite error as the user should read it: syntax and type problems are INVALID_INPUT (exit 1) with SQLite's
 * own words, unique violations CONFLICT, a locked database UNAVAILABLE.
 * @example
 * try { db.prepare('selec 1') } catch (err) { throw sqlError(err) } // "SQL error: near "selec": syntax error"
 */
export function sqlError(err: unknown): WeirError {
  if (err instanceof WeirError) return err;
  const { code = '', message = String(err) } = err as { code?: string; message?: string };
  if (err instanceof RangeError || err instanceof TypeError) {
    // better-sqlite3 reports "more than one statement" / "no statements" as RangeErrors too.
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
