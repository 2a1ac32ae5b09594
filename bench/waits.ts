// Waiting executions at scale: 100,000 executions wait (7 days) on an fs home, then a host restarts on
// it. Measured: the time from spawning the host to its ready line (the wake index loads in the background,
// so it must not grow with the waits), the time until the index is loaded, the host's RSS with every wait
// held in its timer heap (against the same host on an empty home), and how late 1,000 waits due a few
// seconds later end, in the host holding the 100,000 (target p99 < 50 ms).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as Weir from '../src/index.js';
import { median, percentile, report } from './_stats.js';

const out = process.env.WEIR_OUT ?? 'dist';
const { createWeir } = (await import(`../${out}/index.js`)) as typeof Weir;
const WAITING = Number(process.env.BENCH_WAITS ?? 100_000);
const PROBES = 1000;

const flowOf = (wait: Record<string, unknown>) => ({
  nodes: [
    { id: 'webhook_trigger-1', type: 'webhook_trigger', config: {} },
    { id: 'wait-1', type: 'wait', config: wait },
    { id: 'set-1', type: 'set', config: { values: { n: '{{ $input.body.n }}' } } },
  ],
  edges: [
    { source: 'webhook_trigger-1', target: 'wait-1' },
    { source: 'wait-1', target: 'set-1' },
  ],
});

/** Starts a host (`weir serve`'s adapter, bench/_waits-host.ts) on a home; resolves when it listens and when its index is loaded. */
function serve(home: string) {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '_waits-host.ts'), home], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  let url = '';
  let listeningMs = 0;
  const listening = new Promise<void>((resolve) => {
    child.stdout!.on('data', (d) => {
      text += d;
      if (!url) {
        const m = /"url":"(http[^"]+)"/.exec(text);
        if (m) {
          url = m[1];
          listeningMs = performance.now() - started;
          resolve();
        }
      }
    });
  });
  const loaded = new Promise<{ count: number; ms: number; at: number }>((resolve) => {
    const poll = setInterval(() => {
      const line = text.split('\n').find((l) => l.includes('"loaded"'));
      if (!line) return;
      clearInterval(poll);
      const { count, ms } = JSON.parse(line).loaded;
      resolve({ count, ms, at: performance.now() - started });
    }, 5);
  });
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
  const stop = () => new Promise<void>((r) => (child.once('exit', () => r()), child.kill('SIGTERM')));
  return { listening: listening.then(() => ({ url, listeningMs })), loaded, rss, stop, output: () => text };
}

/** Heap bytes the wake timer keeps per wait (measured here: the host's RSS also holds what loading left behind). */
async function retainedPerWait(n: number): Promise<number> {
  const { createWakeTimer } = await import('../src/util/wake-timer.js');
  global.gc!();
  const before = process.memoryUsage().heapUsed;
  const timer = createWakeTimer({ ready: () => true, due: () => {} });
  const at = Date.now() + 7 * 86_400_000;
  for (let i = 0; i < n; i++) timer.add(`${at + i}.exec_1m85q${String(i).padStart(14, '0')}.wait-1`, at + i);
  global.gc!();
  const bytes = (process.memoryUsage().heapUsed - before) / n;
  timer.stop();
  return bytes;
}

