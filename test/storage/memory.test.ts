import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createStorage, type Storage } from 'unstorage';
import { openStorage } from '../../src/storage/index.js';
import { memoryDriver } from '../../src/storage/memory-driver.js';
import { tmpDir } from '../_utils.js';

const sorted = (keys: string[]) => [...keys].sort();

test('without a home the mounts use weir\'s indexed memory driver, as does a "memory" driver in the config', async () => {
  const bare = await openStorage({});
  const named = await openStorage({ config: { storage: { cloud: { driver: 'memory' } } }, home: tmpDir() });
  for (const cloud of [bare.cloud, named.cloud]) {
    assert.equal((cloud as unknown as Storage).getMounts('').map((m) => m.driver.name), ['weir-memory']);
  }
});

test('values, batches and removal read back as written', async () => {
  const { cloud } = await openStorage({});
  await cloud.setItem('a:b', { v: 1 });
  await cloud.setItem('a:c', 'text');
  assert.equal(await cloud.getItem('a:b'), { v: 1 });
  assert.is(await cloud.getItem('a:c'), 'text');
  assert.is(await cloud.getItem('a:missing'), null);
  assert.ok(await cloud.hasItem('a:b'));
  assert.equal(await cloud.getItems(['a:c', 'a:missing', 'a:b']), [
    { key: 'a:c', value: 'text' },
    { key: 'a:missing', value: null },
    { key: 'a:b', value: { v: 1 } },
  ]);
  await cloud.removeItem('a:b');
  assert.not.ok(await cloud.hasItem('a:b'));
  assert.equal(await cloud.getKeys('a'), ['a:c']);
});

test('raw values are kept as the bytes given', async () => {
  const { cloud } = await openStorage({});
  await cloud.setItemRaw('objects:report.bin', new Uint8Array([0, 1, 255]));
  const back = await cloud.getItemRaw<Uint8Array>('objects:report.bin');
  assert.equal([...back!], [0, 1, 255]);
});

test('getKeys lists exactly the keys under whole segments of the base', async () => {
  const { cloud } = await openStorage({});
  for (const key of ['kv:ns1:a', 'kv:ns1:deep:b', 'kv:ns10:c', 'kv:ns1x', 'kv', 'other:d']) await cloud.setItem(key, 1);
  assert.equal(sorted(await cloud.getKeys('kv:ns1')), sorted(['kv:ns1:a', 'kv:ns1:deep:b']));
  assert.equal(sorted(await cloud.getKeys('kv:ns1:')), sorted(['kv:ns1:a', 'kv:ns1:deep:b']));
  assert.equal(sorted(await cloud.getKeys('kv')), sorted(['kv:ns1:a', 'kv:ns1:deep:b', 'kv:ns10:c', 'kv:ns1x']));
  assert.equal(await cloud.getKeys('nothing:here'), []);
  assert.equal(sorted(await cloud.getKeys()), sorted(['kv', 'kv:ns1:a', 'kv:ns1:deep:b', 'kv:ns10:c', 'kv:ns1x', 'other:d']));
  // Straight on the driver, a base that ends inside a segment is a plain prefix.
  const driver = memoryDriver();
  for (const key of ['x:ab', 'x:ac', 'x:b', 'x:a:d']) driver.setItem!(key, '1', {});
  assert.equal(sorted(await driver.getKeys('x:a', {})), sorted(['x:a:d', 'x:ab', 'x:ac']));
});

test('clear(base) removes whole segments only, through a view too; clear() empties the mount', async () => {
  const storage = await openStorage({});
  const { cloud } = storage;
  for (const key of ['kv:data:ns1:a', 'kv:data:ns1:deep:b', 'kv:data:ns10:c', 'kv:data:ns1x', 'kv:meta:ns1']) await cloud.setItem(key, 1);
  await cloud.clear('kv:data:ns1');
  assert.equal(sorted(await cloud.getKeys()), sorted(['kv:data:ns10:c', 'kv:data:ns1x', 'kv:meta:ns1']));
  assert.not.ok(await cloud.hasItem('kv:data:ns1:a'));
  await storage.view('cloud', 'kv:data').clear('ns10');
  assert.equal(sorted(await cloud.getKeys()), sorted(['kv:data:ns1x', 'kv:meta:ns1']));
  // The cleared folders are gone from the index: writing there again starts afresh.
  await cloud.setItem('kv:data:ns1:new', 2);
  assert.equal(await cloud.getKeys('kv:data:ns1'), ['kv:data:ns1:new']);
  await cloud.clear();
  assert.equal(await cloud.getKeys(), []);
  assert.is(await cloud.getItem('kv:meta:ns1'), null);
});

test('a key and keys below it live side by side; removing the last key under a base empties its listing', async () => {
  const cloud = createStorage({ driver: memoryDriver() });
  await cloud.setItem('a', 1);
  await cloud.setItem('a:b', 2);
  await cloud.setItem('a:b:c', 3);
  assert.equal(sorted(await cloud.getKeys()), sorted(['a', 'a:b', 'a:b:c']));
  assert.equal(sorted(await cloud.getKeys('a')), sorted(['a:b', 'a:b:c']));
  await cloud.removeItem('a:b:c');
  assert.equal(await cloud.getKeys('a:b'), []);
  assert.equal(sorted(await cloud.getKeys()), sorted(['a', 'a:b']));
  await cloud.removeItem('a:b');
  await cloud.removeItem('a:b');
  assert.equal(await cloud.getKeys(), ['a']);
  await cloud.dispose();
  assert.is(await cloud.getItem('a'), null, 'dispose drops the values');
});

test('writes and removals stay in the listings around emptied folders and cleared bases', async () => {
  const { cloud } = await openStorage({});
  for (const key of ['p:x', 'p:q:y', 'r:z', 'r:w']) await cloud.setItem(key, 1);
  // `p` loses its last key while `p:q` holds one; then `p:q` empties and both folders go.
  await cloud.removeItem('p:x');
  assert.equal(await cloud.getKeys('p'), ['p:q:y']);
  await cloud.removeItem('p:q:y');
  assert.equal(await cloud.getKeys('p'), []);
  await cloud.setItem('p:x', 2);
  await cloud.setItem('p:q:y', 2);
  assert.equal(sorted(await cloud.getKeys('p')), sorted(['p:x', 'p:q:y']));
  // Clearing one base leaves the keys of another written, removed and listed as before.
  await cloud.clear('p');
  await cloud.removeItem('r:z');
  await cloud.setItem('r:v', 3);
  assert.equal(sorted(await cloud.getKeys()), sorted(['r:w', 'r:v']));
  await cloud.setItem('p:q:y', 4);
  assert.equal(await cloud.getKeys('p'), ['p:q:y']);
});

test.run();
