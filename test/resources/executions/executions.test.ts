import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWeir, WeirError } from '../../../src/index.js';
import { tmpDir } from '../../_utils.js';
import { chain, memoryWeir, runConfig } from '../../flow/_flows.js';

/** Every file under a directory, as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path, 'utf8')];
  });
}

test('every run is recorded; listing is newest first per workflow; get returns node records', async () => {
  const home = tmpDir();
  const weir = await createWeir({ home, env: {} });
  const { id } = await weir.workflows.create('recorded');
  await weir.workflows.save(id, chain([{ id: 'set-1', type: 'set', config: { values: { n: '{{ $input.n }}' } } }]));
  const ids: string[] = [];
  for (let n = 0; n < 3; n++) {
    ids.push((await weir.run(id, { n })).id);
    await new Promise((r) => setTimeout(r, 3));
  }
  const other = await weir.workflows.create('other');
  await weir.run(other.id, {});
  const list = await weir.executions.list({ workflowId: id });
  assert.equal(list.map((r) => r.id), [...ids].reverse());
  assert.equal(list.map((r) => r.status), ['success', 'success', 'success']);
  assert.is((await weir.executions.list({ workflowId: id, limit: 2 })).length, 2);
  assert.is((await weir.executions.list()).length, 4);
  const one = await weir.executions.get(ids[1]);
  assert.is(one.workflowName, 'recorded');
  assert.is(one.trigger, 'manual');
  assert.equal(one.input, { n: 1 });
  assert.equal(one.nodes['set-1'].data, { n: 1 });
  assert.equal(Object.keys(one.nodes['set-1']).sort(), ['data', 'finishedAt', 'startedAt', 'status']);
  try {
    await weir.executions.get('ex_missing');
    assert.unreachable();
  } catch (err) {
    assert.is((err as WeirError).code, 'NOT_FOUND');
  }
  await weir.close();
});

/** A weir on a fresh home with a flow `name`: manual trigger -> set-1 setting `n` to `expression`. */
async function homeWithSetFlow(name: string, expression: string) {
  const home = tmpDir();
  const weir = await createWeir({ home, env: {} });
  const { id } = await weir.workflows.create(name);
  await weir.workflows.save(id, chain([{ id: 'set-1', type: 'set', config: { values: { n: expression } } }]));
  return { home, weir, id };
}

test('runs that end together share one stored batch; each is found by id from a new instance', async () => {
  const { home, weir, id } = await homeWithSetFlow('batched', '{{ $input.n }}');
  const runs = await Promise.all(Array.from({ length: 200 }, (_, n) => weir.run(id, { n })));
  const given = await weir.run(id, { n: 'given' }, { executionId: 'order-4711' });
  await weir.close();
  const batches = readdirSync(join(home, 'cloud', 'executions', 'runs', id));
  assert.ok(batches.length < 20, `200 runs ended together in ${batches.length} batches`);
  const again = await createWeir({ home, env: {} });
  assert.equal((await again.executions.get(runs[137].id)).nodes['set-1'].data, { n: 137 });
  assert.is((await again.executions.get('order-4711')).id, given.id);
  assert.is((await again.executions.list({ workflowId: id, limit: 500 })).length, 201);
  const ended = await again.executions.endedAmong(new Set([runs[0].id, runs[199].id, 'exec_never']), Date.now() - 60_000);
  assert.equal([...ended].sort(), [runs[0].id, runs[199].id].sort());
  await again.close();
});

test('a trigger\'s output (the run\'s input) is stored once and read back as it ran, key order included', async () => {
  const { home, weir, id } = await homeWithSetFlow('input-once', '{{ $input.marker }}');
  const ran = await weir.run(id, { marker: 'only-once-on-disk', nested: { list: [1, 2] } });
  await weir.close();
  const stored = filesUnder(join(home, 'cloud', 'executions')).join('');
  assert.is(stored.split('only-once-on-disk').length - 1, 3, 'the input once, set-1\'s output and the result');
  const again = await createWeir({ home, env: {} });
  const read = await again.executions.get(ran.id);
  assert.equal(read, JSON.parse(JSON.stringify(ran)));
  assert.equal(Object.keys(read.nodes['manual_trigger-1']), Object.keys(ran.nodes['manual_trigger-1']));
  assert.not.ok('inputOf' in read);
  assert.equal((await again.executions.list({ workflowId: id }))[0], read);
  await again.close();
});

