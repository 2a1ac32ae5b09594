import { WeirError } from '../../errors.js';

/**
 * A PostgreSQL error as the user should read it, in the same codes the SQLite engine uses: unique violations
 * CONFLICT, a missing table NOT_FOUND (with the quoting hint), statement and value problems INVALID_INPUT with
 * PostgreSQL's own words, an unreachable server UNAVAILABLE.
 * @example
 * pgError({ code: '42P01', message: 'relation "orders" does not exist' }).code // 'NOT_FOUND'
 */
export function pgError(err: unknown): WeirError {
  if (err instanceof WeirError) return err;
  const { code = '', message = String(err) } = err as { code?: string; message?: string };
  if (code === '23505') return new WeirError('CONFLICT', message, { cause: err });
  if (code === '42P01') {
    return new WeirError('NOT_FOUND', `SQL error: ${message}`, {
      cause: err,
      hints: ['dotted table names go in double quotes: SELECT * FROM "user.orders"', 'run `weir data tables list` to see table names'],
    });
  }
  // `user.orders` unquoted is a syntax error in PostgreSQL (USER is a keyword), or a missing schema.
  if (code === '3F000' || (code === '42601' && /near "\."/.test(message))) return new WeirError('INVALID_INPUT', `SQL error: ${message}`, { cause: err, hints: ['dotted table names go in double quotes: SELECT * FROM "user.orders"'] });
  if (/^(08|57P)/.test(code) || /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|Connection terminated|timeout exceeded when trying to connect/i.test(message)) {
    return new WeirError('UNAVAILABLE', `the tables database (PostgreSQL) is unreachable: ${message}`, { cause: err });
  }
  if (code === '28P01' || code === '28000') return new WeirError('INVALID_CONFIG', `tables.url: PostgreSQL refused the login: ${message}`, { cause: err });
  if (/^(22|23|42|2F|0A|21)/.test(code)) return new WeirError('INVALID_INPUT', `SQL error: ${message}`, { cause: err });
  if (err instanceof RangeError || err instanceof TypeError) return new WeirError('INVALID_INPUT', `SQL parameters: ${message}`, { cause: err });
  return new WeirError('STORAGE', `tables database: ${message}`, { cause: err });
}
