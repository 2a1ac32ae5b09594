// Expression and executor overhead, each beside a hand-written baseline doing the same work in the same run.
// 1. `{{ $input.a.b }}` through the instance's template cache (lookup + compiled closure) vs `(s) => s.input?.a?.b`.
// 2. A manual trigger + 20 `set` nodes (each `{"step": i, "v": "{{ $input.a.b }}"}`) through `weir.run`'s
//    executor vs a function building the same 20 objects. Per-node overhead = (weir - baseline) / 20 nodes.
//    Measured twice: the executor alone (no hooks), and with the standard hooks on in-memory storage (secrets
//    lookup, the `running` record at start and the final record at the end: two storage writes per run), on
//    the storage `createWeir()` opens without a home (weir's memory driver, whose listings read only the keys
//    under their base, so the 100k records stored here do not slow the secrets lookup).
//    Timing is process CPU time (user + system), steadier than wall time on a shared machine. The library is
//    the built one (`dist/`, or WEIR_OUT), as users run it: tsx's transform of src/ adds a helper call to
//    every closure it creates.
import type * as Weir from '../src/internal.js';
import { median, report } from './_stats.js';

// The executor on its own is no public API: the package's internal bundle has it.
const { createExpressions, createExecutor, createWeir } = (await import(`../${process.env.WEIR_OUT ?? 'dist'}/internal.js`)) as typeof Weir;
type Scope = Weir.Scope;

const ROUNDS = 7;
const scope: Scope = { input: { a: { b: 42 } }, node: {}, env: {} };

/** CPU microseconds spent running `fn`. */
async function cpuUs(fn: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await fn();
  const d = process.cpuUsage(start);
  return d.user + d.system;
}

const rate = async (fn: () => void, n: number) => n / ((await cpuUs(fn)) / 1e6);

// 1. Expressions.
const expr = createExpressions();
const N = 5_000_000;
const text = '{{ $input.a.b }}';
const handWritten = (s: Scope) => (s.input as { a?: { b?: unknown } })?.a?.b;
let sink = 0;
const weirRates: number[] = [];
const baseRates: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  weirRates.push(await rate(() => { for (let i = 0; i < N; i++) sink += expr.evaluate(text, scope) as number; }, N));
  baseRates.push(await rate(() => { for (let i = 0; i < N; i++) sink += handWritten(scope) as number; }, N));
}
const er = median(weirRates);
const br = median(baseRates);
report({ name: 'expression {{ $input.a.b }} (cached), evals/s', weir: `${(er / 1e6).toFixed(1)} M/s`, baseline: `${(br / 1e6).toFixed(1)} M/s`, ratio: er / br, target: '>= 5 M/s', ok: er >= 5e6 });

// 2. Executor.
const NODES = 20;
const config = {
  nodes: [
    { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
    ...Array.from({ length: NODES }, (_, i) => ({ id: `set-${i + 1}`, type: 'set', config: { values: { step: i + 1, v: '{{ $input.a.b }}' } } })),
  ],
  edges: Array.from({ length: NODES }, (_, i) => ({ source: i === 0 ? 'manual_trigger-1' : `set-${i}`, target: `set-${i + 1}` })),
};
const weir = await createWeir({ env: {} });
const workflow = { id: 'wf_bench', name: 'bench', config };
const input = { a: { b: 42 } };
const bare = createExecutor({ nodes: weir.nodes, expressions: createExpressions(), bus: weir.bus, services: weir, env: {} });

function baseline(inp: typeof input) {
  const out: Record<string, unknown> = {};
  for (let i = 1; i <= NODES; i++) out[`set-${i}`] = { step: i, v: inp.a.b };
  return out;
}

const perRun = async (run: () => unknown, n: number) =>
  (await cpuUs(async () => {
    for (let i = 0; i < n; i++) await run();
  })) / n; // µs per execution

const RUNS = 20_000;
for (const [name, run] of [
  ['executor alone', () => bare.run({ workflow, input, trigger: 'manual' })],
  ['with hooks + in-memory records', () => weir.executor.run({ workflow, input, trigger: 'manual' })],
] as const) {
  await perRun(run, 2000); // warm-up
  const weirUs: number[] = [];
  const baseUs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    weirUs.push(await perRun(run, RUNS));
    baseUs.push(await perRun(() => baseline(input), RUNS));
  }
  const w = median(weirUs);
  const b = median(baseUs);
  const perNode = (w - b) / NODES;
  report({
    name: `${NODES}-node set chain, ${name}`,
    weir: `${w.toFixed(1)} µs/run`,
    baseline: `${b.toFixed(2)} µs/run`,
    ratio: w / b,
    target: '<= 5 µs/node',
    ok: perNode <= 5,
  });
  console.log(`      per-node overhead: ${perNode.toFixed(2)} µs`);
}
// 3. What metrics and the OpenTelemetry API (loaded, no SDK registered: the default) add per execution: the
//    same chain through an instance with metrics counting (started, as a host starts them) and one with
//    `metrics.enabled: false`, in interleaved rounds. Traces cannot be turned off (without an SDK each
//    execution asks the API's proxy whether one was registered), so both sides pay that.
const counted = await createWeir({ env: {} });
await counted.metrics!.start();
const uncounted = await createWeir({ env: {}, config: { metrics: { enabled: false } } });
const runOn = (w: typeof weir) => () => w.executor.run({ workflow, input, trigger: 'manual' });
await perRun(runOn(counted), 2000);
await perRun(runOn(uncounted), 2000);
const onUs: number[] = [];
const offUs: number[] = [];
for (let r = 0; r < ROUNDS * 2; r++) {
  onUs.push(await perRun(runOn(counted), RUNS));
  offUs.push(await perRun(runOn(uncounted), RUNS));
}
const metricsRatio = median(onUs.map((on, r) => on / offUs[r]));
report({
  name: `${NODES}-node set chain, metrics on / off (OpenTelemetry API loaded, no SDK)`,
  weir: `${median(onUs).toFixed(1)} µs/run`,
  baseline: `${median(offUs).toFixed(1)} µs/run`,
  ratio: metricsRatio,
  target: '<= 1.03x',
  ok: metricsRatio <= 1.03,
});
console.log(`      metrics per execution: ${(median(onUs) - median(offUs)).toFixed(2)} µs (medians; rounds' ratios ${onUs.map((on, r) => (on / offUs[r]).toFixed(3)).join(', ')})`);
await counted.close();
await uncounted.close();

// Using `sink` keeps the measured loops from being optimised away.
if (!Number.isFinite(sink)) throw new Error(`unexpected sum ${sink}`);
await weir.close();
