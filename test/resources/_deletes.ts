// One run of every delete that clears a prefix, through the library, on whatever storage a Weir has; the
// caller then checks the storage itself (memory keys, Redis keys) with the lists this returns.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Weir } from '../../src/index.js';
import { flow, tmpDir } from '../_utils.js';

export interface DeleteOutcome {
  /** Cloud-mount prefixes that must hold no key any more. */
  emptied: string[];
  /** Cloud-mount keys that must be gone. */
  removed: string[];
  /** Cloud-mount prefixes that must still hold exactly this many keys (what the deletes must not touch). */
  kept: Record<string, number>;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const DAY = 86_400_000;

/** Fills a KV namespace, knowledge folders, an interface and executions, then deletes each. */
export async function deleteEverything(weir: Weir): Promise<DeleteOutcome> {
  // KV: a namespace deleted with its values (a long key too, stored under a hashed name), a neighbour kept.
  const gone = await weir.kv.init('gone');
  const kept = await weir.kv.init('kept');
  for (const ns of ['gone', 'kept']) {
    for (const key of ['a', 'b/c?d', 'k'.repeat(300)]) await weir.kv.setValue(ns, key, `${ns}:${key}`);
  }
  await weir.kv.delete('gone');

  // Knowledge: top > mid holding a document, deleted recursively; a top-level document stays.
  const top = await weir.knowledge.createFolder('top');
  const mid = await weir.knowledge.createFolder('mid', top.id);
  const inside = await weir.knowledge.upload({ name: 'inside.md', data: '# Inside\nDeleted with its folder.' }, mid.id);
  await weir.knowledge.upload({ name: 'outside.md', data: '# Outside\nStays.' });
  await weir.knowledge.deleteFolder('top', { recursive: true });

  // Interfaces: deployed twice (builds, sources, logs), then removed.
  const dir = tmpDir('weir-if-');
  const app = await weir.interfaces.create({ name: 'app', dir: join(dir, 'app') });
  mkdirSync(join(dir, 'app'));
  writeFileSync(join(dir, 'app/index.html'), '<!doctype html><p>app</p>');
  writeFileSync(join(dir, 'app/weir.interface.json'), JSON.stringify({ id: app.id, name: 'app', type: 'external' }));
  const manifest = { id: app.id, name: 'app', type: 'external' as const };
  for (let i = 0; i < 2; i++) await weir.interfaces.deploy({ dir: join(dir, 'app'), manifest });
  await weir.interfaces.remove('app');

  // Executions: three runs of one workflow, all past the retention a month later; another workflow's run stays.
  const config = flow({ type: 'manual_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { ok: true } } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }]);
  const run = (id: string) => weir.executor.run({ workflow: { id, name: id, config: config as never }, input: {}, trigger: 'manual' });
  for (let i = 0; i < 3; i++) await run('wf_old');
  await run('wf_other');
  const pruned = await weir.executions.prune('wf_old', Date.now() + 31 * DAY);
  if (pruned !== 3) throw new Error(`pruned ${pruned} records, expected 3`);

  return {
    emptied: [`kv:data:${gone.id}`, `interfaces:logs:${app.id}`, 'executions:runs:wf_old'],
    removed: [
      `kv:namespaces:${gone.id}`,
      ...[top.id, mid.id].map((id) => `knowledge:folders:${id}`),
      ...['knowledge:docs', 'knowledge:text', 'blobs:knowledge'].map((area) => `${area}:${inside.id}`),
      `knowledge:tokens:${sha256(inside.token)}`,
      ...['records', 'builds', 'sources'].map((area) => `interfaces:${area}:${app.id}`),
      'interfaces:names:app',
    ],
    kept: {
      [`kv:data:${kept.id}`]: 3,
      'knowledge:docs': 1,
      'knowledge:tokens': 1,
      'knowledge:text': 1,
      // Without a home of files (memory, Redis) document bytes are items of the cloud mount too.
      'blobs:knowledge': 1,
      'executions:runs:wf_other': 1,
    },
  };
}
