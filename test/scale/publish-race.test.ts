// Publishing one workflow from three places at once on a home whose `cloud` mount is Redis: version numbers
// are claimed with SET NX (through the storage driver), so each is handed out once and none is lost.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { publishRace } from './_race.js';
import { clusterHome, dropRedisPrefix, MASTER_KEY, REDIS_URL, uniqueName } from './_scale.js';

const prefix = uniqueName('publish');

test.after(() => dropRedisPrefix(prefix));

test('Redis home: 60 rounds of two concurrent CLI publishes plus API publishes hand out each version once and lose none', async () => {
  const publishes = await publishRace(clusterHome({ prefix }), { env: { WEIR_MASTER_KEY: MASTER_KEY } });
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL);
  try {
    assert.is((await redis.keys(`${prefix}:workflow-versions:*`)).length, publishes, 'one claim per version');
  } finally {
    redis.disconnect();
  }
});

test.run();