const home = mkdtempSync(join(tmpdir(), 'weir-bench-waits-'));
const empty = mkdtempSync(join(tmpdir(), 'weir-bench-waits-empty-'));
writeFileSync(join(home, 'weir.config.json'), JSON.stringify({ executions: { maxPerWorkflow: 100_000 } }));
try {
  // Setup: the waiting executions, run in this process as a host would run them (stored, indexed).
  const weir = await createWeir({ home, env: {} });
  const long = await weir.workflows.create('long-waits', undefined, { config: flowOf({ for: '7d' }) as never, publish: true });
  const probe = await weir.workflows.create('probe-waits', undefined, { config: flowOf({ until: '{{ $input.body.at }}' }) as never, publish: true });
  const pub = (await weir.workflows.findPublished(long.id))!;
  const setupStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < WAITING) {
        const n = next++;
        await weir.executor.run({ workflow: { id: pub.id, name: pub.name, version: pub.version, config: pub.config, hash: pub.hash }, input: { body: { n } }, trigger: 'webhook' });
      }
    }),
  );
  const setupMs = performance.now() - setupStart;
  // What `weir workflows executions` shows: the newest 20, read among every waiting execution.
  const listStart = performance.now();
  const newest = await weir.executions.list({ limit: 20 });
  const listMs = performance.now() - listStart;
  await weir.close();
  report({ name: `newest 20 executions listed beside ${WAITING} waiting`, weir: `${listMs.toFixed(0)} ms`, baseline: '-', ratio: listMs / 500, target: '< 500 ms', ok: listMs < 500 && newest.length === 20 });
  console.log(`      setup: ${WAITING} waiting executions stored in ${(setupMs / 1000).toFixed(1)} s`);

  // Spawn-to-listening times of a host on an empty home and on the one with the waits, alternated (a busy
  // machine's noise falls on both); the last host stays up for the rest.
  const bareTimes: number[] = [];
  const loadedTimes: number[] = [];
  let bareRss = 0;
  let host!: ReturnType<typeof serve>;
  for (let round = 0; round < 3; round++) {
    const bare = serve(empty);
    bareTimes.push((await bare.listening).listeningMs);
    await bare.loaded;
    bareRss = bare.rss();
    await bare.stop();
    host = serve(home);
    loadedTimes.push((await host.listening).listeningMs);
    await host.loaded;
    if (round < 2) await host.stop();
  }
  const { url } = await host.listening;
  const listeningMs = median(loadedTimes);
  const bareListening = median(bareTimes);
  const loaded = await host.loaded;
  const rss = host.rss();
  report({ name: `host to listening (median of 3), ${loaded.count} waits`, weir: `${listeningMs.toFixed(0)} ms`, baseline: `${bareListening.toFixed(0)} ms (none)`, ratio: listeningMs / bareListening, target: '<= 1.5x (index loads after)', ok: listeningMs <= bareListening * 1.5 });
  console.log(`      wake index of ${loaded.count} loaded ${loaded.ms} ms after start of loading (${loaded.at.toFixed(0)} ms after spawn)`);
  report({ name: `host RSS holding ${loaded.count} waits`, weir: `${rss.toFixed(0)} MB`, baseline: `${bareRss.toFixed(0)} MB (none)`, ratio: rss / bareRss, target: 'reported (per wait below)', ok: true });
  console.log(`      ${(((rss - bareRss) * 1024 * 1024) / Math.max(1, loaded.count)).toFixed(0)} bytes of RSS per waiting execution; the timer keeps ${(await retainedPerWait(WAITING || 1000)).toFixed(0)} heap bytes per wait`);

  // Lateness: waits due 8-12 s from now, in the host that holds the 100,000.
  const token = probe.webhookToken;
  const base = Date.now() + 8000;
  const due = new Map<string, number>();
  let sent = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (sent < PROBES) {
        const n = sent++;
        const at = base + n * 4;
        const res = await fetch(`${url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n, at: new Date(at).toISOString() }) });
        due.set(((await res.json()) as { executionId: string }).executionId, at);
      }
    }),
  );
  if (Date.now() > base) console.log('      (the probes were sent too slowly: some were due before they were stored)');
  const reader = await createWeir({ home, env: {} });
  let records: Awaited<ReturnType<typeof reader.executions.list>> = [];
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    records = (await reader.executions.list({ workflowId: probe.id, limit: PROBES })).filter((r) => r.status === 'success');
    if (records.length >= PROBES) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (records.length < PROBES) {
    const seen = new Set(records.map((r) => r.id));
    const missing = [...due.keys()].filter((id) => !seen.has(id));
    const states = await Promise.all(missing.slice(0, 5).map((id) => reader.executions.get(id).then((r) => `${r.status} ${JSON.stringify(r.nodes['wait-1'])}`, (e) => e.message)));
    console.log(`      ${missing.length} probes did not end: ${states.join('; ')}`);
  }
  await reader.close();
  const late = records.map((r) => Date.parse(r.nodes['wait-1'].finishedAt!) - due.get(r.id)!);
  const p99 = percentile(late, 99);
  report({ name: `wake lateness p99, ${records.length} waits beside ${loaded.count}`, weir: `${p99} ms`, baseline: `p50 ${percentile(late, 50)} ms`, ratio: p99 / 50, target: 'p99 < 50 ms', ok: p99 < 50 && records.length === PROBES });
  console.log(`      lateness max ${Math.max(...late)} ms, early ${late.filter((x) => x < 0).length}`);
  await host.stop();
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
}
