// A cluster's subscriber connection killed by Redis (`CLIENT KILL`): ioredis reconnects and subscribes again, and
// whatever listened is told once the subscription is confirmed, to make up for messages sent meanwhile. An
// execution waiting to be let into a lane asks the lane again then, instead of after its park delay.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Redis } from 'ioredis';
import { createCluster } from '../../src/cluster/index.js';
import { createBus } from '../../src/events.js';
import { createLetIn } from '../../src/queue/lanes.js';
import { REDIS_URL, uniqueName, until } from './_scale.js';

const bus = createBus();
const cluster = createCluster({ config: { cluster: { url: REDIS_URL, prefix: uniqueName('reconnect') } }, bus })!;
const admin = new Redis(REDIS_URL);

/** Kills this cluster's subscriber connection, found by its name in `CLIENT LIST`. */
async function killSubscriber() {
  const name = `weir:${cluster.nodeId}:subscriber`;
  const line = (await admin.client('LIST') as string).split('\n').find((l) => l.includes(` name=${name} `));
  assert.ok(line, `${name} is connected`);
  assert.is(await admin.client('KILL', 'ID', line.match(/^id=(\d+)/)![1]), 1);
}

/** `promise`, or a failure naming `what` after 30 s (a reconnect takes milliseconds). */
const within = <T>(what: string, promise: Promise<T>) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not ${what} within 30 s`)), 30_000).unref())]);

test.after(async () => {
  await cluster.close();
  admin.disconnect();
});

test('a listener is told when its subscription is back, and hears what is sent from then on', async () => {
  const heard: unknown[] = [];
  let resumed = () => {};
  const back = new Promise<void>((resolve) => (resumed = resolve));
  await cluster.subscribe('news', (message) => heard.push(message), () => resumed());
  await killSubscriber();
  await within('told', back);
  await cluster.publish('news', { n: 1 });
  await until('the message sent after the resume', async () => heard.length === 1);
  assert.equal(heard, [{ n: 1 }]);
});

test('an execution waiting to be let in asks again once the subscriber is back (its let-in message may be lost)', async () => {
  const letIn = createLetIn(cluster, 'let-in');
  const turn = await letIn.listen('exec_waiting');
  const asked = turn.until(10 * 60_000);
  await killSubscriber();
  await within('woken', asked);
  turn.stop();
});

test.run();
