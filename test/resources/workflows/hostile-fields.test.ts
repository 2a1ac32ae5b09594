// Every field of every node type's example config, replaced by each hostile JSON value (an object without a
// prototype, nested lists, huge numbers, hostile keys and expressions), is saved or refused with
// INVALID_CONFIG and problems that each have a path: never a TypeError from a check. The property test in
// test/props/flow-configs samples this space at random; this walks every field of the example and of a few
// valid configs per type (fixed seed: keys that only matter together, like an agent's tools and approvals),
// so a crash cannot hide behind a seed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createWeir, WeirError } from '../../../src/index.js';
import { validConfig } from '../../props/_flow-gen.js';

const hostile = (): unknown[] => [
  null, -1, 0.5, 1e308, '', true, [], {}, [null], [{}], Object.create(null), [Object.create(null)], { a: Object.create(null) },
  '{{', '{{ constructor }}', '__proto__', 'x'.repeat(5000),
];

/** Every path into `value` (object keys and list items) down to `depth`, with the value itself at []. */
function paths(value: unknown, depth: number, at: Array<string | number> = []): Array<Array<string | number>> {
  const out = [at];
  if (depth === 0 || value === null || typeof value !== 'object') return out;
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  for (const k of keys) out.push(...paths((value as Record<string | number, unknown>)[k], depth - 1, [...at, k]));
  return out;
}

/** `value` (deep-copied) with `replacement` at `path`, or appended to the list at `path` when `append`. */
function replaced(value: unknown, path: Array<string | number>, replacement: unknown, append = false): unknown {
  const copy = JSON.parse(JSON.stringify(value));
  if (path.length === 0) return append && Array.isArray(copy) ? [...copy, replacement] : replacement;
  let here = copy;
  for (const k of path.slice(0, -1)) here = here[k];
  const last = path[path.length - 1]!;
  if (append && Array.isArray(here[last])) here[last].push(replacement);
  else here[last] = replacement;
  return copy;
}

test('each field of each node type, given each hostile value, is saved or refused with problems', async () => {
  const weir = await createWeir({ env: {} });
  try {
    const { id } = await weir.workflows.create('hostile');
    let tried = 0;
    // One line per field and error, whichever hostile values and bases led there.
    const crashes = new Set<string>();
    for (const [type, def] of weir.nodes) {
      const trigger = def.trigger === true;
      const nodeId = `${type}-1`;
      const bases = new Map([def.docs?.example ?? {}, ...fc.sample(validConfig(def), { seed: 7, numRuns: 24 })].map((c) => [JSON.stringify(c), c as object]));
      for (const example of bases.values()) for (const path of paths(example, 3)) {
        const targets = Array.isArray(path.length ? path.reduce<any>((v, k) => v?.[k], example) : example) ? [false, true] : [false];
        for (const append of targets) {
          for (const bad of hostile()) {
            const config = replaced(example, path, bad, append);
            const nodes = trigger
              ? [{ id: nodeId, type, config }]
              : [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, { id: nodeId, type, config }];
            const edges = trigger ? [] : [{ id: 'e1', source: 'manual_trigger-1', target: nodeId }];
            tried++;
            try {
              await weir.workflows.save(id, { nodes, edges } as never);
            } catch (err) {
              const problems = (err as WeirError).details as Array<{ path: unknown; message: unknown }> | undefined;
              const fine = err instanceof WeirError && err.code === 'INVALID_CONFIG' && Array.isArray(problems) && problems.length > 0
                && problems.every((p) => typeof p.path === 'string' && typeof p.message === 'string' && p.message.length > 0 && !p.message.includes('\n'));
              if (!fine) crashes.add(`${type} ${JSON.stringify(path)}${append ? ' (appended to)' : ''}: ${(err as Error)?.message ?? err}`);
            }
          }
        }
      }
    }
    assert.ok(tried > 10_000, `tried ${tried}`);
    assert.equal([...crashes], [], `fields that crashed a save (of ${tried} tried)`);
  } finally {
    await weir.close();
  }
});

test.run();
