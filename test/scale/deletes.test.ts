// Deletes delete in Redis too: after each delete neither the value keys nor their entries in the driver's
// key index are left under the deleted prefix; the neighbours stay.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Redis } from 'ioredis';
import { createWeir, type Weir } from '../../src/index.js';
import { writeJson } from '../_utils.js';
import { deleteEverything } from '../resources/_deletes.js';
import { clusterConfig, clusterHome, dropRedisPrefix, MASTER_KEY, REDIS_URL, uniqueName, weirCli } from './_scale.js';

const prefix = uniqueName('deletes');
const spec = { prefix };
const home = clusterHome(spec);
let weir: Weir;
let redis: Redis;

/** Value keys in Redis under a cloud-mount prefix (`*` and friends in it are escaped). */
const valueKeys = (under: string) => redis.keys(`${`${prefix}:${under}:`.replace(/[*?[\]\\]/g, '\\$&')}*`);
/** Entries of the mount's key index under a prefix. */
const indexed = (under: string) => redis.zrangebylex(`${prefix}:\u0000keys`, `[${under}:`, Buffer.concat([Buffer.from(`[${under}:`), Buffer.from([0xff])]));

test.before(async () => {
  const { Redis } = await import('ioredis');
  redis = new Redis(REDIS_URL);
  weir = await createWeir({ home, config: clusterConfig(spec), env: { ...process.env, WEIR_MASTER_KEY: MASTER_KEY } });
});

test.after(async () => {
  await weir?.close();
  await dropRedisPrefix(prefix);
  redis?.disconnect();
});

test('every delete empties its prefix in Redis: values and index entries', async () => {
  const outcome = await deleteEverything(weir);
  for (const under of outcome.emptied) {
    assert.equal(await valueKeys(under), [], `values under ${under}`);
    assert.equal(await indexed(under), [], `index entries under ${under}`);
  }
  for (const key of outcome.removed) {
    assert.is(await redis.exists(`${prefix}:${key}`), 0, key);
    assert.is(await redis.zscore(`${prefix}:\u0000keys`, key), null, `${key} in the index`);
  }
  for (const [under, n] of Object.entries(outcome.kept)) {
    assert.is((await valueKeys(under)).length, n, `values under ${under}`);
    assert.is((await indexed(under)).length, n, `index entries under ${under}`);
  }
});

test('weir data kv delete in a subprocess leaves no key of the namespace in Redis', async () => {
  const ns = (await weirCli(home, ['data', 'kv', 'init', 'cli-ns', '--json'])).json();
  const file = writeJson(home, 'values.json', { a: '1', 'b/c?d': '2', ['k'.repeat(300)]: '3' });
  const imported = await weirCli(home, ['data', 'kv', 'import', 'cli-ns', file]);
  assert.is(imported.code, 0, imported.stderr);
  assert.is((await valueKeys(`kv:data:${ns.id}`)).length, 3);
  const deleted = await weirCli(home, ['data', 'kv', 'delete', 'cli-ns']);
  assert.is(deleted.code, 0, deleted.stderr);
  assert.equal(await valueKeys(`kv:data:${ns.id}`), []);
  assert.equal(await indexed(`kv:data:${ns.id}`), []);
  assert.is(await redis.exists(`${prefix}:kv:namespaces:${ns.id}`), 0);
});

test.run();
