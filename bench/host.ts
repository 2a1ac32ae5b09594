// HTTP intake under load (32 connections, autocannon): (a) a raw node:http server that parses the JSON body
// and answers 200, (b) `weir serve` with a published webhook_trigger(respondImmediately: true) flow and
// durable delivery, (c) webhook_trigger(false) -> set -> condition -> respond, and for reference (d) the
// least a durable intake can do: (a) plus a group-commit O_DSYNC append before each 200, which
// shows what durability alone costs on this disk and CPU, and (e) Node-RED 4 running (c)'s flow as
// `http in -> change -> switch -> change -> http response`, when NODE_RED_DIR names a directory where
// node-red@4 is installed (never a dependency). Each server runs in its own child process. The machine's
// speed drifts over minutes (other tenants), so (a) to (e) are measured in interleaved rounds and the
// medians of each round's ratios are reported, with each weir row's CPU ceiling (what it could reach with
// every core busy). Each round starts a host on a fresh copy of the home for (b) and another for (c): the
// deliveries (b) accepted but had not run yet would otherwise run during (c) and the next round's (a). Host
// RSS is read after each load. (b) and (c) also run with metrics off (`metrics.enabled: false`) in the same
// rounds, to show what counting costs (metrics are on by default). Then 10,000 schedules on one timer: how late each fires against its due time.
import { closeSync, cpSync, fdatasyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWeir } from '../src/weir.js';
import { IMMEDIATE_FLOW, ORDER_BODY, RESPOND_FLOW } from './_flows.js';
import { createScheduler } from '../src/triggers/schedule/scheduler.js';
import { NODE_RED_SKIPPED, nodeRedDir, startNodeRed } from './_node-red.js';
import { cpuCeiling, median, percentile, report, start, stop, withCpu } from './_stats.js';

