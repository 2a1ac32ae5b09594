// Every resource on the `cloud` mount in Redis (unstorage's redis driver), unchanged: two weir instances with
// their own homes share one Redis prefix, what one writes the other reads.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Readable } from 'node:stream';
import { createWeir, type Weir } from '../../src/index.js';
import { flow } from '../_utils.js';
import { clusterConfig, clusterHome, dropRedisPrefix, MASTER_KEY, REDIS_URL, uniqueName, weirCli } from './_scale.js';

const prefix = uniqueName('storage');
const spec = { prefix };
const homes = [clusterHome(spec), clusterHome(spec)];
let a: Weir;
let b: Weir;

test.before(async () => {
  const env = { ...process.env, WEIR_MASTER_KEY: MASTER_KEY };
  [a, b] = await Promise.all(homes.map((home) => createWeir({ home, config: clusterConfig(spec), env })));
});

test.after(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await dropRedisPrefix(prefix);
});

test('the cloud mount is Redis: records land under the configured prefix', async () => {
  await a.kv.init('probe');
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:kv:*`);
  redis.disconnect();
  assert.ok(keys.length >= 1, `no kv keys under ${prefix}`);
});

test('workflows published on one home are found, synced and unpublished from another', async () => {
  const { id } = await a.workflows.create('shared-flow', 'made on A');
  await a.workflows.save(id, flow({ type: 'manual_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { ok: true } } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }]));
  await a.workflows.publish(id);
  assert.is((await b.workflows.findPublished('shared-flow'))?.id, id);
  const synced = await b.workflows.sync();
  assert.ok(synced.workflows.some((w) => w.id === id && w.status === 'synced'));
  assert.is(await b.workflows.idForToken((await a.workflows.get(id)).webhookToken), id);
  await a.workflows.delete(id, { unpublish: true });
  assert.is(await b.workflows.findPublished(id), null);
});

test('executions run on one instance are listed and read on the other', async () => {
  const { id } = await a.workflows.create('exec-flow');
  await a.workflows.save(id, flow({ type: 'manual_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { twice: '{{ $input.n * 2 }}' } } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }]));
  await a.workflows.publish(id);
  const record = await a.run(id, { n: 21 }, { published: true });
  assert.is(record.status, 'success');
  assert.equal((await b.executions.get(record.id)).result, { twice: 42 });
  assert.equal((await b.executions.list({ workflowId: id })).map((r) => r.id), [record.id]);
});

test('KV namespaces, values, export and import are shared', async () => {
  await a.kv.init('sessions', 'carts');
  await a.kv.setValue('sessions', 'user:1', '{"cart":[1,2]}');
  await a.kv.setValue('sessions', 'a/b?c', 'slashes and ?');
  assert.is(await b.kv.getValue('sessions', 'user:1'), '{"cart":[1,2]}');
  assert.equal(await b.kv.keys('sessions'), ['a/b?c', 'user:1']);
  const dump = await b.kv.export('sessions');
  await b.kv.init('copy');
  await b.kv.import('copy', dump);
  assert.equal(await a.kv.export('copy'), dump);
  assert.ok(await a.kv.deleteKey('sessions', 'user:1'));
  assert.is(await b.kv.getValue('sessions', 'user:1'), null);
});

test('secrets sealed on one host open on another with the same master key, and never show in listings', async () => {
  await a.secrets.set('API_TOKEN', 's3cr3t-value');
  assert.is(await b.secrets.get('API_TOKEN'), 's3cr3t-value');
  assert.equal((await b.secrets.list()).map((s) => s.name), ['API_TOKEN']);
  assert.is((await b.secrets.values()).API_TOKEN, 's3cr3t-value');
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL);
  const raw = (await Promise.all((await redis.keys(`${prefix}:secrets*`)).map((k) => redis.get(k)))).join('\n');
  redis.disconnect();
  assert.not.match(raw, 's3cr3t-value');
});

test('objects keep their bytes (binary included) and metadata', async () => {
  const bytes = Buffer.from([0, 1, 2, 250, 255, 10, 13, 0]);
  await a.objects.put('reports/2024/jan.bin', Readable.from([bytes]), { contentType: 'application/octet-stream' });
  const got = await b.objects.get('reports/2024/jan.bin');
  assert.ok(Buffer.compare(got.body, bytes) === 0, 'same bytes');
  assert.is(got.size, bytes.length);
  assert.equal((await b.objects.list('reports/')).map((o) => o.key), ['reports/2024/jan.bin']);
  await b.objects.remove('reports/2024/jan.bin');
  assert.equal(await a.objects.list('reports/'), []);
});

test('knowledge folders, documents and search are shared', async () => {
  const folder = await a.knowledge.createFolder('policies');
  const doc = await a.knowledge.upload({ name: 'refunds.md', data: Readable.from([Buffer.from('# Refunds\nRefunds are paid within 14 days.')]) }, folder.id);
  assert.match((await b.knowledge.get(doc.id)).content ?? '', 'within 14 days');
  const hits = await b.knowledge.search('refunds');
  assert.is(hits[0]?.id, doc.id);
  assert.ok((await b.knowledge.listFolders()).some((f) => f.id === folder.id));
});

test('agents and capture sessions are shared', async () => {
  await a.agents.create('helper', 'Helper', 'answers questions', { prompt: 'Be brief.' });
  assert.is(await b.agents.getPrompt('helper'), 'Be brief.');
  const { id } = await a.workflows.create('capture-flow', undefined, { publish: true });
  await a.capture.listen(id);
  assert.is((await b.capture.poll(id)).state, 'listening');
  await b.capture.decline(id);
  assert.is((await a.capture.poll(id)).state, 'idle');
});

test('the CLI works on a Redis home: secrets set in one home are read in another', async () => {
  const set = await weirCli(homes[0], ['secrets', 'set', 'CLI_SECRET', 'v-1']);
  assert.is(set.code, 0, set.stderr);
  const got = await weirCli(homes[1], ['secrets', 'get', 'CLI_SECRET']);
  assert.is(got.code, 0, got.stderr);
  assert.is(got.stdout.trim(), 'v-1');
});

test.run();
