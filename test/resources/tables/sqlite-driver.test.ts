import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cli, ROOT, writeJson } from '../../_utils.js';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../../src/resources/tables/limits.js';
import { createSqliteEngine } from '../../../src/resources/tables/sqlite.js';
import { loadSqliteDriver } from '../../../src/resources/tables/sqlite-driver.js';
import { fails, failsJson, home, ok } from '../_helpers.js';

const [major, minor] = process.versions.node.split('.').map(Number);
// node:sqlite with StatementSync#columns: Node 22.16 and later, 23.11 and later.
const hasBuiltin = major > 23 || (major === 23 && minor >= 11) || (major === 22 && minor >= 16);
// The addon in node_modules is built for one Node version; on another it does not load.
const betterLoads = spawnSync(process.execPath, ['-e', "require('better-sqlite3')(':memory:').close()"], { cwd: ROOT }).status === 0;
const DRIVERS = [
  { name: 'node', available: hasBuiltin, why: /tables.sqlite is "node", but node:sqlite is not available on Node v\d+.*\nhint: remove tables.sqlite/ },
  { name: 'better-sqlite3', available: betterLoads, why: /better-sqlite3 does not load on Node v\d+.*\nhint: run `npm rebuild better-sqlite3`/s },
] as const;

test('node:sqlite is the engine where Node has it, better-sqlite3 elsewhere; no ExperimentalWarning shows', async () => {
  const driver = await loadSqliteDriver();
  assert.is(driver.name, hasBuiltin ? 'node' : 'better-sqlite3');
  const { weir } = home();
  const made = await weir('data', 'tables', 'init', 'user.t');
  ok(made);
  assert.is(made.stderr, '');
});

test('each driver this Node can load gives the same values in memory and through the SQL process: BLOBs as Buffers, integers, named and positional params, errors', async () => {
  for (const { name: driver, available } of DRIVERS) {
    if (!available) continue;
    for (const file of [':memory:', join(home().dir, 'tables.sqlite')]) {
      const name = `${driver} ${file}`;
      const engine = createSqliteEngine({ file, driver });
      const run = (sql: string, params: unknown[] | Record<string, unknown> = []) => engine.execute(sql, params, () => {}, [], { limits: DEFAULT_LIMITS });
      try {
        const { rows, columns } = await run('SELECT ? AS b, ? AS big, NULL AS n, 1.5 AS f', [Buffer.from('hi'), 2n ** 40n]);
        assert.ok(Buffer.isBuffer(rows[0].b), name);
        assert.equal({ ...rows[0], b: String(rows[0].b) }, { b: 'hi', big: 2 ** 40, n: null, f: 1.5 }, name);
        assert.equal(columns, ['b', 'big', 'n', 'f'], name);
        // Past 2^53 an integer reads as the nearest number, as it always did, rather than failing the query.
        assert.equal((await run('SELECT 9007199254740993 AS n')).rows, [{ n: 2 ** 53 }], name);
        assert.equal((await run('SELECT :a AS a, $b AS b, :a AS again', { a: 7, b: 8, unused: 1 })).rows, [{ a: 7, b: 8, again: 7 }], name);
        assert.equal((await run('SELECT 1 AS one WHERE 0')).columns, ['one'], name);
        const errors = await Promise.all(['SELECT ?', 'SELECT :a', 'SELECT 1; SELECT 2', '  -- nothing'].map((sql) => run(sql, sql.includes(':') ? {} : []).then(() => null, (err) => err.message)));
        assert.equal(errors, ['SQL parameters: Too few parameter values were provided', 'SQL parameters: Missing named parameter "a"', 'SQL error: The supplied SQL string contains more than one statement', 'SQL error: The supplied SQL string contains no statements'], name);
      } finally {
        await engine.close();
      }
    }
  }
});

test('tables.sqlite in weir.config.json picks a driver: the tables work the same, or the CLI says why the driver cannot load', async () => {
  for (const { name, available, why } of DRIVERS) {
    const { dir } = home();
    writeJson(dir, 'weir.config.json', { tables: { sqlite: name } });
    const weir = (...args: string[]) => cli(args, { home: dir });
    const init = await weir('data', 'tables', 'init', 'user.t');
    if (!available) {
      fails(init, why, name);
      continue;
    }
    ok(init, name);
    ok(await weir('data', 'tables', 'insert', 'user.t', '{"id":"a","n":1}'), name);
    failsJson(await weir('data', 'tables', 'insert', 'user.t', '{"id":"a","n":2}', '--json'), 'CONFLICT', name);
    const rows = ok(await weir('data', 'tables', 'query', 'user.t', 'SELECT id, n FROM "user.t" WHERE n = ?', '--params', '[1]', '--json'), name).json();
    assert.equal(rows, [{ id: 'a', n: 1 }], name);
  }
});

test('an unknown tables.sqlite is a configuration error naming the key', async () => {
  const { dir } = home();
  writeJson(dir, 'weir.config.json', { tables: { sqlite: 'sqlite3' } });
  const r = await cli(['data', 'tables', 'init', 'user.t', '--json'], { home: dir });
  failsJson(r, 'INVALID_CONFIG');
  assert.match(r.stderr, 'tables.sqlite');
  assert.match(r.stderr, 'better-sqlite3');
});

test.run();
