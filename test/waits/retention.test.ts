// Resume tokens, kept calls and ended times live as long as their execution's record: pruning the record
// (retentionDays, maxPerWorkflow) removes them from disk; an execution still kept answers as before.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createWeir } from '../../src/weir.js';
import { openStorage } from '../../src/storage/index.js';
import { createWaitStore } from '../../src/waits/store.js';
import { chain, publish, send, startHost, tmpDir, until } from '../host/_helpers.js';

const PUBLIC = 'https://hooks.example.test';
const DAY = 86_400_000;
type Host = Awaited<ReturnType<typeof startHost>>;

/** Files under the home's `cloud/waits`, relative to it, `/`-separated. */
function waitFiles(home: string): string[] {
  const root = join(home, 'cloud', 'waits');
  const walk = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [relative(root, join(dir, name)).split('\\').join('/')])) : [];
  return walk(root);
}
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** A webhook run answered by its Respond node ({url}); resolves with the execution id and resume URL on the host. */
async function start(host: Host, webhookToken: string) {
  const res = await send(`${host.url}/trigger/${webhookToken}`, { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.is(res.status, 200);
  const url = res.json.url as string;
  assert.ok(url.startsWith(`${PUBLIC}/resume/`), url);
  return { id: res.headers.get('x-execution-id')!, url: host.url + url.slice(PUBLIC.length), token: tokenOf(url) };
}
const status = (host: Host, id: string) => until(async () => {
  const r = await host.weir.executions.get(id);
  return r.status !== 'running' && r.status;
}, 10_000, `execution ${id} to stop running`);
const ended = (host: Host, id: string) => until(async () => ['success', 'error', 'cancelled'].includes(await status(host, id)), 10_000, `execution ${id} to end`);

test('pruning removes the tokens, kept call and ended time of the executions it removes; kept ones answer as before', async () => {
  const host = await startHost({ config: { publicUrl: PUBLIC, executions: { maxPerWorkflow: 1 } } });
  try {
    // Approval: the URL handed out, a webhook wait, then a step after it.
    const approval = chain('webhook_trigger', [
      { type: 'respond', id: 'respond-1', config: { body: { url: '{{ $execution.resumeUrl }}' } } },
      { type: 'wait', id: 'wait-1', config: { webhook: true, timeout: '1h' } },
      { type: 'set', id: 'set-1', config: { values: { ok: true } } },
    ]);
    // A URL handed out, called during a time wait, then the run ends without a webhook wait: its call stays kept.
    const noWebhook = chain('webhook_trigger', [
      { type: 'respond', id: 'respond-1', config: { body: { url: '{{ $execution.resumeUrl }}' } } },
      { type: 'wait', id: 'wait-0', config: { for: '400ms' } },
    ]);
    const a = await publish(host.weir, 'approval', { type: 'webhook_trigger', config: { respondImmediately: false } }, approval.nodes, approval.edges);
    const b = await publish(host.weir, 'no-webhook', { type: 'webhook_trigger', config: { respondImmediately: false } }, noWebhook.nodes, noWebhook.edges);

    const old = await start(host, a.token);
    await until(async () => (await status(host, old.id)) === 'waiting', 5000, 'the first approval to wait');
    assert.is((await send(old.url, { body: '{}' })).status, 202);
    await ended(host, old.id);
    const kept = await start(host, a.token);
    await until(async () => (await status(host, kept.id)) === 'waiting', 5000, 'the second approval to wait');
    assert.is((await send(kept.url, { body: '{}' })).status, 202);
    await ended(host, kept.id);
    const waiting = await start(host, a.token);
    await until(async () => (await status(host, waiting.id)) === 'waiting', 5000, 'the third approval to wait');

    const early = await start(host, b.token);
    assert.is((await send(early.url, { body: '{"early":1}' })).status, 202, 'a call during the time wait is kept');
    await ended(host, early.id);

    const before = waitFiles(host.home);
    for (const file of [`token/${old.token}`, `ended/${old.id}`, `of/${a.id}/${old.id}/${old.token}`, `of/${a.id}/${old.id}/ended`, `token/${kept.token}`, `ended/${kept.id}`, `token/${waiting.token}`, `token/${early.token}`, `early/${early.id}`, `of/${b.id}/${early.id}/${early.token}`]) {
      assert.ok(before.includes(file), `${file} stored before the prune:\n${before.join('\n')}`);
    }
    // What a late call on an ended execution answers while its record is kept: 404 (its token is used).
    assert.is((await send(old.url)).status, 404);
    assert.is((await send(early.url)).status, 404);

    // maxPerWorkflow 1: the first approval goes, the second stays (the third is unfinished, kept open).
    assert.is(await host.weir.executions.prune(a.id), 1);
    // retentionDays (30 by default): two months on, the kept call's execution goes.
    assert.is(await host.weir.executions.prune(b.id, Date.now() + 60 * DAY), 1);

    const after = waitFiles(host.home);
    const mentions = (s: string) => after.filter((f) => f.includes(s));
    assert.equal(mentions(old.id), [], 'nothing of the pruned approval is left');
    assert.equal(mentions(old.token), [], 'its token is gone');
    assert.equal(mentions(early.id), [], 'nor the kept call of the pruned run');
    assert.equal(mentions(early.token), []);
    for (const file of [`token/${kept.token}`, `ended/${kept.id}`, `of/${a.id}/${kept.id}/${kept.token}`, `token/${waiting.token}`, `of/${a.id}/${waiting.id}/${waiting.token}`]) {
      assert.ok(after.includes(file), `${file} kept:\n${after.join('\n')}`);
    }
    // Through the storage view too.
    const waits = host.weir.storage.view('cloud', 'waits');
    assert.is(await waits.getItem(`token:${old.token}`), null);
    assert.is(await waits.getItem(`early:${early.id}`), null);
    assert.ok(await waits.getItem(`token:${kept.token}`));

    // The pruned ones' URLs are unknown now: 404, as before the prune.
    assert.is((await send(old.url)).status, 404);
    assert.is((await send(early.url)).status, 404);
    assert.equal(waitFiles(host.home).filter((f) => f.startsWith('early/')), [], 'a call to a pruned URL keeps nothing');
    // The kept ended execution answers as before; the waiting one still resumes.
    assert.is((await send(kept.url)).status, 404);
    const resumed = await send(waiting.url, { body: '{}' });
    assert.is(resumed.status, 202);
    assert.equal(resumed.json, { executionId: waiting.id });
    await ended(host, waiting.id);
    assert.is(await status(host, waiting.id), 'success');
  } finally {
    await host.close();
  }
});

test('a start indexes tokens stored without an `of:` entry; those of executions already pruned go', async () => {
  const home = tmpDir('weir-legacy-');
  const weir = await createWeir({ home, config: { publicUrl: PUBLIC } });
  const c = chain('webhook_trigger', [
    { type: 'respond', id: 'respond-1', config: { body: { url: '{{ $execution.resumeUrl }}' } } },
    { type: 'wait', id: 'wait-1', config: { webhook: true } },
  ]);
  const { id: workflowId } = await publish(weir, 'legacy', { type: 'webhook_trigger' }, c.nodes, c.edges);
  const run = await weir.run(workflowId, {});
  assert.is(run.status, 'waiting');
  const waits = weir.storage.view('cloud', 'waits');
  const [live] = (await waits.getKeys('token:')).map((k) => k.slice(6));
  assert.ok(live, 'the waiting run has a token');
  // As an earlier version stored them: no `of:` entries, no layout mark; one token of an execution pruned
  // long ago with its kept call and ended time, and an ended time with no token.
  await waits.clear('of');
  await waits.removeItem('layout');
  const gone = 'G'.repeat(32);
  await waits.setItem(`token:${gone}`, JSON.stringify({ executionId: 'exec_pruned', workflowId, issuedAt: Date.now() - 40 * DAY }));
  await waits.setItem('early:exec_pruned', JSON.stringify({ data: {}, at: Date.now() - 40 * DAY }));
  await waits.setItem('ended:exec_pruned', String(Date.now() - 40 * DAY));
  await waits.setItem('ended:exec_alone', String(Date.now() - 40 * DAY));
  await weir.close();

  const host = await startHost({ home, config: { publicUrl: PUBLIC } });
  try {
    await until(() => waitFiles(home).includes('layout'), 5000, 'the legacy records to be indexed');
    const files = waitFiles(home);
    assert.ok(files.includes(`of/${workflowId}/${run.id}/${live}`), files.join('\n'));
    assert.ok(files.includes(`token/${live}`));
    assert.equal(files.filter((f) => f.includes('exec_pruned') || f.includes(gone) || f.includes('exec_alone')), []);
    // The indexed token still resumes its execution.
    const resumed = await send(`${host.url}/resume/${live}`, { body: '{}' });
    assert.is(resumed.status, 202);
    await until(async () => (await host.weir.executions.get(run.id)).status === 'success', 10_000, 'the resumed run to end');
  } finally {
    await host.close();
  }
});

test('a token rewritten after a prune removed it (a resume racing the prune) is listed again, so the next prune removes it', async () => {
  const storage = await openStorage({ home: tmpDir() });
  try {
    const store = createWaitStore(storage.view('cloud', 'waits'));
    const token = 'T'.repeat(32);
    const record = { executionId: 'exec_1', workflowId: 'wf_1', issuedAt: Date.now() };
    await store.putToken(token, record);
    // The prune reads the execution's entries and removes them; then the resume marks the token it had read.
    await store.removeOf('wf_1', ['exec_1']);
    assert.is(await store.token(token), null);
    await store.putToken(token, { ...record, used: true });
    assert.equal(await store.executionsOf('wf_1'), ['exec_1']);
    await store.removeOf('wf_1', ['exec_1']);
    assert.is(await store.token(token), null);
    assert.equal(await store.executionsOf('wf_1'), []);
  } finally {
    await storage.dispose();
  }
});

test.run();
