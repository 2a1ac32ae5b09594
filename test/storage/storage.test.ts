import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStorage, type KeyValueStorage } from '../../src/storage/index.js';
import { ROOT, cli, tmpDir, writeJson } from '../_utils.js';

const lib = join(ROOT, 'dist/index.js').replace(/^/, 'file://');

/** Runs a node script (ESM) in a child process with the built library. */
const script = (code: string) =>
  spawn(process.execPath, ['--input-type=module', '-e', `import * as weir from ${JSON.stringify(lib)};\n${code}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });

const exited = (child: ReturnType<typeof spawn>) => new Promise<number | null>((r) => child.on('close', (code) => r(code)));

test('the fs driver keeps every record whole when its writer is killed mid-write', async () => {
  const home = tmpDir();
  // Large records make a torn write likely if writes were not atomic.
  const child = script(`
    const s = (await weir.createWeir({ home: ${JSON.stringify(home)} })).storage;
    const v = s.view('cloud', 'records');
    const big = 'x'.repeat(512 * 1024);
    let n = 0;
    for (;;) {
      await Promise.all(Array.from({ length: 8 }, (_, k) => v.setItem('r' + k, { n, k, big })));
      if (++n === 3) process.stdout.write('writing\\n');
    }
  `);
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  child.kill('SIGKILL');
  await exited(child);
  const dir = join(home, 'cloud', 'records');
  const files = readdirSync(dir).filter((f) => !f.endsWith('.tmp'));
  assert.is(files.length, 8);
  for (const f of files) {
    const record = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    assert.is(record.big.length, 512 * 1024, f);
  }
  const storage = await openStorage({ home });
  assert.equal((await storage.view('cloud', 'records').getKeys()).sort(), files.sort(), 'temp files are not listed');
});

test('two processes writing 200 records each at once lose none', async () => {
  const home = tmpDir();
  const writer = (tag: string) =>
    script(`
      const w = await weir.createWeir({ home: ${JSON.stringify(home)} });
      for (let i = 0; i < 200; i += 20) {
        await Promise.all(Array.from({ length: 20 }, (_, k) => w.workflows.create('${tag}-' + (i + k))));
      }
      await w.close();
    `);
  const codes = await Promise.all([exited(writer('a')), exited(writer('b'))]);
  assert.equal(codes, [0, 0]);
  const { createWeir } = await import('../../src/weir.js');
  const weir = await createWeir({ home });
  const names = new Set((await weir.workflows.list()).map((w) => w.name));
  assert.is(names.size, 400);
  for (let i = 0; i < 200; i++) assert.ok(names.has(`a-${i}`) && names.has(`b-${i}`), `record ${i}`);
});

test('two CLI processes importing 200 keys each into one namespace at once lose none', async () => {
  const home = tmpDir();
  assert.is((await cli(['data', 'kv', 'init', 'shared'], { home })).code, 0);
  const batch = (tag: string) => Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`${tag}-${i}`, JSON.stringify({ tag, i })]));
  const files = ['a', 'b'].map((tag) => writeJson(home, `${tag}.json`, batch(tag)));
  const runs = await Promise.all(files.map((f) => cli(['data', 'kv', 'import', 'shared', f], { home })));
  assert.equal(runs.map((r) => r.code), [0, 0], runs.map((r) => r.stderr).join('\n'));
  const keys = (await cli(['data', 'kv', 'keys', 'shared', '--json'], { home })).json();
  assert.is(keys.length, 400);
  const exported = (await cli(['data', 'kv', 'export', 'shared', '--json'], { home })).json();
  assert.equal(exported, { ...batch('a'), ...batch('b') });
});

test('keys that try to leave the mount are refused', async () => {
  const storage = await openStorage({ home: tmpDir() });
  await assert.not.throws(() => storage.cloud.setItem('ok:key', { a: 1 }));
  try {
    await storage.cloud.setItem('a:..:..:escape', { a: 1 });
    assert.unreachable('should refuse');
  } catch (err) {
    assert.match((err as Error).message, /Invalid key|escapes/);
  }
});

test('a driver named in weir.config.json is used; an unknown one is a clear error', async () => {
  const memory = await openStorage({ config: { storage: { cloud: { driver: 'memory' } } }, home: tmpDir() });
  await memory.cloud.setItem('k', { v: 1 });
  assert.equal(await memory.cloud.getItem('k'), { v: 1 });
  try {
    await openStorage({ config: { storage: { cloud: { driver: 'no-such-driver' } } }, home: tmpDir() });
    assert.unreachable('should fail');
  } catch (err) {
    assert.match((err as Error).message, 'unknown storage driver "no-such-driver"');
  }
});

/** A store of the host's own (no unstorage): methods on a prototype, values in a Map. */
class MapStore implements KeyValueStorage {
  readonly map = new Map<string, unknown>();
  async hasItem(key: string) { return this.map.has(key); }
  async getItem<T>(key: string) { return (this.map.get(key) ?? null) as T | null; }
  async getItems(keys: string[]) { return keys.map((key) => ({ key, value: this.map.get(key) ?? null })); }
  async setItem(key: string, value: unknown) { this.map.set(key, structuredClone(value)); }
  async getItemRaw<T>(key: string) { return (this.map.get(key) ?? null) as T | null; }
  async setItemRaw(key: string, value: unknown) { this.map.set(key, value); }
  async removeItem(key: string) { this.map.delete(key); }
  async getKeys(base = '') { return [...this.map.keys()].filter((k) => k.startsWith(base)); }
  async clear(base = '') { for (const k of await this.getKeys(base)) this.map.delete(k); }
  async dispose() {}
}

test('any object with the KeyValueStorage methods serves as a mount', async () => {
  const { createWeir } = await import('../../src/weir.js');
  const [local, cloud] = [new MapStore(), new MapStore()];
  const weir = await createWeir({ storage: { local, cloud } });
  const { id } = await weir.workflows.create('own-store');
  await weir.workflows.publish(id);
  assert.ok(local.map.has(`workflows:${id}`), [...local.map.keys()].join(', '));
  assert.ok(cloud.map.has(`workflows:${id}`));
  assert.equal((await weir.workflows.list()).map((w) => [w.name, w.status]), [['own-store', 'synced']]);
  await weir.kv.init('ns');
  await weir.kv.setValue('ns', 'a', 'x');
  assert.is(await weir.kv.getValue('ns', 'a'), 'x');
  await weir.kv.delete('ns');
  assert.is(await weir.kv.getValue('ns', 'a').catch(() => 'gone'), 'gone');
  assert.equal([...cloud.map.keys()].filter((k) => k.startsWith('kv:data:')), [], 'clear went through the view');
  await weir.close();
});

test('a view refuses an empty key; dir() names the fs mount directories only', async () => {
  const home = tmpDir();
  const fs = await openStorage({ home });
  assert.is(fs.dir('cloud'), join(home, 'cloud'));
  assert.is(fs.dir('local'), join(home, 'local'));
  await fs.view('cloud', 'kv').setItem('k', 1);
  assert.equal(await fs.cloud.getItem('kv:k'), 1);
  try {
    await fs.view('cloud', 'kv').getItem('');
    assert.unreachable('should refuse');
  } catch (err) {
    assert.match((err as Error).message, 'invalid storage key');
  }
  const memory = await openStorage({});
  assert.is(memory.dir('cloud'), undefined);
});

test.run();
