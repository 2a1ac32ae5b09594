import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { createWeir } from '../../../src/weir.js';
import { cli } from '../../_utils.js';
import { fails, failsJson, filesUnder, home, ok } from '../_helpers.js';

test('put, ls, get, rm: content type from the extension, size, modified time, prefix listing', async () => {
  const { dir, weir } = home();
  writeFileSync(join(dir, 'q1.csv'), 'a,b\n1,2\n');
  writeFileSync(join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 1]));
  // Each `weir` is a process start: the puts of three keys at once, then every read at once.
  const puts = await Promise.all([
    weir('storage', 'put', 'reports/2024/q1.csv', 'q1.csv', '--json'),
    weir('storage', 'put', 'img/logo.png', 'logo.png'),
    weir('storage', 'put', 'raw', 'q1.csv', '--content-type', 'application/x-custom'),
  ]);
  const put = ok(puts[0]).json();
  assert.equal([put.key, put.size, put.contentType], ['reports/2024/q1.csv', 8, 'text/csv; charset=utf-8']);
  assert.match(put.sha256, /^[0-9a-f]{64}$/);
  ok(puts[1]);
  ok(puts[2]);
  const [listed, reports, img, q1, copied, logo] = await Promise.all([
    weir('storage', 'ls', '--json'),
    weir('storage', 'ls', 'reports/', '--json'),
    weir('storage', 'ls', 'img'),
    weir('storage', 'get', 'reports/2024/q1.csv'),
    weir('storage', 'get', 'img/logo.png', 'copy.png'),
    weir('storage', 'get', 'img/logo.png', '--json'),
  ]);
  const all = ok(listed).json();
  assert.equal(all.map((o: any) => [o.key, o.contentType]), [['img/logo.png', 'image/png'], ['raw', 'application/x-custom'], ['reports/2024/q1.csv', 'text/csv; charset=utf-8']]);
  for (const o of all) assert.ok(!Number.isNaN(Date.parse(o.modified)));
  assert.equal(ok(reports).json().map((o: any) => o.key), ['reports/2024/q1.csv']);
  assert.match(ok(img).stdout, /KEY\s+SIZE\s+CONTENTTYPE\s+MODIFIED\nimg\/logo\.png\s+7\s+image\/png/);
  assert.is(ok(q1).stdout, 'a,b\n1,2\n');
  ok(copied);
  assert.equal(readFileSync(join(dir, 'copy.png')), readFileSync(join(dir, 'logo.png')));
  const doc = ok(logo).json();
  assert.equal([doc.encoding, Buffer.from(doc.content, 'base64')], ['base64', readFileSync(join(dir, 'logo.png'))]);
  assert.equal(ok(await weir('storage', 'rm', 'raw', '--json')).json(), { key: 'raw', deleted: true });
  const [gone, rmAgain, noFile] = await Promise.all([weir('storage', 'get', 'raw'), weir('storage', 'rm', 'raw', '--json'), weir('storage', 'put', 'x', 'nofile.bin')]);
  fails(gone, 'object "raw" not found');
  failsJson(rmAgain, 'NOT_FOUND');
  fails(noFile, 'file not found: nofile.bin');
});

test('a key and a longer key under it are separate objects; put replaces', async () => {
  const { dir, weir } = home();
  writeFileSync(join(dir, 'a.txt'), 'A');
  writeFileSync(join(dir, 'b.txt'), 'B');
  ok(await weir('storage', 'put', 'a', 'a.txt'));
  ok(await weir('storage', 'put', 'a/b', 'b.txt'));
  const [a, ab] = await Promise.all([weir('storage', 'get', 'a'), weir('storage', 'get', 'a/b')]);
  assert.is(ok(a).stdout, 'A');
  assert.is(ok(ab).stdout, 'B');
  ok(await weir('storage', 'put', 'a', 'b.txt'));
  const [replaced, listed] = await Promise.all([weir('storage', 'get', 'a'), weir('storage', 'ls', '--json')]);
  assert.is(ok(replaced).stdout, 'B');
  assert.is(ok(listed).json().length, 2);
});

