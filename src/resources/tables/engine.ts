import { join, resolve } from 'node:path';
import type { WeirConfig } from '../../config.js';
import { WeirError } from '../../errors.js';
import { createPostgresEngine } from './postgres.js';
import { createSqliteEngine } from './sqlite.js';
import type { TableEngine } from './types.js';

/** The file of the embedded SQLite database, under the home. */
export const SQLITE_FILE = 'tables.sqlite';

/**
 * The engine named by `weir.config.json` `tables.driver` (default `sqlite`: `<home>/tables.sqlite`, or
 * in memory without a home; `tables.file` may name another file, relative to the home).
 * @example
 * const engine = openEngine({ home: '/srv/weir', config: {} })
 */
export function openEngine({ home, config }: { home?: string; config: WeirConfig }): TableEngine {
  const spec = config.tables ?? { driver: 'sqlite' };
  if (spec.driver === 'sqlite' || spec.driver === undefined) {
    const file = spec.file !== undefined ? resolve(home ?? '.', spec.file) : home ? join(home, SQLITE_FILE) : ':memory:';
    return createSqliteEngine({ file, driver: spec.sqlite });
  }
  if (spec.driver === 'postgres') {
    if (typeof spec.url !== 'string' || !spec.url) throw new WeirError('INVALID_CONFIG', 'tables.url must name the PostgreSQL server (postgres://user@host:5432/db)');
    return createPostgresEngine({ url: spec.url, schema: spec.schema, poolSize: spec.poolSize });
  }
  throw new WeirError('INVALID_CONFIG', `tables.driver ${JSON.stringify(spec.driver)} is not available`, { hints: ['use "sqlite" (the embedded default) or "postgres"'] });
}
