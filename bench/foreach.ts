// What a foreach `map` costs: a published flow (manual trigger -> foreach over `$input.items` with a map of three
// fields, two expressions and a text) run through `weir.run()` on an fs home with 100,000 items, its execution
// record stored as any run's; against, in the same process and rounds, a plain JavaScript loop building the same
// objects from the same items. Rounds alternate the order (`BENCH_ROUNDS`, default 7); medians of the rounds.
// The node's rate is timed from its `node:start` to its `node:end` event (both emitted synchronously around its
// run); the whole execution's rate (its record of 100,000 input items and 100,000 results written as JSON
// included) is printed beside it. Targets: the node >= 1,000,000 items/s, and the process's RSS, after a GC,
// grown < 100 MB from before the first measured run to after the last (its peak while running is printed too).
// The library is the built one (`dist/`, or WEIR_OUT).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as Weir from '../src/index.js';
import { median, report } from './_stats.js';

const { createWeir } = (await import(`../${process.env.WEIR_OUT ?? 'dist'}/index.js`)) as typeof Weir;

const ITEMS = 100_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const items = Array.from({ length: ITEMS }, (_, i) => ({ id: `order-${i}`, total: i % 977 }));
const map = { id: '{{ $item.id }}', position: '{{ $index }}', label: '#{{ $index }}: {{ $item.total }} EUR' };
const config = {
  nodes: [
    { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
    { id: 'foreach-1', type: 'foreach', config: { items: '{{ $input.items }}', map } },
  ],
  edges: [{ source: 'manual_trigger-1', target: 'foreach-1' }],
};

/** The same objects by hand: what the map would be written as in plain JavaScript. */
const byHand = (list: typeof items) => list.map((item, index) => ({ id: item.id, position: index, label: `#${index}: ${item.total} EUR` }));

const home = mkdtempSync(join(tmpdir(), 'weir-bench-foreach-'));
const weir = await createWeir({ home, env: {} });
let failed = false;
let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
try {
  const { id } = await weir.workflows.create('foreach-map', undefined, { config: config as never, publish: true });
  let nodeFrom = 0;
  let nodeMs = 0;
  weir.bus.on('node:start', (e) => (e as { nodeId: string }).nodeId === 'foreach-1' && (nodeFrom = performance.now()));
  weir.bus.on('node:end', (e) => (e as { nodeId: string }).nodeId === 'foreach-1' && (nodeMs = performance.now() - nodeFrom));
  const nodeTimes: number[] = [];
  const run = async () => {
    const from = performance.now();
    const record = await weir.run(id, { items }, { published: true });
    const ms = performance.now() - from;
    if (record.status !== 'success' || (record.result as unknown[]).length !== ITEMS) throw new Error(`unexpected run: ${record.status} ${JSON.stringify(record.error)}`);
    nodeTimes.push(nodeMs);
    return ms;
  };
  const plain = () => {
    const from = performance.now();
    const out = byHand(items);
    const ms = performance.now() - from;
    if (out.length !== ITEMS) throw new Error('unexpected loop');
    return ms;
  };
  // Warm-up, then the RSS the rounds are measured against.
  for (let i = 0; i < 2; i++) {
    await run();
    plain();
  }
  nodeTimes.length = 0;
  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;
  peak = rssBefore;
  const weirMs: number[] = [];
  const plainMs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2) {
      plainMs.push(plain());
      weirMs.push(await run());
    } else {
      weirMs.push(await run());
      plainMs.push(plain());
    }
  }
  const perSecond = (ms: number) => (ITEMS / ms) * 1000;
  const nodeRate = perSecond(median(nodeTimes));
  const runRate = perSecond(median(weirMs));
  const plainRate = perSecond(median(plainMs));
  const fmt = (rate: number) => `${(rate / 1e6).toFixed(2)} M items/s`;
  report({ name: `foreach map, ${ITEMS} items, the node`, weir: fmt(nodeRate), baseline: fmt(plainRate), ratio: nodeRate / plainRate, target: '>= 1 M items/s', ok: nodeRate >= 1_000_000 });
  console.log(`      whole execution (record written): ${fmt(runRate)}, ${median(weirMs).toFixed(0)} ms a run`);
  (globalThis as { gc?: () => void }).gc?.();
  const grownMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
  report({ name: 'foreach map, RSS growth over the rounds', weir: `${grownMb.toFixed(1)} MB`, baseline: '-', ratio: grownMb / 100, target: '< 100 MB', ok: grownMb < 100 });
  console.log(`      RSS peak while running: ${((peak - rssBefore) / 2 ** 20).toFixed(1)} MB above the start`);
  failed ||= nodeRate < 1_000_000 || grownMb >= 100;
  // Run whatever the map part measured: a miss there must not hide the sub-flow figures.
  if (!(await subFlows(weir))) failed = true;
  if (failed) process.exitCode = 1;
} finally {
  clearInterval(sampler);
  await weir.close();
  rmSync(home, { recursive: true, force: true });
}

