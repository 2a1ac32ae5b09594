import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWeir, type WeirError, type WeirEvents } from 'weir';
import { startApp } from './app.js';
import { slugify } from './slugify-node.js';

const home = () => mkdtempSync(join(tmpdir(), 'weir-extending-'));

/** A draft flow that slugifies `$input.title` with `config`, run by hand. */
async function slugOf(title: string, config: Record<string, unknown> = {}) {
  const weir = await createWeir({ home: home(), nodes: [slugify] });
  try {
    await weir.workflows.create('slug', undefined, {
      config: {
        nodes: [
          { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
          { id: 'slugify-1', type: 'slugify', config: { text: '{{ $input.title }}', ...config } },
        ],
        edges: [{ source: 'manual_trigger-1', target: 'slugify-1' }],
      },
    });
    const record = await weir.run('slug', { title });
    return { status: record.status, node: record.nodes['slugify-1'] };
  } finally {
    await weir.close();
  }
}

test('slugify: accents dropped, words joined, cut to maxLength; the "empty" handle when nothing is left', async () => {
  const made = await slugOf('Crème Brûlée: 2 ways!', { separator: '_', maxLength: 15 });
  assert.is(made.status, 'success');
  assert.equal(made.node.data, { slug: 'creme_brulee_2_' });
  assert.is(made.node.handle, 'slug');
  assert.is((await slugOf('¿¡!?')).node.handle, 'empty');
});

test('slugify: a config its schema refuses is a save error naming the node and the key', async () => {
  const err = await slugOf('x', { seperator: '_' }).catch((e: WeirError) => e);
  assert.instance(err, Error);
  assert.match((err as WeirError).message, 'slugify-1');
  assert.match((err as WeirError).message, 'seperator');
});

test('job trigger: a pushed job runs the published flow and its execution is recorded', async () => {
  const app = await startApp(home());
  try {
    const ended = new Promise<WeirEvents['execution:end']>((resolve) => app.weir.bus.on('execution:end', resolve));
    app.jobs.push('articles', { id: 'a1', title: 'Hello, World' });
    const end = await ended;
    assert.is(end.status, 'success', JSON.stringify(end.error));
    assert.is(end.workflowName, 'article-slugs');
    assert.is(end.trigger, 'job');
    assert.is(await app.weir.kv.getValue('slugs', 'a1'), 'hello-world');
    const record = await app.weir.executions.get(end.executionId);
    assert.equal(record.input, { id: 'a1', title: 'Hello, World' });
    const statuses = Object.fromEntries(Object.entries(record.nodes).map(([id, node]) => [id, node.status]));
    assert.equal(statuses, { 'job_trigger-1': 'success', 'slugify-1': 'success', 'kv_set-1': 'success', 'set-1': 'skipped' });
    assert.equal(record.nodes['slugify-1'].logs?.map((line) => line.message), ['slug of article-slugs']);
  } finally {
    await app.stop();
  }
});

test.run();