test('a running record is stored before the first node runs, and replaced at the end', async () => {
  const weir = await memoryWeir();
  const seen: string[] = [];
  weir.bus.on('node:start', async (e: any) => {
    if (e.nodeId === 'delay-1') seen.push((await weir.executions.get(e.executionId)).status);
  });
  const r = await runConfig(weir, chain([{ id: 'delay-1', type: 'delay', config: { ms: 30 } }]));
  assert.equal(seen, ['running']);
  assert.is((await weir.executions.get(r.id)).status, 'success');
  await weir.close();
});

test('a given execution id is kept, and running it again replaces its record', async () => {
  const weir = await memoryWeir();
  const config = chain([{ id: 'set-1', type: 'set', config: { values: { v: '{{ $input.v }}' } } }]);
  await runConfig(weir, config, { v: 1 }, { executionId: 'exec_fixed' });
  const again = await runConfig(weir, config, { v: 2 }, { executionId: 'exec_fixed' });
  assert.is(again.id, 'exec_fixed');
  const list = await weir.executions.list({ workflowId: 'wf_test' });
  assert.equal(list.map((r) => r.id), ['exec_fixed']);
  assert.equal(list[0].result, { v: 2 });
  await weir.close();
});

test('secret values are in $env and masked as *** in records, logs and errors; none reach disk', async () => {
  const home = tmpDir();
  const weir = await createWeir({ home, env: { WEIR_MASTER_KEY: 'a'.repeat(64) } });
  const secret = 'sk_live_TOPSECRET_123';
  await weir.secrets.set('STRIPE_KEY', secret);
  const logs: unknown[] = [];
  weir.bus.on('execution:log', (e) => logs.push(e));
  const { id } = await weir.workflows.create('masked');
  await weir.workflows.save(
    id,
    chain([
      { id: 'set-1', type: 'set', config: { values: { auth: 'Bearer {{ $env.STRIPE_KEY }}', length: '{{ length($env.STRIPE_KEY) }}' } } },
      { id: 'code-1', type: 'code', config: { code: 'console.log("key is", $env.STRIPE_KEY); throw new Error("failed with " + $env.STRIPE_KEY)' } },
    ]),
  );
  const r = await weir.run(id, { echo: secret });
  assert.is(r.status, 'error');
  assert.equal(r.nodes['set-1'].data, { auth: 'Bearer ***', length: secret.length });
  assert.is(r.error?.message, 'code: failed with *** (line 1)');
  assert.equal(r.input, { echo: '***' });
  assert.equal(logs.map((l: any) => l.message), ['key is ***']);
  const stored = JSON.stringify(await weir.executions.get(r.id));
  assert.not.match(stored, secret);
  assert.match(stored, 'Bearer ***');
  await weir.close();
  assert.not.ok(filesUnder(home).some((text) => text.includes(secret)), 'the plaintext is in no file under the home');
});

test('$env holds only allowed environment variables (names or PREFIX_*), secrets win over them', async () => {
  const env = { APP_URL: 'https://app', APP_MODE: 'test', AWS_SECRET_ACCESS_KEY: 'aws', SHARED: 'from-env' };
  const config = chain([{ id: 'set-1', type: 'set', config: { values: { env: '{{ $env }}' } } }]);
  const closed = await memoryWeir({ env });
  assert.equal((await runConfig(closed, config)).result, { env: {} }, 'nothing is allowed by default');
  await closed.close();
  const open = await memoryWeir({ env, config: { env: { allow: ['APP_*', 'SHARED'] } } });
  await open.secrets.set('SHARED', 'from-secrets');
  const r = await runConfig(open, config);
  assert.equal((r.result as { env: unknown }).env, { APP_URL: 'https://app', APP_MODE: 'test', SHARED: '***' });
  await open.close();
});

