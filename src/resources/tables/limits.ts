import type { WeirConfig } from '../../config.js';
import { WeirError } from '../../errors.js';
import type { QueryLimits, Row } from './types.js';

/** Per call: the time limit in place of `tables.timeoutMs`, a shorter one, and a signal that stops the statement. */
export interface QueryOptions {
  /** Shortens the time limit (a node's `timeoutMs`): a flow may not run a statement longer than the home allows. */
  timeoutMs?: number;
  /** Replaces `tables.timeoutMs`, longer or shorter: the operator's own statement (`weir data tables query --timeout`). */
  limitMs?: number;
  signal?: AbortSignal;
}

export const DEFAULT_LIMITS: QueryLimits = { maxRows: 100_000, maxBytes: 64 * 1024 * 1024, timeoutMs: 30_000 };

const SETTING: Record<keyof QueryLimits, string> = { maxRows: 'tables.maxRows', maxBytes: 'tables.maxBytes', timeoutMs: 'tables.timeoutMs' };

/**
 * The limits `weir.config.json` sets for user statements (`tables.maxRows`, `tables.maxBytes`, `tables.timeoutMs`),
 * defaults where unset.
 * @example
 * queryLimits({ tables: { driver: 'sqlite', maxRows: 500 } }) // { maxRows: 500, maxBytes: 67108864, timeoutMs: 30000 }
 */
export function queryLimits(config: WeirConfig): QueryLimits {
  const spec = (config.tables ?? {}) as Record<string, unknown>;
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(SETTING) as Array<keyof QueryLimits>) {
    const v = spec[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new WeirError('INVALID_CONFIG', `${SETTING[key]} must be a whole number >= 1, got ${JSON.stringify(v)}`);
    out[key] = v;
  }
  return out;
}

/** The limits of one call: the configured ones (the time limit replaced by `limitMs`), with the call's own time limit when it is shorter. */
export function callLimits(limits: QueryLimits, options: QueryOptions = {}): QueryLimits {
  const { limitMs, timeoutMs: t } = options;
  const base = typeof limitMs === 'number' && limitMs > 0 ? { ...limits, timeoutMs: limitMs } : limits;
  return typeof t === 'number' && t > 0 && t < base.timeoutMs ? { ...base, timeoutMs: t } : base;
}

/**
 * The error of a statement stopped at its time limit.
 * @example
 * throw queryTimeout(500)
 */
export function queryTimeout(ms: number): WeirError {
  return new WeirError('TIMEOUT', `the SQL statement ran longer than ${ms} ms and was stopped`, {
    hints: ['make the query cheaper (an index, a narrower WHERE), or raise tables.timeoutMs in weir.config.json (or the node\'s timeoutMs, or the CLI\'s --timeout)'],
  });
}

const tooLarge = (what: string, fix: string) => new WeirError('RESULT_TOO_LARGE', `the SQL result has more than ${what}; ${fix} in weir.config.json`);

/** The size a value adds to a result: text and BLOBs by their bytes, anything else as 8. */
const valueBytes = (v: unknown): number => (typeof v === 'string' ? Buffer.byteLength(v) : v instanceof Uint8Array ? v.byteLength : 8);

/**
 * Counts rows and bytes as a result is read, throwing RESULT_TOO_LARGE as soon as either cap is passed, so no
 * more than the caps is ever held.
 * @example
 * const cap = resultCap(limits); for (const row of stmt.iterate()) cap.add(row)
 */
export function resultCap({ maxRows, maxBytes }: Pick<QueryLimits, 'maxRows' | 'maxBytes'>) {
  let rows = 0;
  let bytes = 0;
  return {
    add(row: Row): void {
      if (++rows > maxRows) throw tooLarge(`${maxRows} rows`, `add LIMIT or raise ${SETTING.maxRows}`);
      for (const k in row) bytes += valueBytes(row[k]);
      if (bytes > maxBytes) throw tooLarge(`${maxBytes} bytes`, `add LIMIT, select fewer or smaller columns, or raise ${SETTING.maxBytes}`);
    },
  };
}
