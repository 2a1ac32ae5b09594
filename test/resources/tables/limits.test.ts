import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createWeir } from '../../../src/weir.js';
import { ROOT, tmpDir } from '../../_utils.js';
import { fails, failsJson, home, ok } from '../_helpers.js';

const steps = (n: number, select = 'count(*) AS n') => `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT ${n}) SELECT ${select} FROM c`;

/** A home with the table `user.t` and `tables` settings in weir.config.json. */
async function limited(tables: Record<string, unknown>) {
  const h = home();
  writeFileSync(join(h.dir, 'weir.config.json'), JSON.stringify({ tables: { driver: 'sqlite', ...tables } }));
  ok(await h.weir('data', 'tables', 'init', 'user.t'));
  return h;
}

test('a statement past tables.timeoutMs is stopped: TIMEOUT, exit 1, within about the limit; the next one runs', async () => {
  const { weir } = await limited({ timeoutMs: 500 });
  const started = Date.now();
  failsJson(await weir('data', 'tables', 'query', 'user.t', steps(100_000_000), '--json'), 'TIMEOUT');
  const took = Date.now() - started;
  // Unbounded, the statement runs about 14 s; the CLI's own start on a busy machine takes up to a few seconds.
  assert.ok(took < 6000, `the CLI answered after ${took} ms`);
  const text = fails(await weir('data', 'tables', 'query', 'user.t', steps(100_000_000)), 'ran longer than 500 ms and was stopped');
  assert.match(text.stderr, 'tables.timeoutMs');
  assert.equal(ok(await weir('data', 'tables', 'query', 'user.t', steps(1000), '--json')).json(), [{ n: 1000 }]);
});

test('a result past the caps is refused with RESULT_TOO_LARGE naming the setting: a 400 MB blob, a million rows', async () => {
  const { weir } = await limited({});
  const blob = fails(await weir('data', 'tables', 'query', 'user.t', 'SELECT zeroblob(?) AS z', '--params', '[400000000]'), 'more than 67108864 bytes');
  assert.match(blob.stderr, 'raise tables.maxBytes');
  const started = Date.now();
  failsJson(await weir('data', 'tables', 'query', 'user.t', steps(1_000_000, 'x'), '--json'), 'RESULT_TOO_LARGE');
  assert.ok(Date.now() - started < 5000, 'refused without reading the whole result');
  fails(await weir('data', 'tables', 'query', 'user.t', steps(1_000_000, 'x')), 'more than 100000 rows; add LIMIT or raise tables.maxRows');
  // Exactly at the cap is fine.
  assert.is(ok(await weir('data', 'tables', 'query', 'user.t', steps(100_000, 'x'), '--json')).json().length, 100_000);
});

test('tables.maxRows and tables.maxBytes are configurable; bad values are INVALID_CONFIG', async () => {
  const { weir } = await limited({ maxRows: 10, maxBytes: 1000 });
  assert.is(ok(await weir('data', 'tables', 'query', 'user.t', steps(10, 'x'), '--json')).json().length, 10);
  fails(await weir('data', 'tables', 'query', 'user.t', steps(11, 'x')), 'more than 10 rows');
  fails(await weir('data', 'tables', 'query', 'user.t', 'SELECT zeroblob(1001) AS z'), 'more than 1000 bytes');
  // Writes are not results: they run whatever they change.
  assert.equal(ok(await weir('data', 'tables', 'query', 'user.t', `INSERT INTO "user.t" (id) ${steps(50, 'x')}`, '--json')).json(), { changes: 50 });
  const bad = home();
  writeFileSync(join(bad.dir, 'weir.config.json'), JSON.stringify({ tables: { driver: 'sqlite', maxRows: 0 } }));
  failsJson(await bad.weir('data', 'tables', 'list', '--json'), 'INVALID_CONFIG');
  fails(await bad.weir('data', 'tables', 'list'), 'tables.maxRows: must be 1 or more, got 0');
});

test('in memory (no home) the caps hold too, and a caller\'s shorter timeoutMs stops a statement', async () => {
  const weir = await createWeir({ config: { tables: { driver: 'sqlite', maxRows: 5 } } });
  try {
    await weir.tables.init('user.m');
    await weir.tables.query('user.m', steps(5, 'x')).then((rows) => assert.is(rows.length, 5));
    const err = await weir.tables.query('user.m', steps(6, 'x')).then(() => null, (e) => e);
    assert.is(err?.code, 'RESULT_TOO_LARGE');
    // In memory the clock is read between rows: a statement returning rows stops at the limit.
    const slow = await weir.tables.query('user.m', 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c WHERE x % 1000000 = 0 LIMIT 4', [], { timeoutMs: 50 }).then(() => null, (e) => e);
    assert.is(slow?.code, 'TIMEOUT');
  } finally {
    await weir.close();
  }
});

test('the built library (CJS, run with node -e) forks its SQL process from beside it; the host code runs once', () => {
  const dir = tmpDir();
  const code = `const { createWeir } = require(${JSON.stringify(join(ROOT, 'dist/index.cjs'))});
    (async () => { console.log('host'); const w = await createWeir({ home: ${JSON.stringify(dir)} }); await w.tables.init('user.x');
    console.log(JSON.stringify(await w.tables.query('user.x', "SELECT 1 AS one, x'ff' AS b"))); await w.close(); })();`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8', timeout: 20_000 });
  assert.is(r.stderr, '');
  assert.is(r.stdout, 'host\n[{"one":1,"b":{"type":"Buffer","data":[255]}}]\n');
});

test.run();
