// One suite of storage-driver behaviours, run against every driver weir ships (memory, fs, Redis): the
// unstorage contract weir relies on (has/get/set/remove, listings under a base, clear, raw bytes,
// serialization) plus weir's own rules (whole-segment bases, prefixed views, encoded user keys, no torn
// reads, a second instance on the same backing store seeing the first one's writes).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeKeyPart, encodeKeyPart } from '../../src/storage/keys.js';
import { setItemIfAbsent, type KeyValueStorage, type Storages } from '../../src/storage/index.js';

/** What a driver does where drivers legitimately differ. */
export interface DriverTraits {
  /**
   * A key with a value and a key beneath it (`a` and `a:b`): both `kept` (memory, Redis), or the second
   * write `refused` with an error and the first value kept (one file per key cannot be a folder too).
   */
  keyUnderKey: 'kept' | 'refused';
}

/** `getKeys` in a fixed order: drivers list in any order, and no caller may rely on one. */
const keysOf = async (store: KeyValueStorage, base?: string) => (await store.getKeys(base)).sort();

/** The error `fn` rejects with (fails when it resolves). */
async function rejection(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new assert.Assertion({ message: 'expected a rejection', operator: 'rejects', expects: 'an error', actual: 'resolved' });
}

/**
 * Registers and runs the suite for one driver. `makeStorage` opens a new instance on the SAME backing
 * store every time it is called (same directory, same Redis prefix, same memory map): the suite opens a
 * second one to check what one instance writes, another reads. Every instance is disposed at the end.
 * @example
 * driverSuite('fs', () => openStorage({ home }), { keyUnderKey: 'refused' })
 */
