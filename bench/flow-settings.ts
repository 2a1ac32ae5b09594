// What `settings.concurrency` and `settings.rateLimit` cost a flow when they do not bind (CONTRACT 15, 20;
// issue 38: < 5 % added). One flow (manual trigger + 3 `set` nodes) in three copies: without settings (the
// baseline), with a per-key concurrency limit far above what runs at once, and with a per-key rate limit far
// above the starts per period. Each copy runs RUNS executions through the host's dispatcher (the path every
// trigger takes), 64 at a time, on the in-memory storage `createWeir()` opens without a home. Rounds are
// interleaved; the figure is the median of the rounds' ratios of CPU time per execution (user + system),
// steadier than wall time on a shared machine. A flow without settings pays one property read in the dispatcher (it is the baseline).
// `settings.debounce` is measured by bench/flow-settings-debounce.ts (an fs home: its point is durability).
import type * as Weir from '../src/internal.js';
import { median, report } from './_stats.js';

const { createWeir } = (await import(`../${process.env.WEIR_OUT ?? 'dist'}/internal.js`)) as typeof Weir;

const ROUNDS = 9;
const RUNS = 20_000;
const AT_ONCE = 64;

const nodes = [
  { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
  ...[1, 2, 3].map((i) => ({ id: `set-${i}`, type: 'set', config: { values: { step: i, v: '{{ $input.tenant }}' } } })),
];
const edges = [1, 2, 3].map((i) => ({ id: `e${i}`, source: i === 1 ? 'manual_trigger-1' : `set-${i - 1}`, target: `set-${i}` }));
const flowOf = (id: string, settings?: Record<string, unknown>) => ({ id, name: id, version: 1, config: { nodes, edges, ...(settings ? { settings } : {}) } as never });

const weir = await createWeir({ env: {} });
const { dispatcher } = weir.runtime;
const flows = {
  plain: flowOf('wf_plain'),
  concurrency: flowOf('wf_concurrency', { concurrency: { limit: 100_000, key: '{{ $input.tenant }}' } }),
  rateLimit: flowOf('wf_rate', { rateLimit: { limit: 100_000_000, period: '1s', key: '{{ $input.tenant }}' } }),
};

/** CPU µs per execution of RUNS executions of `flow`, AT_ONCE at a time, over 8 tenants. */
async function perExecution(flow: (typeof flows)[keyof typeof flows], runs = RUNS): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < runs; i += AT_ONCE) {
    const batch: Array<Promise<unknown>> = [];
    for (let j = 0; j < AT_ONCE; j++) batch.push(dispatcher.run({ flow, trigger: 'manual', input: { tenant: `t${(i + j) % 8}` } }));
    const records = (await Promise.all(batch)) as Array<{ status: string }>;
    if (records.some((r) => r.status !== 'success')) throw new Error(`a run of ${flow.id} did not succeed`);
  }
  const d = process.cpuUsage(start);
  return (d.user + d.system) / runs;
}

for (const flow of Object.values(flows)) await perExecution(flow, 4000); // warm-up
const us: Record<keyof typeof flows, number[]> = { plain: [], concurrency: [], rateLimit: [] };
for (let r = 0; r < ROUNDS; r++) {
  // Interleaved, the order turning each round, so a slower moment of the machine falls on all three.
  const order = (Object.keys(flows) as Array<keyof typeof flows>).map((_, i, keys) => keys[(i + r) % keys.length]);
  for (const name of order) {
    (globalThis as { gc?: () => void }).gc?.();
    us[name].push(await perExecution(flows[name]));
  }
}
const base = median(us.plain);
for (const name of ['concurrency', 'rateLimit'] as const) {
  // The median of the rounds' ratios: a round's three flows ran within a second of one another, so a slower
  // stretch of the shared machine weighs on both sides of a ratio.
  const ratios = us[name].map((x, r) => x / us.plain[r]);
  const ratio = median(ratios);
  console.log(`      ${name} per-round ratios: ${ratios.map((x) => x.toFixed(3)).join(' ')}`);
  report({ name: `settings.${name} not binding, µs/execution`, weir: `${median(us[name]).toFixed(1)} µs`, baseline: `${base.toFixed(1)} µs`, ratio, target: '< 1.05', ok: ratio < 1.05 });
}
await weir.close();
