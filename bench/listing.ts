// Listing executions at scale: 100,000 execution records of 10 workflows stored on an fs home (saved a few at
// a time, so most batches hold one to three records: the most files a listing meets), then from a fresh
// instance the newest page of 50 of one workflow, a page of 50 deep in it (past 5,000), a page of a rare
// status (0.5 % error) and, for reference, the newest 50 of all workflows. Each is the median of repeated
// calls; the baseline column is reading one batch by key (what any page costs at least).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createWeir } from '../src/weir.js';
import { cursorOf } from '../src/resources/executions/cursor.js';
import { writeExecutions } from './_executions.js';
import { median, report } from './_stats.js';

const TOTAL = Number(process.env.BENCH_EXECUTIONS ?? 100_000);
const WORKFLOWS = 10;
const REPEAT = Number(process.env.BENCH_RUNS ?? 15);
const TARGET_MS = 50;

const home = mkdtempSync(join(tmpdir(), 'weir-bench-listing-'));
try {
  const written = await writeExecutions(home, { total: TOTAL, workflows: WORKFLOWS });
  console.log(`      ${TOTAL} records of ${WORKFLOWS} workflows written in ${(written / 1000).toFixed(1)} s`);

  const weir = await createWeir({ home, env: {} });
  const timed = async (run: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const t = performance.now();
      await run();
      times.push(performance.now() - t);
    }
    return median(times);
  };
  const store = weir.storage.view('cloud', 'executions');
  const [oneKey] = await store.getKeys('runs:wf_3:');
  const floor = await timed(() => store.getItem(oneKey));
  const newest = await weir.executions.page({ workflowId: 'wf_3', limit: 50 });
  const deep = Math.min(5000, TOTAL / WORKFLOWS / 2);
  const deepFrom = (await weir.executions.list({ workflowId: 'wf_3', limit: deep })).at(-1)!;
  const cases: Array<[string, () => Promise<{ items: unknown[] }>, boolean]> = [
    ['newest 50 of 1 workflow', () => weir.executions.page({ workflowId: 'wf_3', limit: 50 }), true],
    [`50 of 1 workflow past ${deep.toLocaleString('en')}`, () => weir.executions.page({ workflowId: 'wf_3', limit: 50, cursor: cursorOf(deepFrom) }), true],
    ['newest 50 errors of 1 workflow', () => weir.executions.page({ workflowId: 'wf_3', status: 'error', limit: 50 }), true],
    ['newest 50 errors of all', () => weir.executions.page({ status: 'error', limit: 50 }), false],
    ['newest 50 of all', () => weir.executions.page({ limit: 50 }), false],
  ];
  if (newest.items.length !== 50) throw new Error(`the newest page holds ${newest.items.length}`);
  for (const [name, run, target] of cases) {
    const { items } = await run();
    const ms = await timed(run);
    const label = `executions.page: ${name} (${items.length}) of ${TOTAL.toLocaleString('en')}`;
    if (target) report({ name: label, weir: `${ms.toFixed(1)} ms`, baseline: `${floor.toFixed(2)} ms`, ratio: ms / floor, target: `< ${TARGET_MS} ms`, ok: ms < TARGET_MS });
    else console.log(`      ${label}: ${ms.toFixed(1)} ms (reference)`);
  }
  await weir.close();
} finally {
  rmSync(home, { recursive: true, force: true });
}