/**
 * A foreach over a published sub-flow (manual trigger -> one asynchronous `set`-like node), parallelism 8,
 * against a hand-written loop calling `weir.run` on the same sub-flow 8 at a time, in the same rounds: the
 * sub-executions per second of each (every run is a recorded execution either way). Target: >= 0.8x the loop.
 */
async function subFlows(weir: Weir.Weir): Promise<boolean> {
  const SUB_ITEMS = Number(process.env.BENCH_SUB_ITEMS ?? 10_000);
  const sub = {
    nodes: [
      { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
      { id: 'set-1', type: 'set', config: { values: { sku: '{{ $input.item.id }}', at: '{{ $input.index }}' } } },
    ],
    edges: [{ source: 'manual_trigger-1', target: 'set-1' }],
  };
  const loop = {
    nodes: [
      { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
      { id: 'foreach-1', type: 'foreach', config: { items: '{{ $input.items }}', flow: 'bench-item', parallelism: 8 } },
    ],
    edges: [{ source: 'manual_trigger-1', target: 'foreach-1' }],
  };
  await weir.workflows.create('bench-item', undefined, { config: sub as never, publish: true });
  const { id } = await weir.workflows.create('bench-loop', undefined, { config: loop as never, publish: true });
  const list = items.slice(0, SUB_ITEMS);
  const viaForeach = async () => {
    const from = performance.now();
    const record = await weir.run(id, { items: list }, { published: true });
    if (record.status !== 'success' || (record.result as unknown[]).length !== list.length) throw new Error(`unexpected run: ${record.status} ${JSON.stringify(record.error)}`);
    return performance.now() - from;
  };
  const byHand = async () => {
    const from = performance.now();
    let next = 0;
    const results = new Array(list.length);
    const worker = async () => {
      while (next < list.length) {
        const index = next++;
        const record = await weir.run('bench-item', { item: list[index], index }, { published: true });
        if (record.status !== 'success') throw new Error(`unexpected run: ${record.status}`);
        results[index] = record.result;
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return performance.now() - from;
  };
  await viaForeach();
  await byHand();
  const foreachMs: number[] = [];
  const handMs: number[] = [];
  const rounds = Number(process.env.BENCH_SUB_ROUNDS ?? 3);
  for (let r = 0; r < rounds; r++) {
    for (const which of r % 2 ? ['hand', 'foreach'] : ['foreach', 'hand']) {
      if (which === 'foreach') foreachMs.push(await viaForeach());
      else handMs.push(await byHand());
    }
  }
  const rate = (ms: number) => (list.length / ms) * 1000;
  const f = rate(median(foreachMs));
  const h = rate(median(handMs));
  const ok = f >= 0.8 * h;
  report({ name: `foreach sub-flow, parallelism 8, ${list.length} items`, weir: `${f.toFixed(0)} runs/s`, baseline: `${h.toFixed(0)} runs/s`, ratio: f / h, target: '>= 0.8x weir.run loop', ok });
  return ok;
}
