import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkConfig } from '../../src/config.js';
import { createWeir } from '../../src/weir.js';
import { ROOT, cli, tmpDir, writeJson } from '../_utils.js';

/** A home whose weir.config.json is `config`, and the CLI's answer to a command that reads it. */
async function withConfig(config: unknown, args = ['workflows', 'list']) {
  const home = tmpDir();
  const file = writeJson(home, 'weir.config.json', config);
  return { file, r: await cli(args, { home }) };
}

test('a misspelt top-level key: exit 1 naming the file and the key, with the likely one', async () => {
  const { file, r } = await withConfig({ publicURL: 'https://weir.example.com' });
  assert.is(r.code, 1);
  assert.match(r.stderr, `${file}: publicURL: unknown key (did you mean "publicUrl"?)`);
});

test('a wrong type and an unknown nested key: exit 1 naming each key path and the file', async () => {
  const wrong = await withConfig({ sandbox: { cpuMs: '500' } });
  assert.is(wrong.r.code, 1);
  assert.match(wrong.r.stderr, `${wrong.file}: sandbox.cpuMs: must be an integer, got "500"`);
  const nested = await withConfig({ queue: { driver: 'bullmq', concurency: 4 } });
  assert.is(nested.r.code, 1);
  assert.match(nested.r.stderr, `${nested.file}: queue.concurency: unknown key (did you mean "concurrency"?)`);
});

test('every problem is listed at once, in text and in --json details', async () => {
  const config = { tables: { driver: 'mysql' }, network: { deny: ['10.0.0.0/8', 7] }, providers: { twilio: { baseUrl: 'ftp://x' } }, storage: { cloud: {} } };
  const { file, r } = await withConfig(config, ['workflows', 'list', '--json']);
  assert.is(r.code, 1);
  const { error } = JSON.parse(r.stderr);
  assert.is(error.code, 'INVALID_CONFIG');
  assert.equal(error.details.map((p: { path: string }) => p.path), ['tables.driver', 'network.deny[1]', 'providers.twilio.baseUrl', 'storage.cloud.driver']);
  const lines = error.message.split('\n');
  assert.is(lines.length, 4);
  for (const line of lines) assert.ok(line.startsWith(`${file}: `), line);
  assert.match(error.message, 'tables.driver: must be one of sqlite, postgres, got "mysql"');
  assert.match(error.message, 'storage.cloud.driver: is required');
});

test('a storage mount passes its driver options through; a valid config runs commands', async () => {
  const home = tmpDir();
  writeJson(home, 'weir.config.json', {
    $schema: '../node_modules/weir/schema/config.schema.json',
    storage: { cloud: { driver: 'fs', base: 'shared', anyDriverOption: { nested: true } } },
    executions: { retentionDays: 7 },
    sandbox: { cpuMs: 500, workers: 2 },
    intake: { maxCrashes: 3 },
  });
  const r = await cli(['workflows', 'list', '--json'], { home });
  assert.is(r.code, 0, r.stderr);
  assert.equal(r.json(), []);
});

test('createWeir checks a config object the same way, before it opens anything', async () => {
  try {
    await createWeir({ config: { tables: { driver: 'sqlite', maxRow: 10 } } as never });
    assert.unreachable('a bad config must be refused');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'INVALID_CONFIG');
    assert.match((err as Error).message, 'createWeir options.config: tables.maxRow: unknown key (did you mean "maxRows"?)');
  }
});

const CONFIG_KEYS = ['storage', 'tables', 'queue', 'cluster', 'publicUrl', 'network', 'env', 'executions', 'sandbox', 'providers', 'project', 'intake', 'webhook', 'metrics'];

test('every weir.config.json example in docs/*.md is valid', () => {
  const docs = join(ROOT, 'docs');
  let seen = 0;
  for (const name of readdirSync(docs).filter((f) => f.endsWith('.md'))) {
    for (const [, text] of readFileSync(join(docs, name), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        continue; // a shape sketched with "..." is not a file to validate
      }
      if (!value || typeof value !== 'object' || !Object.keys(value).some((k) => CONFIG_KEYS.includes(k))) continue;
      seen++;
      checkConfig(value, `docs/${name}`);
    }
  }
  assert.ok(seen >= 3, `found ${seen} config examples`);
});

test('the shipped schema is exported and lists every key of the full example', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.is(pkg.exports['./schema/config.schema.json'], './schema/config.schema.json');
  const schema = JSON.parse(readFileSync(join(ROOT, 'schema/config.schema.json'), 'utf8'));
  assert.equal(Object.keys(schema.properties).filter((k) => k !== '$schema').sort(), [...CONFIG_KEYS].sort());
});

test.run();
