import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { cli } from '../../_utils.js';
import { fails, failsJson, filesContaining, filesUnder, home, ok } from '../_helpers.js';

test('set, get, list (names only), delete', async () => {
  const { weir } = home();
  const value = `sk_live_${randomBytes(12).toString('hex')}`;
  ok(await weir('secrets', 'set', 'STRIPE_KEY', value));
  ok(await weir('secrets', 'set', 'API_TOKEN', 'second'));
  assert.is(ok(await weir('secrets', 'get', 'STRIPE_KEY')).stdout, `${value}\n`);
  assert.equal(ok(await weir('secrets', 'get', 'STRIPE_KEY', '--json')).json(), { name: 'STRIPE_KEY', value });
  const list = ok(await weir('secrets', 'list', '--json'));
  assert.equal(list.json().map((s: any) => Object.keys(s).sort()), [['createdAt', 'name', 'updatedAt'], ['createdAt', 'name', 'updatedAt']]);
  assert.equal(list.json().map((s: any) => s.name), ['API_TOKEN', 'STRIPE_KEY']);
  const text = ok(await weir('secrets', 'list')).stdout;
  assert.match(text, /NAME\s+UPDATEDAT\nAPI_TOKEN/);
  assert.not.match(text + list.stdout, value);
  assert.not.match(text + list.stdout, 'second');
  ok(await weir('secrets', 'set', 'STRIPE_KEY', 'rotated'));
  assert.is(ok(await weir('secrets', 'get', 'STRIPE_KEY')).stdout, 'rotated\n');
  ok(await weir('secrets', 'delete', 'STRIPE_KEY'));
  fails(await weir('secrets', 'get', 'STRIPE_KEY'), 'secret "STRIPE_KEY" not found');
  failsJson(await weir('secrets', 'delete', 'STRIPE_KEY', '--json'), 'NOT_FOUND');
  fails(await weir('secrets', 'set', 'bad-name', 'x'), 'invalid secret name "bad-name"');
  fails(await weir('secrets', 'set', '1ST', 'x'), 'invalid secret name');
});

test('a secret\'s plaintext appears in no file under the home (nor as base64 or hex); the key file is 0600', async () => {
  const { dir, weir } = home();
  const value = `plain-${randomBytes(16).toString('hex')}-text`;
  ok(await weir('secrets', 'set', 'DB_PASSWORD', value));
  ok(await weir('secrets', 'set', 'OTHER', value));
  const files = filesUnder(dir);
  assert.ok(files.some((f) => f.includes(join('cloud', 'secrets'))), 'the secret is stored under the home');
  assert.equal(filesContaining(dir, value), []);
  assert.is(statSync(join(dir, 'master.key')).mode & 0o777, 0o600);
  // The same value sealed twice gives different ciphertexts (a fresh IV each time).
  assert.is(ok(await weir('secrets', 'get', 'OTHER')).stdout, `${value}\n`);
});

test('WEIR_MASTER_KEY (hex or base64) seals secrets; another key is a clear error, not garbage', async () => {
  const { dir } = home();
  const key = randomBytes(32);
  const run = (env: Record<string, string>, ...args: string[]) => cli(args, { home: dir, env });
  ok(await run({ WEIR_MASTER_KEY: key.toString('hex') }, 'secrets', 'set', 'TOKEN', 'abc'));
  assert.is(ok(await run({ WEIR_MASTER_KEY: key.toString('base64') }, 'secrets', 'get', 'TOKEN')).stdout, 'abc\n');
  assert.throws(() => statSync(join(dir, 'master.key')));
  fails(await run({ WEIR_MASTER_KEY: randomBytes(32).toString('hex') }, 'secrets', 'get', 'TOKEN'), 'secret "TOKEN" was sealed with another master key');
  fails(await run({}, 'secrets', 'get', 'TOKEN'), 'sealed with another master key');
  fails(await run({ WEIR_MASTER_KEY: 'too-short' }, 'secrets', 'get', 'TOKEN'), 'WEIR_MASTER_KEY must be 32 bytes');
  // Names are listed without any key.
  assert.equal(ok(await run({}, 'secrets', 'list', '--json')).json().map((s: any) => s.name), ['TOKEN']);
});

test('secrets reach flows as $env and are masked in execution records', async () => {
  const { dir, weir } = home();
  const value = `hush-${randomBytes(8).toString('hex')}`;
  ok(await weir('secrets', 'set', 'HOOK_SECRET', value));
  const wf = ok(await weir('workflows', 'create', 'uses-secret', '--json')).json();
  const { writeJson, flow } = await import('../../_utils.js');
  const config = flow({ type: 'manual_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { length: '{{ length($env.HOOK_SECRET) }}', echoed: '{{ $env.HOOK_SECRET }}' } } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }]);
  ok(await weir('workflows', 'save', wf.id, writeJson(dir, 'f.json', config)));
  const run = ok(await weir('workflows', 'run', wf.id, '--json')).json();
  assert.is(run.result.length, value.length);
  assert.not.match(JSON.stringify(run), value);
  assert.equal(filesContaining(dir, value), []);
});

test.run();
