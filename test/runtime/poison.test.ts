import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { createWeir } from '../../src/weir.js';
import { CLI, cli, writeJson } from '../_utils.js';
import { chain, publish, tmpDir, until } from '../host/_helpers.js';

/** Bytes of the stored object the flow reads: its base64 text alone is more than the host's 64 MB heap. */
const BIG = 60 * 1024 * 1024;

/** One life of `weir serve` under a 64 MB heap: JSON log lines as they come, and how it ended. */
function life(home: string) {
  const child = spawn(process.execPath, [CLI, '--home', home, 'serve', '--port', '0', '--log-format', 'json'], {
    env: { ...process.env, WEIR_HOME: '', WEIR_DEBUG: '', NODE_OPTIONS: '--max-old-space-size=64' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  // A host that neither crashes nor logs within a minute fails the test instead of hanging it.
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  void exited.then(() => clearTimeout(guard));
  const lines = () => out.split('\n').flatMap((l) => (l.startsWith('{') && l.endsWith('}') ? [JSON.parse(l)] : []));
  return {
    exited,
    lines,
    /** Resolves with the first log line that `match`es, or null once the process ended without one. */
    line(match: (l: any) => boolean): Promise<any> {
      return new Promise((resolve) => {
        const look = () => {
          const hit = lines().find(match);
          if (hit) resolve(hit);
          return hit;
        };
        if (look()) return;
        child.stdout.on('data', look);
        void exited.then(() => resolve(look() ?? null));
      });
    },
    output: () => out,
    url: () => lines().find((l) => l.url)?.url as string | undefined,
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: () => (child.exitCode !== null ? exited : (child.kill('SIGTERM'), exited)),
  };
}

/** A home whose published webhook flow reads the big object (answered at once, run in the background). */
async function hogHome(config: Record<string, unknown>) {
  const home = tmpDir('weir-poison-');
  writeJson(home, 'weir.config.json', config);
  const setup = await createWeir({ home });
  await setup.objects.put('big.bin', Buffer.alloc(BIG, 7), { contentType: 'application/octet-stream' });
  const c = chain('webhook_trigger', [{ type: 'storage_get', config: { key: 'big.bin' } }]);
  const { id, token } = await publish(setup, 'hog', { type: 'webhook_trigger', config: { respondImmediately: true } }, c.nodes, c.edges);
  await setup.close();
  return { home, id, token };
}

/**
 * Sends one delivery and supervises the host as systemd would: each time it dies it is started again (nothing
 * is killed by hand) until it logs the delivery's execution error or has died 6 times.
 */
async function crashLoop(home: string, token: string) {
  let host = life(home);
  const url = await until(() => host.url(), 15000, 'the first host to listen');
  const res = await fetch(`${url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.is(res.status, 200);
  const { executionId } = await res.json();
  let crashes = 0;
  for (let lives = 1; lives <= 6; lives++) {
    if (await host.line((l) => l.exec === executionId && l.msg === 'execution error')) break;
    assert.ok(/heap out of memory/.test(host.output()), `life ${lives} died of the flow's allocation (exit ${await host.exited}):\n${host.output().slice(-2000)}`);
    crashes++;
    host = life(home);
  }
  return { host, crashes, executionId: executionId as string };
}

test('a delivery that crashes the host 3 times is not replayed: its execution ends error, the host stays up', async () => {
  const { home, id, token } = await hogHome({});
  const { host, crashes, executionId } = await crashLoop(home, token);
  try {
    assert.is(crashes, 3, 'the host crashed three times, then stopped replaying the delivery');
    const line = host.lines().find((l) => l.exec === executionId && l.msg === 'execution error');
    assert.is(line.level, 'error');
    assert.is(line.flow, 'hog');
    assert.match(line.error, 'crashed the host 3 times');
    const up = await until(() => host.url(), 15000, 'the host to listen');
    assert.is((await fetch(`${up}/healthz`)).status, 200);

    const listed = await cli(['workflows', 'executions', id, '--json'], { home });
    assert.is(listed.code, 0, listed.stderr);
    const runs = listed.json<any[]>().filter((e) => e.id === executionId);
    assert.is(runs.length, 1);
    assert.is(runs[0].status, 'error');
    assert.is(runs[0].error.message, 'the delivery crashed the host 3 times and is not replayed again');
    assert.ok(host.alive(), 'the fourth host is still up');
  } finally {
    await host.stop();
  }
});

test('intake.maxCrashes sets how many crashes end the loop; a value that is not a whole number >= 1 is refused', async () => {
  const { home, token } = await hogHome({ intake: { maxCrashes: 1 } });
  const { host, crashes, executionId } = await crashLoop(home, token);
  try {
    assert.is(crashes, 1);
    const line = host.lines().find((l) => l.exec === executionId && l.msg === 'execution error');
    assert.match(line.error, 'the delivery crashed the host 1 time and is not replayed again');
  } finally {
    await host.stop();
  }
  writeJson(home, 'weir.config.json', { intake: { maxCrashes: 0 } });
  const refused = await cli(['serve', '--port', '0'], { home });
  assert.is(refused.code, 1);
  assert.match(refused.stderr, 'maxCrashes');
});

test.run();