test('traversal and malformed keys exit 1 naming the rule, and nothing is written', async () => {
  const { dir, weir } = home();
  writeFileSync(join(dir, 'f.txt'), 'x');
  const before = filesUnder(dir).length;
  const keys = ['../escape', 'a/../../b', '/etc/passwd', 'a/./b', 'a//b', '..', '..\\win', ''];
  const runs = await Promise.all(keys.flatMap((key) => [weir('storage', 'put', key, 'f.txt'), weir('storage', 'get', key, '--json')]));
  keys.forEach((key, i) => {
    assert.match(fails(runs[2 * i], 'invalid storage key', key).stderr, /segments|must not|empty/, key);
    failsJson(runs[2 * i + 1], 'RULE', key);
  });
  assert.is(filesUnder(dir).length, before);
  // NUL cannot pass through argv: the library refuses it the same way.
  const weirLib = await createWeir({ home: dir });
  const err = await weirLib.objects.put('a\0b', 'x').catch((e) => e);
  await weirLib.close();
  assert.match(String(err?.message), 'NUL is not allowed');
});

const sha256File = async (file: string) => {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
};

test('large objects stream through without whole-file buffering (memory stays flat)', async () => {
  const { dir } = home();
  const writeRandom = (name: string, mb: number) => {
    const chunk = randomBytes(1024 * 1024);
    const fd = openSync(join(dir, name), 'w');
    for (let i = 0; i < mb; i++) writeSync(fd, chunk);
    closeSync(fd);
  };
  writeRandom('small.bin', 1);
  writeRandom('big.bin', 200);
  // Peak RSS sampled in the CLI process itself (getrusage's maxRSS of a child starts at its parent's size).
  const rss = join(dir, 'rss.cjs');
  writeFileSync(rss, `let max = 0; const sample = () => (max = Math.max(max, process.memoryUsage.rss()));
setInterval(sample, 5).unref(); process.on('exit', () => process.stderr.write('maxrss ' + Math.round(sample() / 1024) + '\\n'));`);
  const measured = async (args: string[]) => {
    const r = ok(await cli([...args, '--json'], { home: dir, env: { NODE_OPTIONS: `--require ${rss}` } }));
    const kb = Number(/maxrss (\d+)/.exec(r.stderr)?.[1]);
    assert.ok(kb > 0, `${args.join(' ')}: no peak RSS reported`);
    return { kb, json: r.json() };
  };
  // The same commands on a 1 MB object are the baseline: the CLI's own size differs by platform and Node
  // version, while buffering a 200 MB object would add at least 200 MB on top of it. Streaming leaves its
  // spent chunks to the garbage collector, which lets them pile up to tens of MB first.
  const base = await measured(['storage', 'put', 'small.bin', 'small.bin']);
  const put = await measured(['storage', 'put', 'big.bin', 'big.bin']);
  assert.is(put.json.size, 200 * 1024 * 1024);
  const baseGet = await measured(['storage', 'get', 'small.bin', 'small-back.bin']);
  const get = await measured(['storage', 'get', 'big.bin', 'back.bin']);
  const grew = (a: { kb: number }, b: { kb: number }) => Math.round((b.kb - a.kb) / 1024);
  assert.ok(grew(base, put) < 150, `storage put of 200 MB: peak RSS ${put.kb} KB, ${grew(base, put)} MB over the 1 MB put's ${base.kb} KB`);
  assert.ok(grew(baseGet, get) < 150, `storage get of 200 MB: peak RSS ${get.kb} KB, ${grew(baseGet, get)} MB over the 1 MB get's ${baseGet.kb} KB`);
  assert.is(await sha256File(join(dir, 'back.bin')), put.json.sha256);
  assert.is(await sha256File(join(dir, 'big.bin')), put.json.sha256);
});

test.run();
