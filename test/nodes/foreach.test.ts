// foreach with `map`: items from an expression, each mapped with $item and $index, in order; the checks at save
// and the limits at run time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { WeirError } from '../../src/index.js';
import { chain, memoryWeir, runConfig } from '../flow/_flows.js';
import { chain as hostChain, homeWith, publish } from '../host/_helpers.js';
import { cli } from '../_utils.js';

const saveProblems = async (nodes: Array<{ id: string; type: string; config?: Record<string, unknown> }>): Promise<string> => {
  const weir = await memoryWeir();
  try {
    const { id } = await weir.workflows.create('bad-foreach');
    await weir.workflows.save(id, chain(nodes));
    return '';
  } catch (err) {
    return ((err as WeirError).details as Array<{ path: string; message: string }>).map((p) => `${p.path}: ${p.message}`).join('\n');
  } finally {
    await weir.close();
  }
};

test('map: each item with $item and $index, in item order, next to $input and $node', async () => {
  const weir = await memoryWeir();
  try {
    const run = await runConfig(
      weir,
      chain([
        { id: 'set-1', type: 'set', config: { values: { currency: 'EUR' } } },
        { id: 'foreach-1', type: 'foreach', config: { items: '{{ $input.orders }}', map: { id: '{{ $item.id }}', at: '{{ $index }}', label: '#{{ $index }} {{ $item.id }} in {{ $node["set-1"].data.currency }} for {{ $input.who }}' } } },
      ]),
      { who: 'ada', orders: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
    );
    assert.is(run.status, 'success', JSON.stringify(run.error));
    assert.equal(run.result, [
      { id: 'a', at: 0, label: '#0 a in EUR for ada' },
      { id: 'b', at: 1, label: '#1 b in EUR for ada' },
      { id: 'c', at: 2, label: '#2 c in EUR for ada' },
    ]);
    const whole = await runConfig(weir, chain([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input }}', map: '{{ $item * 10 + $index }}' } }]), [1, 2, 3]);
    assert.equal(whole.result, [10, 21, 32], 'a map that is one expression keeps its type');
    const empty = await runConfig(weir, chain([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input.none }}', map: '{{ $item }}' } }]), { none: [] });
    assert.equal(empty.result, []);
    const constant = await runConfig(weir, chain([{ id: 'foreach-1', type: 'foreach', config: { items: [1, 2], map: { ok: true } } }]), {});
    assert.equal(constant.result, [{ ok: true }, { ok: true }]);
  } finally {
    await weir.close();
  }
});

test('map: items that are not an array fail the node with what they were', async () => {
  const weir = await memoryWeir();
  try {
    for (const [input, what] of [[{ orders: { a: 1 } }, 'object'], [{}, 'undefined \\(does the expression name a missing field\\?\\)'], [{ orders: 'abc' }, 'string'], [{ orders: null }, 'null']] as const) {
      const run = await runConfig(weir, chain([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input.orders }}', map: '{{ $item }}' } }]), input);
      assert.is(run.status, 'error');
      assert.is(run.error!.node, 'foreach-1');
      assert.match(run.error!.message, new RegExp(`^foreach: "items" must be an array, got ${what}$`));
    }
  } finally {
    await weir.close();
  }
});

test('maxItems: more items fail the node before anything runs, naming the count and the limit', async () => {
  const weir = await memoryWeir();
  try {
    const over = await runConfig(weir, chain([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input }}', map: '{{ $item }}', maxItems: 3 } }, { id: 'set-1', type: 'set', config: { values: { after: true } } }]), [1, 2, 3, 4]);
    assert.is(over.status, 'error');
    assert.is(over.error!.code, 'RULE');
    assert.is(over.error!.message, 'foreach: 4 items are more than maxItems (3); nothing ran');
    assert.is(over.nodes['set-1'], undefined);
    const at = await runConfig(weir, chain([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input }}', map: '{{ $item }}', maxItems: 4 } }]), [1, 2, 3, 4]);
    assert.equal(at.result, [1, 2, 3, 4]);
    const many = Array.from({ length: 100_001 }, (_, i) => i);
    const byDefault = await runConfig(weir, chain([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input }}', map: '{{ $item }}' } }]), many);
    assert.is(byDefault.error?.message, 'foreach: 100001 items are more than maxItems (100000); nothing ran');
    const fits = await runConfig(weir, chain([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input }}', map: '{{ $item }}' } }]), many.slice(1));
    assert.is((fits.result as number[]).length, 100_000);
    assert.is((fits.result as number[])[99_999], 100_000);
  } finally {
    await weir.close();
  }
});

test('save refuses a foreach without items or without map, and a map expression that does not parse', async () => {
  const text = await saveProblems([
    { id: 'foreach-1', type: 'foreach', config: { map: '{{ $item }}' } },
    { id: 'foreach-2', type: 'foreach', config: { items: '{{ $input }}' } },
    { id: 'foreach-3', type: 'foreach', config: { items: '{{ $input }}', map: { a: '{{ $item. }}' } } },
    { id: 'foreach-4', type: 'foreach', config: { items: '{{ $input }}', map: '{{ $item }}', maxItems: 0 } },
  ]);
  assert.match(text, /nodes\[1\]\.config\.items: foreach-1: "items" is required/);
  assert.match(text, /nodes\[2\]\.config\.map: foreach-2: give "map"/);
  assert.match(text, /nodes\[3\]\.config\.map\.a: foreach-3: /);
  assert.match(text, /nodes\[4\]\.config\.maxItems: foreach-4: /);
  assert.is(await saveProblems([{ id: 'foreach-1', type: 'foreach', config: { items: '{{ $input }}', map: { n: '{{ $item }}' } } }]), '');
});

test('`weir workflows run` of a published flow with a foreach prints the mapped items', async () => {
  const home = await homeWith(async (weir) => {
    const c = hostChain('manual_trigger', [{ type: 'foreach', id: 'foreach-1', config: { items: '{{ $input.names }}', map: 'hello {{ $item }} ({{ $index }})' } }]);
    await publish(weir, 'greet', { type: 'manual_trigger' }, c.nodes, c.edges);
  });
  const run = await cli(['workflows', 'run', 'greet', '--published', '--input', '{"names":["ada","bo"]}', '--json'], { home });
  assert.is(run.code, 0, run.stderr);
  assert.equal(run.json().result, ['hello ada (0)', 'hello bo (1)']);
});

test.run();