test('retention: records beyond maxPerWorkflow or older than retentionDays are pruned', async () => {
  const weir = await memoryWeir({ config: { executions: { maxPerWorkflow: 3, retentionDays: 1 } } });
  const config = chain([]);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await runConfig(weir, config, { i })).id);
  assert.is((await weir.executions.list({ workflowId: 'wf_test', limit: 100 })).length, 5, 'pruning waits a minute between passes');
  assert.is(await weir.executions.prune('wf_test'), 2);
  assert.equal((await weir.executions.list({ workflowId: 'wf_test' })).map((r) => r.id), ids.slice(2).reverse());
  assert.is(await weir.executions.prune('wf_test', Date.now() + 2 * 86_400_000), 3, 'two days later all are too old');
  assert.equal(await weir.executions.list({ workflowId: 'wf_test' }), []);
  try {
    await weir.executions.get(ids[4]);
    assert.unreachable();
  } catch (err) {
    assert.is((err as WeirError).code, 'NOT_FOUND', 'the id index went with the record');
  }
  await weir.close();
});

test('listing mixes waiting and finished runs newest first, and reads only the newest waiting entries it needs', async () => {
  const home = tmpDir();
  const weir = await createWeir({ home, env: {} });
  const waits = await weir.workflows.create('waits', undefined, { config: chain([{ id: 'wait-1', type: 'wait', config: { for: '1h' } }]), publish: true });
  const done = await weir.workflows.create('done', undefined, { config: chain([]), publish: true });
  const waiting: string[] = [];
  for (let n = 0; n < 5; n++) {
    const run = await weir.run(waits.id, { n });
    assert.is(run.status, 'waiting');
    waiting.push(run.id);
    await new Promise((r) => setTimeout(r, 3));
  }
  const finished = [(await weir.run(done.id, {})).id];
  await new Promise((r) => setTimeout(r, 3));
  finished.push((await weir.run(done.id, {})).id);
  assert.equal((await weir.executions.list({ limit: 3 })).map((r) => r.id), [finished[1], finished[0], waiting[4]], 'finished runs newer than the waiting ones come first');
  assert.equal((await weir.executions.list({ workflowId: waits.id, limit: 2 })).map((r) => r.id), [waiting[4], waiting[3]]);
  assert.equal((await weir.executions.list({ workflowId: done.id })).map((r) => r.id), [...finished].reverse());
  // The oldest waiting entry made unreadable: a listing that needs only newer ones never reads it.
  const openDir = join(home, 'cloud', 'executions', 'open');
  const oldest = readdirSync(openDir).find((name) => decodeURIComponent(name) === waiting[0])!;
  writeFileSync(join(openDir, oldest), '{not json');
  assert.is((await weir.executions.list({ workflowId: waits.id, limit: 4 })).length, 4);
  await weir.close();
});

test('memory storage: after 5,000 runs listing and get still work, newest first; maxPerWorkflow prunes', async () => {
  const weir = await memoryWeir({ config: { executions: { maxPerWorkflow: 100 } } });
  const { id } = await weir.workflows.create('many', undefined, { config: chain([{ id: 'set-1', type: 'set', config: { values: { n: '{{ $input.n }}' } } }]), publish: true });
  const ids: string[] = [];
  for (let n = 0; n < 5000; n++) ids.push((await weir.run(id, { n })).id);
  // Pruned as it ran, each time 256 records (maxPerWorkflow, at least 256) were stored since the last pass:
  // the newest are all there, and never much more than retention keeps.
  assert.equal((await weir.executions.list({ workflowId: id, limit: 50 })).map((r) => r.id), ids.slice(-50).reverse());
  assert.equal((await weir.executions.list()).map((r) => r.id), ids.slice(-20).reverse());
  const whileRunning = (await weir.executions.list({ workflowId: id, limit: 5000 })).length;
  assert.ok(whileRunning >= 100 && whileRunning <= 100 + 256, `${whileRunning} kept while running`);
  for (const n of [4900, 4950, 4999]) {
    const one = await weir.executions.get(ids[n]);
    assert.equal([one.id, one.status, one.nodes['set-1'].data], [ids[n], 'success', { n }]);
  }
  const pruned = await weir.executions.prune(id);
  const kept = (await weir.executions.list({ workflowId: id, limit: 5000 })).map((r) => r.id);
  // A run slow enough to store a 'running' record too leaves one record fewer for the others.
  assert.ok(kept.length >= 90 && kept.length <= 100, `${kept.length} kept`);
  assert.equal(kept, ids.slice(-kept.length).reverse());
  assert.ok(pruned >= whileRunning - kept.length, `${pruned} pruned`);
  try {
    await weir.executions.get(ids[0]);
    assert.unreachable();
  } catch (err) {
    assert.is((err as WeirError).code, 'NOT_FOUND', 'the oldest went');
  }
  await weir.close();
});

test.run();
