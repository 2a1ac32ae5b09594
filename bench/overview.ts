// The Studio's overview at scale: 100,000 execution records of 10 workflows stored on an fs home (saved a few
// at a time, as bench/listing.ts does: most batches hold one to three records, the most files there can be),
// started 10 s apart up to now (some 12 days), so the last 24 hours hold about 8,600 of them, 0.5 % errors. Then, from a
// fresh instance served on loopback, `GET /api/v1/workflows/overview` (each workflow's newest execution and
// its errors of the last 24 hours): the median of repeated calls, its counts checked against the records
// written. The baseline is `GET /api/v1/workflows` (the summaries alone).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve } from '../adapters/node-http/index.js';
import { createWeir } from '../src/weir.js';
import { newExecutionId } from '../src/resources/executions/ids.js';
import type { ExecutionRecord } from '../src/flow/types.js';
import { median, report } from './_stats.js';

const TOTAL = Number(process.env.BENCH_EXECUTIONS ?? 100_000);
const WORKFLOWS = 10;
const AT_ONCE = 4;
const REPEAT = Number(process.env.BENCH_RUNS ?? 15);
const TARGET_MS = 100;
const DAY_MS = 86_400_000;
/** Starts this far apart: 100,000 span about 12 days, the last 24 hours hold some 8,600. */
const SPACING_MS = 10_000;

// BENCH_HOME keeps the home (written once, then reused): for profiling.
const kept = process.env.BENCH_HOME;
/** A finished record: the one each workflow gets before a busy call. */
const SAMPLE = { version: 1, status: 'success', trigger: 'manual', input: {}, nodes: {}, result: null } as const;

const home = kept ?? mkdtempSync(join(tmpdir(), 'weir-bench-overview-'));
try {
  const writer = await createWeir({ home, env: {} });
  const ids: string[] = [];
  for (let w = 0; w < WORKFLOWS; w++) ids.push((await writer.workflows.create(`flow-${w}`)).id);
  const t0 = Date.now() - TOTAL * SPACING_MS;
  // When each workflow's errors started: what the overview's counts are checked against.
  const errorStarts: number[][] = ids.map(() => []);
  const lastStart: number[] = ids.map(() => 0);
  const written = performance.now();
  for (let i = 0; i < TOTAL; i += AT_ONCE) {
    const saves: Promise<void>[] = [];
    for (let n = i; n < Math.min(TOTAL, i + AT_ONCE); n++) {
      const start = t0 + n * SPACING_MS;
      const w = n % WORKFLOWS;
      const status = Math.floor(n / WORKFLOWS) % 200 === 7 ? 'error' : 'success';
      if (status === 'error') errorStarts[w].push(start);
      lastStart[w] = start;
      const record: ExecutionRecord = {
        id: newExecutionId(start),
        workflowId: ids[w],
        workflowName: `flow-${w}`,
        version: 1,
        status,
        trigger: 'webhook',
        input: { order: { id: n, amount: 99.5 } },
        nodes: { 'set-1': { data: { n }, status: status === 'error' ? 'error' : 'success', startedAt: new Date(start).toISOString(), finishedAt: new Date(start + 2).toISOString() } },
        result: { n },
        ...(status === 'error' ? { error: { code: 'NODE_FAILED', message: 'boom', node: 'set-1' } } : {}),
        startedAt: new Date(start).toISOString(),
        finishedAt: new Date(start + 2).toISOString(),
      } as ExecutionRecord;
      saves.push(writer.executions.save(record));
    }
    await Promise.all(saves);
  }
  console.log(`      ${TOTAL} records of ${WORKFLOWS} workflows written in ${((performance.now() - written) / 1000).toFixed(1)} s`);
  await writer.close();

  const weir = await createWeir({ home, env: {} });
  const serving = await serve(weir, { port: 0 });
  try {
    const token = await weir.interfaces.accessToken();
    const get = async (path: string) => {
      const res = await fetch(`${serving.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<any[]>;
    };
    const timed = async (path: string) => {
      const times: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const t = performance.now();
        await get(path);
        times.push(performance.now() - t);
      }
      return median(times);
    };
    const first = performance.now();
    const overview = await get('/workflows/overview');
    const cold = performance.now() - first;
    for (const wf of overview) {
      const w = ids.indexOf(wf.id);
      // The call's own 24 hours started between these two times.
      const [early, late] = [first - DAY_MS + performance.timeOrigin, first + cold - DAY_MS + performance.timeOrigin];
      const [most, least] = [errorStarts[w].filter((t) => t >= early).length, errorStarts[w].filter((t) => t >= late).length];
      if (wf.errors24h > most || wf.errors24h < least) throw new Error(`${wf.name}: ${wf.errors24h} errors, ${least}..${most} written`);
      if (wf.lastExecution?.startedAt !== new Date(lastStart[w]).toISOString()) throw new Error(`${wf.name}: last execution ${JSON.stringify(wf.lastExecution)}`);
    }
    const errors = overview.reduce((n, wf) => n + wf.errors24h, 0);
    const baseline = await timed('/workflows');
    const ms = await timed('/workflows/overview');
    // Every workflow ran since: each folder of batches is listed again (a folder's listing is kept while it is unchanged).
    const busy: number[] = [];
    for (let i = 0; i < 5; i++) {
      await Promise.all(ids.map((id, w) => weir.executions.save({ ...SAMPLE, id: newExecutionId(Date.now()), workflowId: id, workflowName: `flow-${w}`, startedAt: new Date().toISOString(), finishedAt: new Date().toISOString() })));
      const t = performance.now();
      await get('/workflows/overview');
      busy.push(performance.now() - t);
    }
    console.log(`      first call ${cold.toFixed(1)} ms, after a run of every workflow ${median(busy).toFixed(1)} ms; ${errors} errors in the last 24 h across ${overview.length} workflows`);
    report({ name: `GET /workflows/overview of ${TOTAL.toLocaleString('en')}`, weir: `${ms.toFixed(1)} ms`, baseline: `${baseline.toFixed(2)} ms`, ratio: ms / baseline, target: `< ${TARGET_MS} ms`, ok: ms < TARGET_MS });
  } finally {
    await serving.close();
    await weir.close();
  }
} finally {
  if (!kept) rmSync(home, { recursive: true, force: true });
}
