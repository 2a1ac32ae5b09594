// weir's Redis driver with unstorage's options: `ttl` expires items (and listings forget them once Redis
// has), `cluster` is refused with a clear error instead of being handed to ioredis unread.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Redis } from 'ioredis';
import { openStorage, type Storages } from '../../src/storage/index.js';
import { tmpDir } from '../_utils.js';
import { dropRedisPrefix, REDIS_URL, uniqueName } from './_scale.js';

const prefix = uniqueName('driver');
let redis: Redis;
const opened: Storages[] = [];

/** A storage whose cloud mount is Redis under `base`, with extra driver options. */
async function redisStorage(base: string, options: Record<string, unknown> = {}): Promise<Storages> {
  const storage = await openStorage({ config: { storage: { cloud: { driver: 'redis', url: REDIS_URL, base, ...options } } }, home: tmpDir() });
  opened.push(storage);
  return storage;
}

/**
 * Resolves once Redis has expired `key`. Expiry is a point in time with no event to await (keyspace
 * notifications are server-wide settings), so this waits for the time Redis reports as left.
 */
async function expired(key: string): Promise<void> {
  for (let left = await redis.pttl(key); left !== -2; left = await redis.pttl(key)) {
    if (left === -1) throw new Error(`${key} has no TTL`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(left, 1)));
  }
}

test.before(async () => {
  const { Redis } = await import('ioredis');
  redis = new Redis(REDIS_URL);
});

test.after(async () => {
  await Promise.all(opened.map((s) => s.dispose()));
  await dropRedisPrefix(prefix);
  redis?.disconnect();
});

test('an item written with a ttl expires, and listings drop it from the key index once it has', async () => {
  const base = `${prefix}:ttl`;
  const storage = await redisStorage(base);
  await storage.cloud.setItem('sessions:short', 'x', { ttl: 1 });
  await storage.cloud.setItem('sessions:long', 'y');
  assert.ok((await redis.pttl(`${base}:sessions:short`)) > 0, 'Redis holds the TTL');
  assert.equal((await storage.cloud.getKeys('sessions')).sort(), ['sessions:long', 'sessions:short']);
  await expired(`${base}:sessions:short`);
  assert.equal(await storage.cloud.getKeys('sessions'), ['sessions:long']);
  assert.is(await redis.zscore(`${base}:\u0000keys`, 'sessions:short'), null, 'the index entry is gone');
  assert.is(await redis.zcard(`${base}:\u0000expiries`), 0);
});

test('an item written again without a ttl keeps its index entry and loses its expiry', async () => {
  const base = `${prefix}:rewrite`;
  const storage = await redisStorage(base);
  await storage.cloud.setItem('k', 'with ttl', { ttl: 60 });
  await storage.cloud.setItem('k', 'for good');
  assert.is(await redis.pttl(`${base}:k`), -1);
  assert.is(await redis.zcard(`${base}:\u0000expiries`), 0);
  assert.equal(await storage.cloud.getKeys(), ['k']);
});

test('the driver option ttl is the default expiry of every item', async () => {
  const base = `${prefix}:default`;
  const storage = await redisStorage(base, { ttl: 120 });
  await storage.view('cloud', 'kv').setItem('a', { v: 1 });
  const left = await redis.ttl(`${base}:kv:a`);
  assert.ok(left > 0 && left <= 120, `ttl ${left}`);
  await storage.cloud.setItem('b', 'short', { ttl: 5 });
  assert.ok((await redis.ttl(`${base}:b`)) <= 5, 'a ttl given to setItem wins');
});

test('cluster is refused with a clear error, not handed to ioredis', async () => {
  try {
    await redisStorage(`${prefix}:cluster`, { cluster: [{ host: '127.0.0.1', port: 6379 }] });
    assert.unreachable('should refuse');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'INVALID_CONFIG');
    assert.match((err as Error).message, 'does not run on Redis Cluster');
  }
});

test.run();
