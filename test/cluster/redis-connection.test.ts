// The cluster's Redis connections when Redis is not there: ioredis retries on its own, the bus is told once a
// connection, not at every retry (a host logs one line, not one every two seconds), and closing does not wait.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCluster } from '../../src/cluster/index.js';
import { createBus } from '../../src/events.js';

test('a Redis that drops every connection is told on the bus once while ioredis keeps trying; closing fails what waited for it', async () => {
  let tries = 0;
  let onTry = () => {};
  const server = createServer((socket) => {
    tries++;
    socket.destroy();
    onTry();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `redis://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bus = createBus();
  const told: Array<{ connection: string; error: unknown }> = [];
  bus.on('cluster:error', (e) => told.push(e));
  const cluster = createCluster({ config: { cluster: { url } }, bus })!;
  // Waits (maxRetriesPerRequest: null) until Redis is back: never, here.
  const published = cluster.publish('nobody', 1).then(() => 'sent', (err: Error) => err.message);
  await new Promise<void>((resolve) => (onTry = () => tries >= 4 && resolve()));
  assert.is(told.length, 1, `told ${told.length} times over ${tries} tries`);
  assert.is(told[0].connection, 'command');
  assert.instance(told[0].error, Error);
  await cluster.close();
  assert.match(await published, /closed/i);
  server.close();
});

test.run();
