import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWeir } from '../../src/weir.js';
import { chain, publish, send, startServe, tmpDir, until } from '../host/_helpers.js';
import { hitCounter } from '../_utils.js';

test('two weir serve on one home: every wait wakes exactly once, and one host wakes the waits of a host killed with -9', async () => {
  const counter = await hitCounter();
  const { hits, url: counterUrl } = counter;

  const home = tmpDir('weir-waits-hosts-');
  const setup = await createWeir({ home });
  const c = chain('webhook_trigger', [
    { type: 'wait', id: 'wait-1', config: { for: '2s' } },
    { type: 'http_request', id: 'http_request-1', config: { method: 'POST', url: counterUrl, body: { id: '{{ $execution.id }}' } } },
  ]);
  const { id: workflowId, token } = await publish(setup, 'shared-waits', { type: 'webhook_trigger' }, c.nodes, c.edges);
  await setup.close();
  const weir = await createWeir({ home });
  const status = async (id: string) => (await weir.executions.get(id).catch(() => null))?.status;
  const post = async (url: string) => (await send(`${url}/trigger/${token}`, { body: '{}', headers: { 'content-type': 'application/json' } })).json.executionId as string;
  /** Every wake key the notes for the other hosts hold. */
  const noted = () => {
    const dir = join(home, 'cloud', 'waits', 'new');
    return readdirSync(dir).flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as string[]).join('\n');
  };

  const a = await startServe(home);
  const b = await startServe(home);
  try {
    const both = await Promise.all(Array.from({ length: 16 }, (_, i) => post(i % 2 ? a.url : b.url)));
    await until(async () => (await Promise.all(both.map(status))).every((s) => s === 'success'), 15_000, 'the waits on both hosts to end');
    for (const id of both) assert.is(hits.get(id), 1, `${id} woke once`);

    const orphans = await Promise.all(Array.from({ length: 6 }, () => post(a.url)));
    await until(async () => (await Promise.all(orphans.map(status))).every((s) => s === 'waiting'), 5000, 'the waits to be stored');
    await until(() => orphans.every((id) => noted().includes(id)), 5000, 'the other host to be told');
    await a.stop('SIGKILL');
    await until(async () => (await Promise.all(orphans.map(status))).every((s) => s === 'success'), 15_000, 'the surviving host to wake the killed host\'s waits');
    for (const id of orphans) assert.is(hits.get(id), 1, `${id} woke once`);
    // Listed from a third process right after the last reads as ended: every execution shows at once.
    const listed = await weir.executions.list({ workflowId, limit: 100 });
    assert.equal(new Set(listed.map((r) => r.id)), new Set([...both, ...orphans]));
  } finally {
    await a.stop();
    await b.stop();
    await weir.close();
    counter.close();
  }
});

test.run();
