import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fails, failsJson, home, ok } from '../_helpers.js';

test('list shows the built-in agents with id, name, type and category; get includes the system prompt', async () => {
  const { weir } = home();
  const list = ok(await weir('agent', 'list', '--json')).json();
  assert.equal(list.map((a: any) => a.id), ['assistant', 'support-triage', 'summarizer']);
  assert.ok(list.every((a: any) => a.builtIn && a.name && a.type && a.category));
  assert.match(ok(await weir('agent', 'list')).stdout, /ID\s+NAME\s+TYPE\s+CATEGORY\s+BUILTIN\nassistant\s+General assistant\s+assistant\s+general\s+yes/);
  const a = ok(await weir('agent', 'get', 'support-triage', '--json')).json();
  assert.match(a.systemPrompt, 'triage');
  assert.match(ok(await weir('agent', 'get', 'support-triage')).stdout, /systemPrompt:\nYou triage/);
  fails(await weir('agent', 'get', 'nobody'), 'agent "nobody" not found');
});

test('create, prompt get/set, delete a custom agent; ids are unique', async () => {
  const { dir, weir } = home();
  const made = ok(await weir('agent', 'create', 'refunds', 'Refund helper', 'Drafts refund answers', '--type', 'drafter', '--category', 'support', '--prompt', 'Be kind.', '--json')).json();
  assert.equal([made.id, made.name, made.description, made.type, made.category, made.builtIn, made.systemPrompt], ['refunds', 'Refund helper', 'Drafts refund answers', 'drafter', 'support', false, 'Be kind.']);
  fails(await weir('agent', 'create', 'refunds', 'Again'), 'agent "refunds" already exists');
  fails(await weir('agent', 'create', 'assistant', 'Shadow'), 'agent "assistant" already exists');
  fails(await weir('agent', 'create', 'bad id!', 'X'), 'invalid agent id');
  const plain = ok(await weir('agent', 'create', 'plain', 'Plain', '--json')).json();
  assert.equal([plain.type, plain.category, plain.systemPrompt], ['assistant', 'general', '']);
  assert.is(ok(await weir('agent', 'prompt', 'get', 'refunds')).stdout, 'Be kind.\n');
  writeFileSync(join(dir, 'prompt.md'), 'You draft refund answers.\nAlways cite the policy.\n');
  ok(await weir('agent', 'prompt', 'set', 'refunds', 'prompt.md'));
  assert.equal(ok(await weir('agent', 'prompt', 'get', 'refunds', '--json')).json(), { id: 'refunds', systemPrompt: 'You draft refund answers.\nAlways cite the policy.\n' });
  fails(await weir('agent', 'prompt', 'set', 'refunds', 'missing.md'), 'file not found: missing.md');
  assert.equal(ok(await weir('agent', 'list', '--json')).json().map((a: any) => a.id), ['assistant', 'support-triage', 'summarizer', 'plain', 'refunds']);
  ok(await weir('agent', 'delete', 'refunds'));
  failsJson(await weir('agent', 'get', 'refunds', '--json'), 'NOT_FOUND');
  failsJson(await weir('agent', 'delete', 'refunds', '--json'), 'NOT_FOUND');
});

test('built-in agents refuse deletion and prompt changes with a clear message', async () => {
  const { dir, weir } = home();
  const r = fails(await weir('agent', 'delete', 'assistant'), 'agent "assistant" is built in and cannot be deleted');
  assert.match(r.stderr, 'hint: create a custom agent instead');
  failsJson(await weir('agent', 'delete', 'summarizer', '--json'), 'READ_ONLY');
  writeFileSync(join(dir, 'p.txt'), 'new');
  fails(await weir('agent', 'prompt', 'set', 'assistant', 'p.txt'), 'is built in and cannot be changed');
  assert.is(ok(await weir('agent', 'list', '--json')).json().length, 3);
  const bare = await weir('agent', 'prompt');
  assert.is(bare.code, 0);
  assert.match(bare.stdout, 'Usage: weir agent prompt <command>');
});

test.run();