interface Result {
  requests: { average: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<Result>;
type Load = Result & { cpuUs: number; clientUs: number };

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, process.env.WEIR_CLI ?? 'dist/cli.js');
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
// WEIR_BASE_DIR names another weir checkout with dist/ built: its (b) and (c) run in the same rounds, for a
// before/after of a change on the hot path.
const baseCli = process.env.WEIR_BASE_DIR ? resolve(process.env.WEIR_BASE_DIR, 'dist/cli.js') : null;
const body = ORDER_BODY;

const RAW_SERVER = `
const http = require('node:http');
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try { JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'); } catch { res.writeHead(400); return res.end(); }
    const out = JSON.stringify({ ok: true });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  });
}).listen(0, '127.0.0.1', function () { console.log(JSON.stringify({ url: 'http://127.0.0.1:' + this.address().port })); });
`;

// (a) + durability and nothing else: each accepted body is appended to one O_DSYNC file in batches (the
// requests read in one loop turn share a write, one write in flight) and answered once its batch is on
// disk, as weir's journal does; no routing, ids, dedupe, replay or execution.
const DURABLE_FLOOR_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const fd = fs.openSync(path.join(process.argv[1], 'floor.log'), fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_DSYNC);
let size = 0, queue = [], writing = false, scheduled = false, n = 0;
function pump() {
  if (scheduled || writing || !queue.length) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    const batch = queue; queue = [];
    const data = Buffer.from('\\n' + batch.map((b) => b.line).join(''));
    const at = size; size += data.length; writing = true;
    fs.write(fd, data, 0, data.length, at, () => { writing = false; for (const b of batch) b.done(); pump(); });
  });
}
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let input;
    try { input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'); } catch { res.writeHead(400); return res.end(); }
    const id = 'ex_' + (++n);
    queue.push({ line: JSON.stringify({ id, in: input, at: Date.now() }) + '\\n', done: () => {
      const out = JSON.stringify({ executionId: id });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    } });
    pump();
  });
}).listen(0, '127.0.0.1', function () { console.log(JSON.stringify({ url: 'http://127.0.0.1:' + this.address().port })); });
`;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/**
 * Load on one URL: requests/s and p99 from autocannon, the server's CPU per request (robust to a busy
 * machine) and the load generator's (this process).
 */
async function load(url: string, pid: number): Promise<Load> {
  const opts = { url, method: 'POST', connections: 32, headers: { 'content-type': 'application/json' }, body };
  await autocannon({ ...opts, duration: 2 }); // warm-up: JIT, caches, the journal's first segment
  return withCpu(pid, duration, () => autocannon({ ...opts, duration }));
}

/** Median fdatasync latency of the disk under `dir`: what every durable 200 waits for at least once. */
function fsyncMs(dir: string): number {
  const fd = openSync(join(dir, 'fsync-probe'), 'a');
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    writeSync(fd, Buffer.alloc(4096, 1));
    fdatasyncSync(fd);
    times.push(performance.now() - t);
  }
  closeSync(fd);
  rmSync(join(dir, 'fsync-probe'));
  return percentile(times, 50);
}

const home = mkdtempSync(join(tmpdir(), 'weir-bench-host-'));
const weir = await createWeir({ home: join(home, 'template') });
const fast = await weir.workflows.create('bench-immediate');
await weir.workflows.save(fast.id, IMMEDIATE_FLOW);
await weir.workflows.publish(fast.id);
const sync = await weir.workflows.create('bench-respond');
await weir.workflows.save(sync.id, RESPOND_FLOW);
await weir.workflows.publish(sync.id);
await weir.close();

// (c) in Node-RED, with its documented defaults (the http in node parses the JSON body): the set node's two
// values, the condition's rule and the two answers as change, switch and change nodes.
const nodeRedFlows = [
  { id: 'tab', type: 'tab', label: 'bench' },
  { id: 'in', z: 'tab', type: 'http in', url: '/respond', method: 'post', wires: [['set']] },
  { id: 'set', z: 'tab', type: 'change', rules: [
    { t: 'set', p: 'amount', pt: 'msg', to: 'payload.order.amount', tot: 'msg' },
    { t: 'set', p: 'id', pt: 'msg', to: 'payload.order.id', tot: 'msg' },
  ], wires: [['condition']] },
  { id: 'condition', z: 'tab', type: 'switch', property: 'amount', propertyType: 'msg', rules: [{ t: 'gt', v: '10', vt: 'num' }, { t: 'else' }], checkall: 'false', outputs: 2, wires: [['accepted'], ['refused']] },
  { id: 'accepted', z: 'tab', type: 'change', rules: [
    { t: 'set', p: 'payload', pt: 'msg', to: '{}', tot: 'json' },
    { t: 'set', p: 'payload.accepted', pt: 'msg', to: 'id', tot: 'msg' },
  ], wires: [['out']] },
  { id: 'refused', z: 'tab', type: 'change', rules: [
    { t: 'set', p: 'payload', pt: 'msg', to: '{"accepted":false}', tot: 'json' },
    { t: 'set', p: 'statusCode', pt: 'msg', to: '422', tot: 'num' },
  ], wires: [['out']] },
  { id: 'out', z: 'tab', type: 'http response', statusCode: '', headers: {}, wires: [] },
];

const raw = await start(['-e', RAW_SERVER]);
mkdirSync(join(home, 'floor'));
const floor = await start(['-e', DURABLE_FLOOR_SERVER, join(home, 'floor')]);
const nodeRed = nodeRedDir ? await startNodeRed(home, nodeRedFlows, { path: '/respond', headers: { 'content-type': 'application/json' }, body }) : null;
const measured: Array<{ a: Load; b: Load; c: Load; d: Load; e?: Load; base?: { b: Load; c: Load }; off: { b: Load; c: Load }; rss: number }> = [];
const METRICS_OFF = { metrics: { enabled: false } };
// Each build's (b) home of its last round (kept: the restart below replays this build's unfinished journal).
// What --quiet means, spelled so that a base build from before --quiet takes it too.
const QUIET = ['--log-level', 'warn'];
const lastHome = new Map<string, string>();
let respondCount = 0;
/** (b) and (c) on one build: each on a host of its own over a fresh copy of the template home (with `config` as its weir.config.json). */
async function weirRows(cliPath: string, config?: object): Promise<{ b: Load; c: Load; rss: number }> {
  const key = config ? `${cliPath} ${JSON.stringify(config)}` : cliPath;
  const previous = lastHome.get(key);
  if (previous) rmSync(previous, { recursive: true, force: true });
  const roundHome = join(home, `round-${respondCount}`);
  lastHome.set(key, roundHome);
  const copyTemplate = (to: string) => {
    cpSync(join(home, 'template'), to, { recursive: true });
    if (config) writeFileSync(join(to, 'weir.config.json'), JSON.stringify(config));
  };
  copyTemplate(roundHome);
  const durable = await start([cliPath, 'serve', '--home', roundHome, '--port', '0', '--json', ...QUIET]);
  const b = await load(`${durable.url}/trigger/${fast.webhookToken}`, durable.child.pid!);
  const rssB = rssMb(durable.child.pid!);
  await stop(durable.child);
  // (c) on a host of its own: on (b)'s host it would share the CPU with the executions (b) deferred.
  const respondHome = join(home, `respond-${respondCount++}`);
  copyTemplate(respondHome);
  const responding = await start([cliPath, 'serve', '--home', respondHome, '--port', '0', '--json', ...QUIET]);
  const c = await load(`${responding.url}/trigger/${sync.webhookToken}`, responding.child.pid!);
  const rss = Math.max(rssB, rssMb(responding.child.pid!));
  await stop(responding.child);
  rmSync(respondHome, { recursive: true, force: true });
  return { b, c, rss };
}
for (let i = 0; i < rounds; i++) {
  const a = await load(raw.url, raw.child.pid!);
  const d = await load(floor.url, floor.child.pid!);
  // The base build goes first in every other round, so neither build always runs on a warmer machine.
  const base = baseCli && i % 2 === 0 ? await weirRows(baseCli) : undefined;
  const offBefore = i % 2 === 1 ? await weirRows(cli, METRICS_OFF) : undefined;
  const { b, c, rss } = await weirRows(cli);
  const off = offBefore ?? (await weirRows(cli, METRICS_OFF));
  const baseAfter = baseCli && i % 2 === 1 ? await weirRows(baseCli) : undefined;
  const e = nodeRed ? await load(`${nodeRed.url}/respond`, nodeRed.child.pid!) : undefined;
  measured.push({ a, b, c, d, e, rss, off, ...(base || baseAfter ? { base: base ?? baseAfter } : {}) });
}
await stop(raw.child);
await stop(floor.child);
if (nodeRed) await stop(nodeRed.child);

// The last round's load leaves deliveries accepted but not yet run in the journal (a SIGTERM finishes only
// those running): a restart replays them in the background and must listen and answer at once all the same.
const roundHome = lastHome.get(cli)!;
const pendingMb = readdirSync(join(roundHome, 'journal')).reduce((n, f) => n + statSync(join(roundHome, 'journal', f)).size, 0) / 1024 / 1024;
let restartAt = performance.now();
const again = await start([cli, 'serve', '--home', roundHome, '--port', '0', '--json', '--quiet']);
const listenMs = performance.now() - restartAt;
restartAt = performance.now();
const first = await fetch(`${again.url}/trigger/${sync.webhookToken}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const firstMs = performance.now() - restartAt;
await stop(again.child);

