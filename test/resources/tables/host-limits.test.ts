import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { createWeir } from '../../../src/weir.js';
import { writeJson } from '../../_utils.js';
import { assertResponsive, chain, publish, send, startServe, tmpDir } from '../../host/_helpers.js';

const CTE = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 20000000) SELECT count(*) AS n FROM c';

/** The resident memory of a process, in MB. */
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** A home with a table and three webhook flows: a slow statement (timeoutMs 1,000), a blob of the asked size, and many rows. */
async function sqlHome() {
  const home = tmpDir('weir-sql-');
  // exposeErrors: the webhook answer carries the node's error (its code and message), not "the flow failed".
  writeJson(home, 'weir.config.json', { webhook: { exposeErrors: true } });
  const weir = await createWeir({ home });
  const tokens: Record<string, string> = {};
  try {
    await weir.tables.init('user.t');
    const flows: Record<string, Record<string, unknown>> = {
      slow: { table: 'user.t', sql: CTE, timeoutMs: 1000 },
      blob: { table: 'user.t', sql: 'SELECT zeroblob(?) AS z', params: ['{{ $input.body.n }}'] },
      rows: { table: 'user.t', sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000) SELECT x, printf(\'row %08d\', x) AS label FROM c' },
    };
    for (const [name, config] of Object.entries(flows)) {
      const c = chain('webhook_trigger', [{ type: 'table_query', config }, { type: 'respond', config: { status: 200, body: { ok: true } } }]);
      tokens[name] = (await publish(weir, name, { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges)).token!;
    }
  } finally {
    await weir.close();
  }
  return { home, tokens };
}

test('weir serve: a slow statement stops at the node timeoutMs with TIMEOUT while /healthz keeps answering', async () => {
  const { home, tokens } = await sqlHome();
  const s = await startServe(home);
  try {
    // Warm: the SQL process is forked on first use.
    assert.is((await send(`${s.url}/trigger/${tokens.blob}`, { body: '{"n":1}', headers: { 'content-type': 'application/json' } })).status, 200);
    const started = Date.now();
    let running = true;
    const slow = send(`${s.url}/trigger/${tokens.slow}`, { body: '{}', headers: { 'content-type': 'application/json' } }).finally(() => (running = false));
    const waits: number[] = [];
    while (running) {
      const t = Date.now();
      assert.is((await send(`${s.url}/healthz`, { method: 'GET' })).status, 200);
      waits.push(Date.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    const answer = await slow;
    const took = Date.now() - started;
    assert.is(answer.json?.error?.code, 'TIMEOUT', answer.text);
    assert.ok(took < 2000, `the statement was stopped after ${took} ms`);
    assert.ok(waits.length >= 10, `${waits.length} health checks while the statement ran`);
    assertResponsive(waits, 1000);
    // The next statement gets a fresh SQL process.
    assert.is((await send(`${s.url}/trigger/${tokens.blob}`, { body: '{"n":1}', headers: { 'content-type': 'application/json' } })).status, 200);
  } finally {
    await s.stop();
  }
});

test('weir serve: a 400 MB blob and a million rows are refused (RESULT_TOO_LARGE); the host stays up and its memory flat', async () => {
  const { home, tokens } = await sqlHome();
  const s = await startServe(home);
  try {
    const post = (token: string, body: unknown) => send(`${s.url}/trigger/${token}`, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    assert.is((await post(tokens.blob, { n: 1 })).status, 200);
    const before = rssMb(s.child.pid!);
    const blob = await post(tokens.blob, { n: 400_000_000 });
    assert.is(blob.json?.error?.code, 'RESULT_TOO_LARGE', blob.text);
    assert.match(blob.json.error.message, 'tables.maxBytes');
    const rows = await post(tokens.rows, {});
    assert.is(rows.json?.error?.code, 'RESULT_TOO_LARGE', rows.text);
    assert.match(rows.json.error.message, 'more than 100000 rows; add LIMIT or raise tables.maxRows');
    const grown = rssMb(s.child.pid!) - before;
    assert.ok(grown < 50, `the host grew by ${grown.toFixed(1)} MB`);
    assert.is((await send(`${s.url}/healthz`, { method: 'GET' })).status, 200);
  } finally {
    await s.stop();
  }
});

test.run();
