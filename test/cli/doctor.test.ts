// `weir doctor`, and storage that cleans up after itself: after 700 executions with waits and status polls
// have passed retention, the home holds nothing of them (counted by `weir doctor --json` and on disk).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createWeir } from '../../src/weir.js';
import { chain, publish, send, startHost, tmpDir, until } from '../host/_helpers.js';
import { cli, ROOT, startServe } from '../_utils.js';

const DAY = 86_400_000;
type Host = Awaited<ReturnType<typeof startHost>>;

/** Every file under the home: its path relative to it (`/`-separated) and its text (files that vanish meanwhile left out). */
function filesOf(home: string): Array<{ path: string; text: string }> {
  const read = (file: string) => {
    try {
      return statSync(file).isDirectory() ? walk(file) : [{ path: relative(home, file).split('\\').join('/'), text: readFileSync(file, 'latin1') }];
    } catch {
      return [];
    }
  };
  const walk = (dir: string): Array<{ path: string; text: string }> => readdirSync(dir).flatMap((name) => read(join(dir, name)));
  return walk(home);
}

const kindsOf = (report: any) => new Map<string, any>(report.kinds.map((k: any) => [`${k.place} ${k.kind}`, k]));

async function approval(host: Host, token: string) {
  const res = await send(`${host.url}/trigger/${token}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.is(res.status, 200);
  const id = res.headers.get('x-execution-id')!;
  const url = new URL(res.json.url as string);
  // The call may come before the run reaches its wait (then it is kept as an early call) or after.
  assert.is((await send(`${host.url}${url.pathname}`, { body: '{"ok":1}' })).status, 202);
  return { id, token: url.pathname.split('/').pop()! };
}

async function polled(host: Host, token: string) {
  const res = await send(`${host.url}/trigger/${token}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.is(res.status, 200);
  const status = new URL(res.json.statusUrl as string).pathname;
  // Retention here keeps 5 runs a flow and prunes as the runs go, so a run may end and be pruned before its
  // poller reads it: a 404 then is the documented answer for a pruned (so ended) run.
  await until(async () => {
    const r = await send(`${host.url}${status}`, { method: 'GET' });
    return r.status === 404 || (r.status === 200 && r.json.status === 'success');
  }, 10_000, 'the polled run to succeed');
  return { id: res.json.executionId as string, status };
}

test('after 700 executions with waits and status polls past retention, the home holds nothing of them (weir doctor and the files)', async () => {
  const home = tmpDir('weir-doctor-');
  writeFileSync(join(home, 'weir.config.json'), JSON.stringify({ executions: { maxPerWorkflow: 5 } }));
  const host = await startHost({ home });
  let serving: Awaited<ReturnType<typeof startServe>> | null = null;
  try {
    const waits = chain('webhook_trigger', [
      { type: 'respond', id: 'respond-1', config: { body: { url: '{{ $execution.resumeUrl }}' } } },
      { type: 'wait', id: 'wait-1', config: { webhook: true, timeout: '1h' } },
      { type: 'wait', id: 'wait-2', config: { for: '10ms' } },
      { type: 'set', id: 'set-1', config: { values: { done: true } } },
    ]);
    const a = await publish(host.weir, 'approvals', { type: 'webhook_trigger', config: { respondImmediately: false } }, waits.nodes, waits.edges);
    const quick = chain('webhook_trigger', [{ type: 'set', id: 'set-1', config: { values: { ok: true } } }]);
    const b = await publish(host.weir, 'polled', { type: 'webhook_trigger', config: { respondImmediately: true } }, quick.nodes, quick.edges);

    const ids = new Set<string>();
    const tokens = new Set<string>();
    const statusUrls: string[] = [];
    // 140 runs through a webhook wait and a timed wait, 560 answered at once and polled, 100 at a time: more
    // than the 2 x (256 + 50) records the check below allows, so a home not pruned as it runs fails it.
    for (let round = 0; round < 7; round++) {
      const started = await Promise.all(Array.from({ length: 100 }, (_, i) => (i < 20 ? approval(host, a.token) : polled(host, b.token))));
      for (const s of started) {
        ids.add(s.id);
        if ('token' in s) tokens.add(s.token);
        else statusUrls.push(s.status);
      }
    }
    assert.is(ids.size, 700);
    const ended = async () => (await host.weir.executions.open.list()).length === 0 && (await host.weir.executions.list({ workflowId: a.id, limit: 1 }))[0]?.status === 'success';
    await until(ended, 20_000, 'every approval to end');

    // While retention holds them, the busy workflows are pruned as they run, not once a minute.
    const during = await cli(['doctor', '--json'], { home });
    assert.is(during.code, 0, during.stderr);
    const batches = kindsOf(during.json()).get('cloud execution batches');
    assert.ok(batches.records <= 2 * (256 + 50), `${batches.records} records kept`);

    // Past retention: five later runs of each flow are what maxPerWorkflow keeps.
    for (let i = 0; i < 5; i++) await Promise.all([approval(host, a.token), polled(host, b.token)]);
    await until(ended, 10_000, 'the later approvals to end');
    await host.weir.executions.prune(a.id);
    await host.weir.executions.prune(b.id);
    assert.is((await send(`${host.url}${statusUrls[0]}`, { method: 'GET' })).status, 404, "a pruned execution's status URL answers 404");
    await host.close();

    // Two hours on (a host whose clock runs ahead): wait notes (a minute) and claims (an hour) are past their
    // time, and go on a host that has nothing else to do but one more approval.
    const shifted = { NODE_OPTIONS: `--import ${join(ROOT, 'test/fixtures/shift-clock.mjs')}`, WEIR_TEST_CLOCK_SHIFT_MS: String(2 * 3_600_000) };
    serving = await startServe(home, ['--quiet'], shifted);
    await approval({ url: serving.url } as Host, a.token);
    // The intake journal is a write-ahead log bounded by size (a segment rotates at 8 MiB and goes once its
    // deliveries finished): its current segment still holds the latest deliveries, and is checked by size.
    const holds = (text: string) => [...ids].some((id) => text.includes(id)) || [...tokens].some((t) => text.includes(t));
    const left = () => filesOf(home).filter((f) => !f.path.startsWith('journal/') && (holds(f.path) || holds(f.text)));
    await until(() => !left().length, 10_000, 'nothing of the 700 executions on disk').catch(() => {
      const left = filesOf(home).filter((f) => !f.path.startsWith('journal/') && (holds(f.path) || holds(f.text))).map((f) => f.path);
      assert.unreachable(`files still holding the pruned executions (${left.length}):\n${left.slice(0, 20).join('\n')}`);
    });
    assert.is(await serving.stop(), 0);
    serving = null;

    const report = await cli(['doctor', '--json'], { home });
    assert.is(report.code, 0, report.stderr);
    const kinds = kindsOf(report.json());
    const count = (kind: string) => kinds.get(`cloud ${kind}`)?.count ?? 0;
    const records = kinds.get('cloud execution batches').records;
    assert.ok(records >= 10 && records <= 11, `the later runs are all the batches hold: ${records}`);
    const approvals = records - 5;
    assert.is(count('wait tokens'), approvals, 'a token per kept approval');
    assert.is(count('ended markers'), approvals);
    assert.is(count('wait links'), 2 * approvals);
    assert.is(count('early calls'), 0);
    assert.is(count('open executions'), 0);
    assert.is(count('wait wakes'), 0);
    // The sixth approval (the one run on the later host) is beyond maxPerWorkflow. Retention removes whole
    // batches, so its next prune takes it unless it shares a batch with a later record (how records batch
    // depends on timing): what doctor counts as removable is what the next prunes remove.
    const removable = kinds.get('cloud execution batches').removable.records ?? 0;
    assert.ok(removable <= approvals - 5, `${removable} records removable`);
    const weir = await createWeir({ home });
    try {
      assert.is((await weir.executions.prune(a.id)) + (await weir.executions.prune(b.id)), removable, 'what retention removes next');
    } finally {
      await weir.close();
    }
    assert.ok(kinds.get('home journal').bytes < 9 * 1024 * 1024, 'the journal within a segment');
  } finally {
    await serving?.stop();
    await host.close().catch(() => {});
  }
});

test.run();
