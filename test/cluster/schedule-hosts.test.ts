// Several hosts on one home share its schedules: every fire time of every flow runs exactly once.
import { readdirSync, utimesSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileClaims } from '../../src/cluster/file-claims.js';
import { claimDir, createClaim } from '../../src/cluster/claims.js';
import { createScheduler } from '../../src/triggers/schedule/scheduler.js';
import { createWeir } from '../../src/weir.js';
import { ROOT } from '../_utils.js';
import { chain, fakeClock, publish, startServe, tmpDir, until } from '../host/_helpers.js';

/** Lets the runs of answered claims start (they follow the claim by a few promise steps). */
const settled = () => new Promise((r) => setImmediate(r));
const everyMinute = { type: 'schedule_trigger', config: { scheduleType: 'cron', cronExpression: '* * * * *' } };

test('two schedulers on one home (fs claims): each fire time of each flow runs once; a host that dies blocks nothing', async () => {
  const home = tmpDir('weir-sched-hosts-');
  const a = await createWeir({ home });
  const b = await createWeir({ home });
  const ids: string[] = [];
  for (const name of ['one', 'two', 'three']) ids.push((await publish(a, name, everyMinute)).id);
  // Half a minute past a real minute: fire times are recent, as the sweep of old claims (real time) expects.
  const start = Math.ceil(Date.now() / 60_000) * 60_000 + 30_000;
  const clock = fakeClock(new Date(start).toISOString());
  const runs = new Map<string, string[]>();
  let decided = 0;
  const scheduler = (weir: typeof a, host: string) => {
    const claim = createClaim(weir, 'schedule')!;
    return createScheduler({
      storage: weir.storage,
      bus: weir.bus,
      workflows: weir.workflows,
      clock,
      claim: (id, at) => claim(id, at).finally(() => decided++),
      fire: async (flow, input) => {
        const key = `${flow.name} ${input.triggeredAt}`;
        runs.set(key, [...(runs.get(key) ?? []), host]);
      },
    });
  };
  const [sa, sb] = [scheduler(a, 'a'), scheduler(b, 'b')];
  await Promise.all([sa.sync(), sb.sync()]);
  for (let minute = 1; minute <= 6; minute++) {
    await clock.advance(60_000);
    // Both hosts ask for every fire time; once all claims are answered, the runs of the minute are known.
    await until(() => decided === minute * 2 * ids.length, 5000, `claims of minute ${minute}`);
    await settled();
  }
  assert.is(runs.size, 6 * ids.length);
  for (const [slot, hosts] of runs) assert.is(hosts.length, 1, `${slot} ran on ${hosts.join(', ')}`);
  assert.is(readdirSync(claimDir(home)).length, 6 * ids.length, 'one claim file per flow and fire time');
  // Host a stops without a word (as a killed process would): host b runs every later fire time by itself.
  sa.stop();
  await clock.advance(3 * 60_000);
  await until(() => decided === 6 * 2 * ids.length + 3 * ids.length, 5000, 'claims of host b alone');
  await settled();
  assert.is(runs.size, 9 * ids.length);
  const late = [...runs].filter(([slot]) => Date.parse(slot.split(' ')[1]) > start + 6 * 60_000);
  assert.equal(late.map(([, hosts]) => hosts.join()), Array(3 * ids.length).fill('b'));
  sb.stop();
  await Promise.all([a.close(), b.close()]);
});

test('claims on files: one winner per time; old claims are swept, an old time claimed lately stays', async () => {
  const dir = join(tmpDir('weir-claims-'), 'claims');
  const start = Date.now();
  let now = start;
  const claim = fileClaims({ dir, ttlMs: 60_000, now: () => now });
  const old = start - 2 * 60 * 60_000;
  assert.is(await claim('wf/late', old), true, 'the folder is made on first use');
  assert.is(await claim('wf/late', old), false);
  assert.is(await claim('wf_gone', old - 60_000), true);
  utimesSync(join(dir, `${old - 60_000}-wf_gone`), new Date(old), new Date(old));
  now = start + 30_000;
  assert.is(await claim('wf_now', now), true);
  await until(() => !readdirSync(dir).includes(`${old - 60_000}-wf_gone`), 5000, 'the sweep');
  assert.equal(readdirSync(dir).sort(), [`${now}-wf_now`, `${old}-wf%2Flate`].sort());
  assert.is(await claim('wf/late', old), false, 'a swept-around claim still holds its time');
});

test('two `weir serve` processes on one home fire each schedule fire time once, and say how they share them', async () => {
  const home = tmpDir('weir-sched-serve-');
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      hits.set(body, (hits.get(body) ?? 0) + 1);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hit`;
  const weir = await createWeir({ home });
  const flows = ['one', 'two', 'three', 'four'];
  for (const name of flows) {
    const c = chain('schedule_trigger', [{ type: 'http_request', config: { method: 'POST', url: target, body: `${name} {{ $input.triggeredAt }}` } }]);
    await publish(weir, name, everyMinute, c.nodes, c.edges);
  }
  await weir.close();

  // The hosts' wall clock is shifted so that a minute boundary falls 8 s from now: both are up by then.
  const boundary = Date.now() + 8000;
  const shift = Math.ceil(boundary / 60_000) * 60_000 - boundary;
  const env = { NODE_OPTIONS: `--import ${pathToFileURL(join(ROOT, 'test/fixtures/shift-clock.mjs')).href}`, WEIR_TEST_CLOCK_SHIFT_MS: String(shift) };
  const first = await startServe(home, [], env);
  const second = await startServe(home, [], env);
  try {
    assert.ok(Date.now() < boundary - 500, 'both hosts listen before the fire time');
    await until(() => first.output().includes('fire times are claimed'), 5000, 'the first host to say how it shares its schedules');
    assert.match(first.output(), `fire times are claimed in ${claimDir(home)}, so each runs once across the weir serve processes on this home`);
    await until(() => second.output().includes(`another weir serve (pid ${first.child.pid}`), 5000, 'the second host to name the first');
    await until(() => hits.size === flows.length, 15_000, 'a run of every flow');
    // A second run of a fire time would come within milliseconds (both hosts arm the same instant); allow ample time.
    await new Promise((r) => setTimeout(r, 1500));
    const slot = new Date(boundary + shift).toISOString();
    assert.equal(
      [...hits].sort(),
      flows.map((name) => [`${name} ${slot}`, 1]).sort(),
    );
  } finally {
    await Promise.all([first.stop(), second.stop()]);
    server.close();
  }
});

test.run();
