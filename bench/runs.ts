// Per-run cost of `weir.run()` as executions pile up: a two-node flow (manual_trigger -> set) run 10,000 times
// in sequence on one instance, each run timed (wall clock). The median of runs 1-1,000 is compared with the
// median of runs 9,001-10,000: flat storage costs keep the ratio near 1.0x. Measured on memory storage
// (`createWeir()` without a home, as embedders test) and, for reference, on an fs home. A throwaway instance
// runs first so both measured instances start with warm (JIT-compiled) code.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as Weir from '../src/index.js';
import { median, report } from './_stats.js';

const { createWeir } = (await import(`../${process.env.WEIR_OUT ?? 'dist'}/index.js`)) as typeof Weir;

const RUNS = Number(process.env.BENCH_RUNS ?? 10_000);
const BLOCK = 1_000;
const config = {
  nodes: [
    { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
    { id: 'set-1', type: 'set', config: { values: { n: '{{ $input.n }}' } } },
  ],
  edges: [{ source: 'manual_trigger-1', target: 'set-1' }],
};

/** Milliseconds of each of `runs` sequential `weir.run()` calls on a fresh instance. */
async function timeRuns(home: string | undefined, runs: number): Promise<number[]> {
  const weir = await createWeir({ home, env: {} });
  try {
    const { id } = await weir.workflows.create('runs', undefined, { config: config as never, publish: true });
    const times: number[] = [];
    for (let n = 0; n < runs; n++) {
      const t = performance.now();
      await weir.run(id, { n });
      times.push(performance.now() - t);
    }
    return times;
  } finally {
    await weir.close();
  }
}

await timeRuns(undefined, 2 * BLOCK); // warm-up
for (const storage of ['memory', 'fs'] as const) {
  const home = storage === 'fs' ? mkdtempSync(join(tmpdir(), 'weir-bench-runs-')) : undefined;
  try {
    const times = await timeRuns(home, RUNS);
    const first = median(times.slice(0, BLOCK));
    const last = median(times.slice(-BLOCK));
    const ratio = last / first;
    report({
      name: `weir.run() on ${storage}, runs ${RUNS - BLOCK + 1}-${RUNS} vs 1-${BLOCK}`,
      weir: `${(last * 1000).toFixed(0)} µs/run`,
      baseline: `${(first * 1000).toFixed(0)} µs/run`,
      ratio,
      target: '<= 1.25x (flat)',
      ok: ratio <= 1.25,
    });
    const blocks = Array.from({ length: RUNS / BLOCK }, (_, b) => (median(times.slice(b * BLOCK, (b + 1) * BLOCK)) * 1000).toFixed(0));
    console.log(`      medians per ${BLOCK} runs (µs): ${blocks.join(' ')}`);
  } finally {
    if (home) rmSync(home, { recursive: true, force: true });
  }
}
