// Two `weir serve` on Redis cloud storage: new waits reach the other host through pub/sub, each wake is
// claimed in Redis, and the survivor wakes the waits of a host killed with -9.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/index.js';
import { chain } from '../host/_helpers.js';
import { flow, hitCounter } from '../_utils.js';
import { clusterHome, dropRedisPrefix, publishFlow, REDIS_URL, startHost, uniqueName, until } from './_scale.js';

const prefix = uniqueName('waits');

test.after(async () => {
  await dropRedisPrefix(prefix);
});

test('cluster: every wait wakes exactly once across two hosts, and a killed host\'s waits wake on the other', async () => {
  const counter = await hitCounter();
  const { hits, url } = counter;
  const spec = { prefix };
  const homes = { a: clusterHome(spec), b: clusterHome(spec), observer: clusterHome(spec) };
  const c = chain('webhook_trigger', [
    { type: 'wait', id: 'wait-1', config: { for: '2s' } },
    { type: 'http_request', id: 'http_request-1', config: { method: 'POST', url, body: { id: '{{ $execution.id }}' } } },
  ]);
  const { token } = await publishFlow(homes.observer, 'cluster-waits', flow({ type: 'webhook_trigger' }, c.nodes, c.edges));
  const observer = await createWeir({ home: homes.observer });
  const status = async (id: string) => (await observer.executions.get(id).catch(() => null))?.status;
  const post = async (base: string) => {
    const res = await fetch(`${base}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return ((await res.json()) as { executionId: string }).executionId;
  };
  const a = await startHost(homes.a, ['--port', '0']);
  const b = await startHost(homes.b, ['--port', '0']);
  try {
    const both = await Promise.all(Array.from({ length: 12 }, (_, i) => post(i % 2 ? a.url! : b.url!)));
    await until('the waits to end', async () => (await Promise.all(both.map(status))).every((s) => s === 'success'), 20_000);
    for (const id of both) assert.is(hits.get(id), 1, `${id} woke once`);

    // What the hosts tell each other of new waits, heard here too: A dies only once it has told B.
    const told: string[] = [];
    const { Redis } = await import('ioredis');
    const listener = new Redis(REDIS_URL);
    listener.on('message', (_channel: string, text: string) => told.push(...(JSON.parse(text) as { keys: string[] }).keys));
    await listener.subscribe(`${prefix}:waits`);
    const orphans = await Promise.all(Array.from({ length: 4 }, () => post(a.url!)));
    await until('the waits to be announced', async () => orphans.every((id) => told.some((key) => key.includes(id))), 5000);
    await listener.quit();
    await a.stop('SIGKILL');
    await until('the other host to wake them', async () => (await Promise.all(orphans.map(status))).every((s) => s === 'success'), 20_000);
    for (const id of orphans) assert.is(hits.get(id), 1, `${id} woke once`);
  } finally {
    await a.stop();
    await b.stop();
    await observer.close();
    counter.close();
  }
});

test.run();