const rps = (n: number) => `${Math.round(n)} req/s`;
const line = (label: string, r: Load) =>
  console.log(`  ${label.padEnd(22)} ${rps(r.requests.average).padEnd(14)} p99 ${String(r.latency.p99).padStart(3)} ms  server CPU ${r.cpuUs.toFixed(0).padStart(4)} us/req  non-2xx ${r.non2xx}`);
console.log(`disk under the home: fdatasync median ${fsyncMs(home).toFixed(2)} ms; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
measured.forEach((m, i) => {
  const of = (x: Load, y: Load) => (x.requests.average / y.requests.average).toFixed(2);
  console.log(`round ${i + 1} of ${rounds}: (b)/(a) ${of(m.b, m.a)}, (c)/(a) ${of(m.c, m.a)}, (d)/(a) ${of(m.d, m.a)}, (b)/(d) ${of(m.b, m.d)}, host RSS ${m.rss.toFixed(0)} MB`);
  line('(a) raw node:http', m.a);
  line('(b) weir, 200 durable', m.b);
  line('(c) weir, respond', m.c);
  line('(b-) metrics off, 200', m.off.b);
  line('(c-) metrics off, respond', m.off.c);
  line('(d) durable floor', m.d);
  if (m.e) line('(e) Node-RED, (c) flow', m.e);
  if (m.base) {
    line('(b0) base build, 200', m.base.b);
    line('(c0) base build, respond', m.base.c);
  }
});
const med = (pick: (m: (typeof measured)[number]) => number) => median(measured.map(pick));
const [ra, rb, rc] = [med((m) => m.a.requests.average), med((m) => m.b.requests.average), med((m) => m.c.requests.average)];
const cpu = (k: 'a' | 'b' | 'c' | 'd') => med((m) => m[k].cpuUs).toFixed(0);
console.log(`medians of ${rounds} rounds: server CPU per request (all threads) (a) ${cpu('a')} us, (b) ${cpu('b')} us, (c) ${cpu('c')} us, (d) ${cpu('d')} us`);
const ceiling = (k: 'b' | 'c') => med((m) => cpuCeiling(m[k].cpuUs, m[k].clientUs, m.a.requests.average)).toFixed(2);
console.log(`ceilings with all ${availableParallelism()} cores busy (server + load generator CPU per request): (b) ${ceiling('b')}x of (a), (c) ${ceiling('c')}x; load generator ${med((m) => m.c.clientUs).toFixed(0)} us per request`);
const ratioB = med((m) => m.b.requests.average / m.a.requests.average);
const ratioC = med((m) => m.c.requests.average / m.a.requests.average);
const p99B = med((m) => m.b.latency.p99);
const non2xx = measured.reduce((n, m) => n + m.b.non2xx + m.c.non2xx, 0);
report({ name: '(b) webhook respondImmediately, durable', weir: rps(rb), baseline: rps(ra), ratio: ratioB, target: '>= 0.9x', ok: ratioB >= 0.9 && non2xx === 0 });
// Reference rows, not targets: what a durable intake with nothing else reaches, and how close (b) is to it.
const ratioFloor = med((m) => m.d.requests.average / m.a.requests.average);
const ratioToFloor = med((m) => m.b.requests.average / m.d.requests.average);
console.log(`      (d) durable floor: ${rps(med((m) => m.d.requests.average))} = ${ratioFloor.toFixed(2)}x of (a); (b) is ${ratioToFloor.toFixed(2)}x of (d)`);
report({ name: '(c) webhook -> set -> condition -> respond', weir: rps(rc), baseline: rps(ra), ratio: ratioC, target: '>= 0.7x', ok: ratioC >= 0.7 && non2xx === 0 });
if (nodeRed) {
  const ahead = med((m) => m.c.requests.average / m.e!.requests.average);
  report({ name: '(e) Node-RED 4, the same flow as (c)', weir: rps(rc), baseline: rps(med((m) => m.e!.requests.average)), ratio: ahead, target: '> 1x (weir ahead)', ok: ahead > 1 });
  console.log(`      (e) Node-RED is ${med((m) => m.e!.requests.average / m.a.requests.average).toFixed(2)}x of (a), ${med((m) => m.e!.cpuUs).toFixed(0)} us CPU per request`);
} else console.log(`NOTE  ${NODE_RED_SKIPPED}`);
if (baseCli) {
  const vsBase = (k: 'b' | 'c') => med((m) => m[k].requests.average / m.base![k].requests.average).toFixed(3);
  console.log(`      base build ${process.env.WEIR_BASE_DIR}: (b) is ${vsBase('b')}x of (b0), (c) is ${vsBase('c')}x of (c0) (medians of the rounds' ratios)`);
}
// Metrics on (the default) against off, in the same rounds: counting may cost at most 3 %.
for (const [k, label] of [['b', 'durable 200'], ['c', 'respond']] as const) {
  const onOff = med((m) => m[k].requests.average / m.off[k].requests.average);
  report({ name: `(${k}) ${label}, metrics on vs off`, weir: rps(med((m) => m[k].requests.average)), baseline: rps(med((m) => m.off[k].requests.average)), ratio: onOff, target: '>= 0.97x', ok: onOff >= 0.97 });
}
report({ name: '(b) p99 latency', weir: `${p99B} ms`, baseline: `${med((m) => m.a.latency.p99)} ms`, ratio: p99B / Math.max(1, med((m) => m.a.latency.p99)), target: '< 10 ms', ok: p99B < 10 });
console.log(`restart over ${pendingMb.toFixed(1)} MB of unfinished journal: listening after ${listenMs.toFixed(0)} ms, first answer (${first.status}) ${firstMs.toFixed(0)} ms later`);
const rss = Math.max(...measured.map((m) => m.rss));
report({ name: 'host RSS after load (largest round)', weir: `${rss.toFixed(0)} MB`, baseline: '-', ratio: rss / 120, target: '< 120 MB', ok: rss < 120 });

// 10,000 schedules: interval flows whose due times spread over the seconds it took to publish them; one timer;
// how late each fires against its due time (the runs themselves are stubbed: this measures the timer).
const memory = await createWeir();
const count = Number(process.env.BENCH_SCHEDULES ?? 10000);
const t0 = Date.now();
for (let i = 0; i < count; i += 500) {
  await Promise.all(
    Array.from({ length: Math.min(500, count - i) }, async (_, k) => {
      const n = i + k;
      const wf = await memory.workflows.create(`sched-${n}`);
      await memory.workflows.save(wf.id, { nodes: [{ id: 'schedule_trigger-1', type: 'schedule_trigger', config: { scheduleType: 'interval', intervalValue: 1, intervalUnit: 'minutes' } }], edges: [] });
      await memory.workflows.publish(wf.id);
    }),
  );
}
// A dry run times the initial sync of every schedule, so the first slots can be placed just after it.
const realClock = (offset: number) => ({ now: () => Date.now() + offset, setTimer: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimer: (h: unknown) => clearTimeout(h as NodeJS.Timeout) });
const dry = createScheduler({ storage: memory.storage, bus: memory.bus, workflows: memory.workflows, clock: realClock(0), fire: async () => {} });
let syncMs = performance.now();
await dry.sync();
syncMs = performance.now() - syncMs;
dry.stop();
// Shift the scheduler's clock so the first slots (publish time + 1 min) fall a little after the sync ends.
const published = await memory.workflows.listPublished();
const firstDue = Math.min(...published.map((p) => Date.parse(p.publishedAt))) + 60_000;
const offset = Math.round(firstDue - (Date.now() + 2 * syncMs + 1000));
const late: number[] = [];
const scheduler = createScheduler({ storage: memory.storage, bus: memory.bus, workflows: memory.workflows, clock: realClock(offset), fire: async () => {} });
memory.bus.on('schedule:fired', (e) => late.push(e.late));
await scheduler.sync();
const timers = scheduler.timers;
const lastDue = Math.max(...published.map((p) => Date.parse(p.publishedAt))) + 60_000 - offset;
await new Promise((r) => setTimeout(r, Math.max(0, lastDue - Date.now()) + 200));
scheduler.stop();
const p99 = percentile(late, 99);
console.log(`schedules: ${count} registered (${Date.now() - t0} ms to set up, sync ${syncMs.toFixed(0)} ms), ${timers} timer armed, ${late.length} fired, lateness p50 ${percentile(late, 50)} ms p99 ${p99} ms max ${Math.max(...late)} ms`);
report({ name: `${count} schedules on one timer: p99 lateness`, weir: `${p99} ms`, baseline: '-', ratio: p99 / 20, target: '< 20 ms, 1 timer', ok: p99 < 20 && timers === 1 && late.length === count });
await memory.close();
rmSync(home, { recursive: true, force: true });