export function driverSuite(name: string, makeStorage: () => Promise<Storages>, traits: DriverTraits): void {
  const test = suite(`storage driver: ${name}`);
  const opened: Storages[] = [];
  let storage: Storages;
  let cloud: KeyValueStorage;
  const open = async () => {
    const s = await makeStorage();
    opened.push(s);
    return s;
  };

  test.before(async () => {
    storage = await open();
    cloud = storage.cloud;
  });
  test.before.each(() => cloud.clear());
  test.after(async () => {
    await cloud.clear();
    await Promise.all(opened.map((s) => s.dispose()));
  });

  test('an empty store: nothing is there, nothing is listed, clear is harmless', async () => {
    assert.is(await cloud.hasItem('s1:a'), false);
    assert.is(await cloud.getItem('s1:a'), null);
    assert.is(await cloud.getItemRaw('s1:a'), null);
    assert.equal(await cloud.getKeys(), []);
    await cloud.clear();
    await cloud.clear('s1');
    assert.equal(await cloud.getKeys(), []);
  });

  test('setItem, getItem, hasItem, removeItem; removing an absent key is no error', async () => {
    await cloud.setItem('s1:a', 'first');
    await cloud.setItem('s2:a', 'second');
    assert.is(await cloud.hasItem('s1:a'), true);
    assert.is(await cloud.getItem('s1:a'), 'first');
    await cloud.setItem('s1:a', 'replaced');
    assert.is(await cloud.getItem('s1:a'), 'replaced');
    await cloud.removeItem('s1:a');
    assert.is(await cloud.hasItem('s1:a'), false);
    assert.is(await cloud.getItem('s1:a'), null);
    await cloud.removeItem('s1:a');
    assert.equal(await keysOf(cloud), ['s2:a']);
  });

  test('values keep their JSON shape: objects, arrays, numbers, booleans, text, toJSON', async () => {
    const values: Record<string, unknown> = {
      object: { nested: { list: [1, 'two', { three: 3 }] }, empty: {} },
      array: [0, null, 'x'],
      zero: 0,
      float: -1.5,
      yes: true,
      no: false,
      text: 'plain words',
      lines: 'line one\nline "two"\ttabbed',
      unicode: 'été 鍵 🔑',
    };
    await Promise.all(Object.entries(values).map(([k, v]) => cloud.setItem(`v:${k}`, v)));
    for (const [k, v] of Object.entries(values)) assert.equal(await cloud.getItem(`v:${k}`), v, k);
    await cloud.setItem('v:date', new Date('2024-01-02T03:04:05.000Z'));
    assert.is(await cloud.getItem('v:date'), '2024-01-02T03:04:05.000Z');
    await cloud.setItem('v:custom', { toJSON: () => ({ serialized: true }) });
    assert.equal(await cloud.getItem('v:custom'), { serialized: true });
  });

  test('a value that has no JSON form is refused and nothing is written', async () => {
    class Opaque {
      secret = 1;
    }
    const err = await rejection(() => cloud.setItem('bad', new Opaque()));
    assert.match(err.message, /stringify/i);
    assert.is(await cloud.hasItem('bad'), false);
  });

  test('raw values keep every byte (0-255) and their length', async () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    await cloud.setItemRaw('raw:all', bytes);
    const back = await cloud.getItemRaw<Uint8Array>('raw:all');
    assert.ok(back, 'read back');
    assert.is(back!.byteLength, 256);
    assert.ok(Buffer.from(back!).equals(Buffer.from(bytes)), 'same bytes');
    const big = Buffer.alloc(300 * 1024, 0xfe);
    await cloud.setItemRaw('raw:big', big);
    assert.ok(Buffer.from((await cloud.getItemRaw<Uint8Array>('raw:big'))!).equals(big), 'large value');
  });

  test('getItems answers in the order asked, null for absent keys', async () => {
    await cloud.setItem('g:a', 'A');
    await cloud.setItem('g:b', { b: 2 });
    const items = await cloud.getItems(['g:b', 'g:missing', 'g:a']);
    assert.equal(items, [
      { key: 'g:b', value: { b: 2 } },
      { key: 'g:missing', value: null },
      { key: 'g:a', value: 'A' },
    ]);
  });

  test('getKeys under a base takes whole segments, at any depth, whatever the write order', async () => {
    const keys = ['ns1:a', 'ns1:deep:er:b', 'ns10:a', 'ns1x', 'other:ns1:a', 'top'];
    for (const key of [...keys].reverse()) await cloud.setItem(key, key);
    assert.equal(await keysOf(cloud), [...keys].sort());
    assert.equal(await keysOf(cloud, 'ns1'), ['ns1:a', 'ns1:deep:er:b']);
    assert.equal(await keysOf(cloud, 'ns1:'), ['ns1:a', 'ns1:deep:er:b']);
    assert.equal(await keysOf(cloud, 'ns1:deep'), ['ns1:deep:er:b']);
    assert.equal(await keysOf(cloud, 'n'), [], 'a partial segment names no base');
    assert.equal(await keysOf(cloud, 'absent'), []);
  });

  test('clear(base) removes whole segments only; clear() removes everything', async () => {
    for (const key of ['ns1:a', 'ns1:b:c', 'ns10:a', 'ns1x', 'other:a']) await cloud.setItem(key, 1);
    await cloud.clear('ns1');
    assert.equal(await keysOf(cloud), ['ns10:a', 'ns1x', 'other:a']);
    assert.is(await cloud.hasItem('ns1:b:c'), false);
    await cloud.setItem('ns1:again', 2);
    assert.is(await cloud.getItem('ns1:again'), 2, 'a cleared base takes new keys');
    await cloud.clear();
    assert.equal(await cloud.getKeys(), []);
  });

  test('a prefixed view reads, lists and clears only under its prefix', async () => {
    const kv = storage.view('cloud', 'kv:data');
    const sibling = storage.view('cloud', 'kv:database');
    await kv.setItem('ns1:a', { v: 1 });
    await kv.setItem('ns10:a', { v: 10 });
    await sibling.setItem('ns1:a', { v: 'sibling' });
    assert.equal(await cloud.getItem('kv:data:ns1:a'), { v: 1 });
    assert.equal(await keysOf(kv), ['ns10:a', 'ns1:a']);
    assert.equal(await keysOf(kv, 'ns1'), ['ns1:a']);
    assert.equal(await kv.getItems(['ns10:a']), [{ key: 'ns10:a', value: { v: 10 } }]);
    await kv.clear('ns1');
    assert.equal(await keysOf(kv), ['ns10:a']);
    await kv.clear();
    assert.equal(await keysOf(cloud), ['kv:database:ns1:a']);
    assert.equal(await sibling.getItem('ns1:a'), { v: 'sibling' });
  });

  test('unicode keys are stored, listed and removed as written', async () => {
    const keys = ['ünï:κλειδί', 'ünï:鍵', 'ünï:emoji🔑', 'ünï:e\u0301t\u00e9'];
    for (const key of keys) await cloud.setItem(key, key);
    for (const key of keys) assert.is(await cloud.getItem(key), key);
    assert.equal(await keysOf(cloud, 'ünï'), [...keys].sort());
    await cloud.removeItem('ünï:鍵');
    assert.is(await cloud.hasItem('ünï:鍵'), false);
    assert.is((await cloud.getKeys('ünï')).length, 3);
  });

  test('user-given key parts go through encodeKeyPart: separators, dots, queries and long parts survive', async () => {
    const parts = ['a/b?c=1', 'x:y', '..', '.', '.hidden', 'with space', '%41', '*~!()', 'Ünï 鍵', 'l'.repeat(300)];
    const ns = storage.view('cloud', 'enc');
    for (const part of parts) await ns.setItem(encodeKeyPart(part), { part });
    for (const part of parts) assert.equal(await ns.getItem(encodeKeyPart(part)), { part }, part);
    const listed = await ns.getKeys();
    assert.is(listed.length, parts.length, 'one key per part, none split or merged');
    const decoded = listed.map(decodeKeyPart);
    assert.equal(decoded.filter((p) => p !== null).sort(), parts.filter((p) => p.length < 300).sort());
    assert.is(decoded.filter((p) => p === null).length, 1, 'the long part is hashed');
  });

  test('a key beneath a key that holds a value', async () => {
    await cloud.setItem('a', 'parent');
    if (traits.keyUnderKey === 'kept') {
      await cloud.setItem('a:b', 'child');
      assert.equal([await cloud.getItem('a'), await cloud.getItem('a:b')], ['parent', 'child']);
      assert.equal(await keysOf(cloud), ['a', 'a:b']);
      return;
    }
    const err = await rejection(() => cloud.setItem('a:b', 'child'));
    assert.match(err.message, '"a:b"');
    assert.is(await cloud.getItem('a'), 'parent', 'the existing value is kept');
    await cloud.setItem('c:d', 'child');
    assert.match((await rejection(() => cloud.setItem('c', 'parent'))).message, '"c"');
    assert.equal(await keysOf(cloud), ['a', 'c:d']);
  });

  test('a reader never sees a torn value while writers replace it', async () => {
    const other = (await open()).cloud;
    const pad = 'p'.repeat(256 * 1024);
    await cloud.setItem('hot', { n: -1, pad });
    let writing = true;
    const writers = Promise.all(Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; i < 6; i++) await cloud.setItem('hot', { n: w * 10 + i, pad });
    })).finally(() => (writing = false));
    let reads = 0;
    while (writing || reads < 5) {
      const value = await other.getItem<{ n: number; pad: string }>('hot');
      assert.type(value, 'object', 'a whole JSON record');
      assert.is(value!.pad.length, pad.length);
      reads++;
    }
    await writers;
    const last = (await other.getItem<{ n: number }>('hot'))!.n;
    assert.ok([5, 15, 25, 35].includes(last), `the last write of some writer wins, got ${last}`);
  });

  test('a second instance on the same backing store sees writes, removals and clears of the first', async () => {
    const other = await open();
    await storage.view('cloud', 'shared').setItem('k', { from: 'first' });
    await cloud.setItemRaw('shared:bytes', new Uint8Array([0, 255]));
    assert.equal(await other.view('cloud', 'shared').getItem('k'), { from: 'first' });
    assert.ok(Buffer.from((await other.cloud.getItemRaw<Uint8Array>('shared:bytes'))!).equals(Buffer.from([0, 255])));
    assert.equal(await keysOf(other.cloud, 'shared'), ['shared:bytes', 'shared:k']);
    await other.cloud.removeItem('shared:k');
    assert.is(await cloud.hasItem('shared:k'), false);
    await other.view('cloud', 'shared').clear();
    assert.equal(await cloud.getKeys('shared'), []);
  });

  test('setItemIfAbsent: of many writers at once on two instances, through views, exactly one writes the key', async () => {
    const other = await open();
    const views = [storage.view('cloud', 'claims'), other.view('cloud', 'claims')];
    const won = await Promise.all(Array.from({ length: 40 }, (_, i) => views[i % 2].setItemIfAbsent!('wf_1:7', `writer ${i}`)));
    assert.is(won.filter(Boolean).length, 1, `${won.filter(Boolean).length} writers created the key`);
    assert.is(await cloud.getItem('claims:wf_1:7'), `writer ${won.indexOf(true)}`);
    assert.equal(await keysOf(cloud, 'claims'), ['claims:wf_1:7'], 'listed like any key, no temporary file left');
    // On the mount itself (no view) too; a new key is still free.
    assert.is(await setItemIfAbsent(cloud, 'claims:wf_1:7', 'late'), false);
    assert.is(await setItemIfAbsent(other.cloud, 'claims:wf_1:8', 'next'), true);
    assert.is(await cloud.getItem('claims:wf_1:8'), 'next');
  });

  test.run();
}
