// What `settings.debounce` costs a flow when it does not bind (CONTRACT 20; issue 38: < 5 % added; run with
// bench/flow-settings.ts by `npm run bench flow-settings`). "Not binding": every delivery is the only one for
// its key within `period`, so none collapses and each still runs once, `period` after it came. Its cost is
// then the plain run's plus debounce's bookkeeping (the key's value, the burst held and logged durably before
// the delivery is answered, its timer, its done mark), counted as process CPU time per execution (user +
// system, all threads: the log's and the records' writes included), never the idle `period` itself (latency
// is the setting's point). The flow: a webhook trigger + 3 `set` nodes + a `count` node of the bench's own,
// run through the host's dispatcher (the way every trigger starts executions) on an fs home; the debounced
// copy has `settings.debounce: {period: 20ms, key: "{{ $input.body.n }}"}` and a new `n` per delivery (a
// period under 150 ms: the burst is, like a short run, stored `queued` only in its process; a longer one is
// also stored among the open executions, see docs/performance.md). Per round, RUNS deliveries of each flow,
// 32 at a time, counted once the `count` node ran for all of them and the records are stored; the flows
// alternate in interleaved rounds (`BENCH_ROUNDS`, default 9); the figure is the median of the per-round
// ratios. The library is the built one (`dist/`, or WEIR_OUT).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Weir from '../src/index.js';
import { median, report } from './_stats.js';

const { createWeir, defineNode } = (await import(`../${process.env.WEIR_OUT ?? 'dist'}/index.js`)) as typeof Weir;

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const RUNS = Number(process.env.BENCH_RUNS ?? 5000);
const AT_ONCE = 32;

let counted = 0;
/** Called once `counted` reaches the goal of the round under way (no polling: a wake-up costs CPU too). */
let reached: { goal: number; resolve(): void } | null = null;
const count = defineNode({
  type: 'count',
  run: async (ctx) => {
    if (++counted === reached?.goal) reached.resolve();
    return ctx.input;
  },
});
const nodes = [
  { id: 'webhook_trigger-1', type: 'webhook_trigger', config: {} },
  { id: 'set-1', type: 'set', config: { values: { n: '{{ $input.body.n }}', tenant: 'acme' } } },
  { id: 'set-2', type: 'set', config: { values: { doubled: '{{ $node["set-1"].data.n * 2 }}' } } },
  { id: 'set-3', type: 'set', config: { values: { ok: true } } },
  { id: 'count-1', type: 'count', config: {} },
];
const edges = nodes.slice(1).map((n, i) => ({ id: `e${i + 1}`, source: nodes[i].id, target: n.id }));

const home = mkdtempSync(join(tmpdir(), 'weir-bench-debounce-'));
const weir = await createWeir({ home, nodes: [count] });
try {
  const plain = await weir.workflows.create('plain', undefined, { config: { nodes, edges } as never, publish: true });
  const debounced = await weir.workflows.create('debounced', undefined, { config: { nodes, edges, settings: { debounce: { period: '20ms', key: '{{ $input.body.n }}' } } } as never, publish: true });
  await weir.runtime.start();
  const flows = { plain: (await weir.runtime.index.published(plain.id))!, debounced: (await weir.runtime.index.published(debounced.id))! };
  let n = 0;

  /** CPU µs per execution of `runs` deliveries of a flow, `AT_ONCE` at a time, until all of them ran. */
  async function perRun(which: keyof typeof flows, runs: number): Promise<number> {
    const flow = flows[which];
    const goal = counted + runs;
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < runs; i += AT_ONCE) {
      await Promise.all(Array.from({ length: AT_ONCE }, () => weir.runtime.dispatcher.run({ flow, trigger: 'webhook', input: { body: { n: n++ }, headers: {}, query: {}, method: 'POST' } })));
    }
    if (counted < goal) await new Promise<void>((resolve) => (reached = { goal, resolve }));
    await weir.runtime.limiter.drain();
    const cpu = process.cpuUsage(cpu0);
    return (cpu.user + cpu.system) / runs;
  }

  for (let w = 0; w < 3; w++) for (const which of ['plain', 'debounced'] as const) await perRun(which, RUNS); // warm-up (the JIT)
  const rounds: Array<Record<keyof typeof flows, number>> = [];
  for (let r = 0; r < ROUNDS; r++) {
    const round = {} as Record<keyof typeof flows, number>;
    for (const which of r % 2 ? (['debounced', 'plain'] as const) : (['plain', 'debounced'] as const)) {
      (globalThis as { gc?: () => void }).gc?.();
      round[which] = await perRun(which, RUNS);
    }
    rounds.push(round);
  }
  const ratios = rounds.map((r) => r.debounced / r.plain);
  const ratio = median(ratios);
  console.log(`      per-round ratios: ${ratios.map((x) => x.toFixed(3)).join(' ')}`);
  report({
    name: 'settings.debounce not binding, µs/execution',
    weir: `${median(rounds.map((r) => r.debounced)).toFixed(0)} µs`,
    baseline: `${median(rounds.map((r) => r.plain)).toFixed(0)} µs`,
    ratio,
    target: '< 1.05',
    ok: ratio < 1.05,
  });
} finally {
  await weir.close();
  rmSync(home, { recursive: true, force: true });
}
