// What a checkpoint costs: a manual trigger + a chain of 10 asynchronous nodes (a `tick` node type whose run
// resolves on the next microtask), run through `weir.run()` with the executor's checkpoint hook on (each node's
// record stored among the open executions before the next node starts: 9 checkpoints and the open entry's
// removal per run) and off (the same executor with its `checkpoint` hooks taken out for the measurement; the
// final record is stored either way). Cost per node = (on - off) / 10. Measured on an fs home and on memory
// storage, for runs one after another and for 32 runs at a time (the open executions' group commit writes the
// checkpoints of runs that arrive during a write together, and only each run's newest); on the fs home also
// with an organization secret set, absent from the data and present in it (then each checkpoint is stored
// masked with the real record sealed). On and off alternate
// in interleaved rounds (`BENCH_ROUNDS`, default 5); medians of the rounds, with the spread (min-max) of the
// per-node figure. Timing is process CPU time (user + system; the fs driver writes small records
// synchronously, so it includes the writes) and wall time. The library is the built one (`dist/`, or WEIR_OUT).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as Weir from '../src/index.js';
import { median } from './_stats.js';

const { createWeir, defineNode } = (await import(`../${process.env.WEIR_OUT ?? 'dist'}/index.js`)) as typeof Weir;

const NODES = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 640); // per round and mode; a multiple of 32
const tick = defineNode({ type: 'tick', run: async (ctx) => ctx.input });
const config = {
  nodes: [
    { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
    ...Array.from({ length: NODES }, (_, i) => ({ id: `tick-${i + 1}`, type: 'tick', config: {} })),
  ],
  edges: Array.from({ length: NODES }, (_, i) => ({ source: i === 0 ? 'manual_trigger-1' : `tick-${i}`, target: `tick-${i + 1}` })),
};

/** CPU and wall microseconds per run of `runs` runs, `concurrency` at a time. */
async function perRun(run: () => Promise<unknown>, runs: number, concurrency: number): Promise<{ cpu: number; wall: number }> {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let n = 0; n < runs; n += concurrency) await Promise.all(Array.from({ length: concurrency }, run));
  const cpu = process.cpuUsage(cpu0);
  return { cpu: (cpu.user + cpu.system) / runs, wall: ((performance.now() - wall0) * 1000) / runs };
}

const us = (x: number) => `${x.toFixed(1)} µs`;

/** Checkpoints on against off for runs of `input`, `concurrency` at a time: per-node cost and per-run times. */
async function measure(weir: Weir.Weir, id: string, input: unknown, concurrency: number, label: string): Promise<void> {
  const checkpointHooks = [...weir.executor.hooks.checkpoint];
  const setCheckpoints = (on: boolean) => weir.executor.hooks.checkpoint.splice(0, Infinity, ...(on ? checkpointHooks : []));
  const run = () => weir.run(id, input, { published: true });
  const probe = await run();
  if (probe.status !== 'success' || Object.keys(probe.nodes).length !== NODES + 1) throw new Error(`unexpected run: ${JSON.stringify(probe)}`);
  for (const on of [true, false]) {
    setCheckpoints(on);
    await perRun(run, 320, concurrency); // warm-up
  }
  const rounds: Array<Record<'on' | 'off', { cpu: number; wall: number }>> = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [false, true] : [true, false];
    const round = {} as Record<'on' | 'off', { cpu: number; wall: number }>;
    for (const on of order) {
      setCheckpoints(on);
      round[on ? 'on' : 'off'] = await perRun(run, RUNS, concurrency);
    }
    rounds.push(round);
  }
  setCheckpoints(true);
  for (const clock of ['cpu', 'wall'] as const) {
    const perNode = rounds.map((r) => (r.on[clock] - r.off[clock]) / NODES);
    const on = median(rounds.map((r) => r.on[clock]));
    const off = median(rounds.map((r) => r.off[clock]));
    console.log(
      `      ${`${label}, ${concurrency === 1 ? 'sequential' : `${concurrency} concurrent`}, ${clock}`.padEnd(46)}` +
        ` checkpoint ${us(median(perNode)).padEnd(9)} per node (${us(Math.min(...perNode))} .. ${us(Math.max(...perNode))})` +
        `  run: on ${us(on)}, off ${us(off)}`,
    );
  }
}

for (const storage of ['fs', 'memory'] as const) {
  const home = storage === 'fs' ? mkdtempSync(join(tmpdir(), 'weir-bench-checkpoints-')) : undefined;
  const weir = await createWeir({ home, env: {}, nodes: [tick] });
  try {
    const { id } = await weir.workflows.create('checkpoints', undefined, { config: config as never, publish: true });
    for (const concurrency of [1, 32]) await measure(weir, id, { a: 1 }, concurrency, `${NODES}-node async chain on ${storage}`);
    if (storage !== 'fs') continue;
    // With organization secrets: each checkpoint looks for them in the record's JSON; a record that holds
    // one is stored masked with its real data sealed (AES-256-GCM under the master key).
    await weir.secrets.set('BENCH_TOKEN', 'bench-token-0123456789abcdef');
    await measure(weir, id, { a: 1 }, 1, `  with a secret, none in the data`);
    await measure(weir, id, { a: 1, token: 'bench-token-0123456789abcdef' }, 1, `  with a secret in the data (sealed)`);
  } finally {
    await weir.close();
    if (home) rmSync(home, { recursive: true, force: true });
  }
}
