import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../../_utils.js';
import { chain, homeWith, publish, send, startServe, until } from '../../host/_helpers.js';
import { fails, failsJson, home, ok } from '../_helpers.js';

// Never ends on its own: counting an endless recursion returns no row until it is done.
const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c';

/** A process's state letter, parent pid and CPU time in clock ticks, from /proc; undefined once it is gone. */
function stat(pid: number): { state: string; ppid: number; cpu: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The fields after the command name, which sits in parentheses and may hold spaces.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: f[0], ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]) };
}

/** The SQL process `parent` forked, once it has spent `ticks` of CPU (it is running the statement by then). */
function busySqlChild(parent: number, ticks = 30): Promise<number> {
  return until(() => {
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!pid || stat(pid)?.ppid !== parent) continue;
      const cmd = (() => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        } catch {
          return '';
        }
      })();
      if (cmd.includes('sqlite-child') && stat(pid)!.cpu >= ticks) return pid;
    }
    return false;
  }, 15_000, `a busy SQL process of ${parent}`);
}

/** Kills `parent` with SIGKILL and asserts its SQL process `child` has ended within 2 s (gone, or a zombie waiting for init). */
async function killAndExpectEnded(parent: { kill(signal: NodeJS.Signals): boolean }, child: number): Promise<void> {
  parent.kill('SIGKILL');
  const killed = Date.now();
  const ended = await until(() => {
    const s = stat(child);
    return !s || s.state === 'Z' || (Date.now() - killed > 2000 && s);
  }, 5000, 'the SQL process to end');
  assert.ok(ended === true || (ended as { state: string }).state === 'Z', `the SQL process ${child} still runs 2 s after its parent was killed: ${JSON.stringify(ended)}`);
}

test('a CLI killed with SIGKILL in the middle of an endless query leaves no SQL process behind', async () => {
  const h = home();
  ok(await h.weir('data', 'tables', 'init', 'user.t'));
  const c = spawn(process.execPath, [CLI, '--home', h.dir, 'data', 'tables', 'query', 'user.t', ENDLESS], { stdio: 'ignore', env: { ...process.env, WEIR_HOME: '' } });
  try {
    const sql = await busySqlChild(c.pid!);
    await killAndExpectEnded(c, sql);
  } finally {
    c.kill('SIGKILL');
  }
});

test('a weir serve host killed with SIGKILL while its flow runs an endless query leaves no SQL process behind', async () => {
  let token = '';
  const dir = await homeWith(async (weir) => {
    await weir.tables.init('user.t');
    const c = chain('webhook_trigger', [{ type: 'table_query', config: { table: 'user.t', sql: ENDLESS } }]);
    token = (await publish(weir, 'endless', { type: 'webhook_trigger' }, c.nodes, c.edges)).token!;
  });
  const s = await startServe(dir);
  try {
    const answered = send(`${s.url}/trigger/${token}`, { body: '{}', headers: { 'content-type': 'application/json' } }).catch(() => null);
    const sql = await busySqlChild(s.child.pid!);
    await killAndExpectEnded(s.child, sql);
    await answered;
  } finally {
    await s.stop('SIGKILL');
    // A SQL process left behind holds the host's stderr open: let go of it, so this test fails rather than hangs.
    s.child.stdout!.destroy();
    s.child.stderr!.destroy();
  }
});

test('the CLI query stops at tables.timeoutMs with TIMEOUT; --timeout sets the limit longer or shorter', async () => {
  const h = home();
  writeFileSync(join(h.dir, 'weir.config.json'), JSON.stringify({ tables: { driver: 'sqlite', timeoutMs: 300 } }));
  ok(await h.weir('data', 'tables', 'init', 'user.t'));
  const timed = async (...flags: string[]) => {
    const started = Date.now();
    const r = await h.weir('data', 'tables', 'query', 'user.t', ENDLESS, ...flags);
    return { r, took: Date.now() - started };
  };
  const byConfig = await timed();
  fails(byConfig.r, 'ran longer than 300 ms and was stopped');
  assert.match(byConfig.r.stderr, '--timeout');
  const longer = await timed('--timeout', '900');
  fails(longer.r, 'ran longer than 900 ms and was stopped');
  assert.ok(longer.took >= 900, `stopped after ${longer.took} ms, before its --timeout of 900`);
  const shorter = await timed('--timeout', '100', '--json');
  failsJson(shorter.r, 'TIMEOUT');
  assert.match(JSON.parse(shorter.r.stderr).error.message, 'longer than 100 ms');
  const bad = await h.weir('data', 'tables', 'query', 'user.t', 'SELECT 1', '--timeout', '0');
  assert.is(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, '--timeout must be a whole number of milliseconds');
});

test.run();
