import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fails, failsJson, home, ok, seed } from '../_helpers.js';

test('namespaces: init, list, get by name or id, duplicate names refused, delete', async () => {
  const { weir } = home();
  const ns = ok(await weir('data', 'kv', 'init', 'sessions', 'Login sessions', '--json')).json();
  assert.match(ns.id, /^kv_/);
  assert.equal([ns.name, ns.description], ['sessions', 'Login sessions']);
  fails(await weir('data', 'kv', 'init', 'sessions'), 'a KV namespace named "sessions" already exists');
  ok(await weir('data', 'kv', 'init', 'cache'));
  assert.equal(ok(await weir('data', 'kv', 'list', '--json')).json().map((n: any) => n.name), ['cache', 'sessions']);
  assert.match(ok(await weir('data', 'kv', 'list')).stdout, /NAME\s+ID\s+DESCRIPTION\s+CREATEDAT\ncache\s+kv_\w+\s+-/);
  ok(await weir('data', 'kv', 'set', ns.id, 'k', 'v'));
  assert.is(ok(await weir('data', 'kv', 'get', 'sessions', 'k')).stdout, 'v\n');
  assert.match(ok(await weir('data', 'kv', 'delete', 'sessions')).stdout, 'deleted KV namespace sessions');
  failsJson(await weir('data', 'kv', 'keys', ns.id, '--json'), 'NOT_FOUND');
  // A namespace made again under the same name starts empty.
  ok(await weir('data', 'kv', 'init', 'sessions'));
  assert.equal(ok(await weir('data', 'kv', 'keys', 'sessions', '--json')).json(), []);
});

test('values are strings kept exactly; JSON text stays as given; keys may hold any characters', async () => {
  const { weir } = home();
  ok(await weir('data', 'kv', 'init', 'ns'));
  const pairs: [string, string][] = [
    ['user:1', '{"cart": [1, 2],   "spaces":  true}'],
    ['path/like/key', '123'],
    ['q?x=1#frag', 'null'],
    ['..', '"quoted"'],
    ['ünï 😀', 'line1\nline2'],
    ['k'.repeat(300), 'long key'],
    ['empty', ''],
  ];
  (await Promise.all(pairs.map(([k, v]) => weir('data', 'kv', 'set', 'ns', k, v)))).forEach((r, i) => ok(r, pairs[i][0]));
  const got = await Promise.all(pairs.map(([k]) => weir('data', 'kv', 'get', 'ns', k, '--json')));
  got.forEach((r, i) => assert.equal(ok(r).json(), { namespace: 'ns', key: pairs[i][0], value: pairs[i][1] }, pairs[i][0]));
  assert.is(ok(await weir('data', 'kv', 'get', 'ns', 'path/like/key')).stdout, '123\n');
  assert.equal(ok(await weir('data', 'kv', 'keys', 'ns', '--json')).json(), pairs.map(([k]) => k).sort());
  ok(await weir('data', 'kv', 'set', 'ns', 'path/like/key', 'replaced'));
  assert.is(ok(await weir('data', 'kv', 'get', 'ns', 'path/like/key')).stdout, 'replaced\n');
});

test('missing keys and namespaces exit 1; delete-key removes a key', async () => {
  const { weir } = home();
  ok(await weir('data', 'kv', 'init', 'ns'));
  ok(await weir('data', 'kv', 'set', 'ns', 'a', '1'));
  fails(await weir('data', 'kv', 'get', 'ns', 'nope'), 'key "nope" not found in KV namespace "ns"');
  failsJson(await weir('data', 'kv', 'get', 'ns', 'nope', '--json'), 'NOT_FOUND');
  fails(await weir('data', 'kv', 'get', 'kv_nothere', 'a'), 'KV namespace "kv_nothere" not found');
  fails(await weir('data', 'kv', 'set', 'other', 'a', '1'), 'KV namespace "other" not found');
  assert.equal(ok(await weir('data', 'kv', 'delete-key', 'ns', 'a', '--json')).json(), { namespace: 'ns', key: 'a', deleted: true });
  fails(await weir('data', 'kv', 'delete-key', 'ns', 'a'), 'key "a" not found');
  fails(await weir('data', 'kv', 'set', 'ns', '', 'x'), 'a KV key must be a non-empty string');
  const usage = await weir('data', 'kv', 'set', 'ns', 'a');
  assert.is(usage.code, 2);
});

test('export then import round-trips every key and value (to a file and through stdout)', async () => {
  const { dir, weir } = home();
  ok(await weir('data', 'kv', 'init', 'src'));
  ok(await weir('data', 'kv', 'init', 'dst'));
  const values: Record<string, string> = { 'a:b/c': '{"x": [1,2]}', 'ünï': '😀', '..': '', n: '42', nl: 'a\nb\r\n', q: '"\\' };
  await seed(dir, async (weir) => {
    for (const [k, v] of Object.entries(values)) await weir.kv.setValue('src', k, v);
  });
  assert.match(ok(await weir('data', 'kv', 'export', 'src', 'out.json')).stdout, 'exported 6 keys to out.json');
  assert.equal(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')), values);
  assert.equal(JSON.parse(ok(await weir('data', 'kv', 'export', 'src')).stdout), values);
  assert.equal(ok(await weir('data', 'kv', 'export', 'src', '--json')).json(), values);
  assert.equal(ok(await weir('data', 'kv', 'import', 'dst', 'out.json', '--json')).json(), { namespace: 'dst', imported: 6 });
  assert.equal(ok(await weir('data', 'kv', 'export', 'dst', '--json')).json(), values);
});

test('import refuses malformed JSON and non-objects; non-string values are stored as JSON text', async () => {
  const { dir, weir } = home();
  ok(await weir('data', 'kv', 'init', 'ns'));
  writeFileSync(join(dir, 'broken.json'), '{"a": ');
  writeFileSync(join(dir, 'array.json'), '["a"]');
  writeFileSync(join(dir, 'mixed.json'), '{"n": 1, "o": {"a": true}, "s": "text"}');
  fails(await weir('data', 'kv', 'import', 'ns', 'broken.json'), 'broken.json is not valid JSON');
  fails(await weir('data', 'kv', 'import', 'ns', 'array.json'), 'a KV import must be a JSON object');
  fails(await weir('data', 'kv', 'import', 'ns', 'none.json'), 'file not found: none.json');
  assert.equal(ok(await weir('data', 'kv', 'keys', 'ns', '--json')).json(), []);
  ok(await weir('data', 'kv', 'import', 'ns', 'mixed.json'));
  assert.equal(ok(await weir('data', 'kv', 'export', 'ns', '--json')).json(), { n: '1', o: '{"a":true}', s: 'text' });
});

test.run();
