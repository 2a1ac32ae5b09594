// HTTP intake under load (32 connections, autocannon): (a) a raw node:http server that parses the JSON body
// and answers 200, (b) `weir serve` with a published webhook_trigger(respondImmediately: true) flow and
// durable delivery, (c) webhook_trigger(false) -> set -> condition -> respond. Each server runs in its own
// child process, one after another in the same run; host RSS is read after the load. Then 10,000 schedules
// on one timer: how late each fires against its due time.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWeir } from '../src/weir.js';
import { createRunner } from '../src/triggers/runner.js';
import { createScheduler } from '../src/triggers/schedule.js';
import { percentile, report } from './_stats.js';

interface Result {
  requests: { average: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<Result>;

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, process.env.WEIR_CLI ?? 'dist/cli.js');
const duration = Number(process.env.BENCH_SECONDS ?? 10);
const body = JSON.stringify({ order: { id: 12345, amount: 99.5, items: [{ sku: 'a-1', qty: 2 }] }, source: 'bench' });

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

/** Starts a server child that prints `{"url": ...}` as its first line. */
function start(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ child, url: JSON.parse(line).url });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function load(url: string): Promise<Result> {
  const opts = { url, method: 'POST', connections: 32, headers: { 'content-type': 'application/json' }, body };
  await autocannon({ ...opts, duration: 2 }); // warm-up: JIT, caches, the journal's first segment
  return autocannon({ ...opts, duration });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const home = mkdtempSync(join(tmpdir(), 'weir-bench-host-'));
const weir = await createWeir({ home });
const fast = await weir.workflows.create('bench-immediate');
await weir.workflows.save(fast.id, { nodes: [{ id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImmediately: true } }], edges: [] });
await weir.workflows.publish(fast.id);
const sync = await weir.workflows.create('bench-respond');
await weir.workflows.save(sync.id, {
  nodes: [
    { id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImmediately: false } },
    { id: 'set-1', type: 'set', config: { values: { amount: '{{ body.order.amount }}', id: '{{ body.order.id }}' } } },
    { id: 'condition-1', type: 'condition', config: { rules: { '>': [{ var: 'node.set-1.data.amount' }, 10] } } },
    { id: 'respond-1', type: 'respond', config: { status: 200, body: { accepted: '{{ $node.set-1.data.id }}' } } },
    { id: 'respond-2', type: 'respond', config: { status: 422, body: { accepted: false } } },
  ],
  edges: [
    { id: 'e1', source: 'webhook_trigger-1', target: 'set-1' },
    { id: 'e2', source: 'set-1', target: 'condition-1' },
    { id: 'e3', source: 'condition-1', target: 'respond-1', sourceHandle: 'true' },
    { id: 'e4', source: 'condition-1', target: 'respond-2', sourceHandle: 'false' },
  ],
});
await weir.workflows.publish(sync.id);
await weir.close();

const raw = await start(['-e', RAW_SERVER]);
const a = await load(raw.url);
await stop(raw.child);

const host = await start([cli, 'serve', '--home', home, '--port', '0', '--json']);
const b = await load(`${host.url}/trigger/${fast.webhookToken}`);
const c = await load(`${host.url}/trigger/${sync.webhookToken}`);
const rss = rssMb(host.child.pid!);
await stop(host.child);

const rps = (r: Result) => `${Math.round(r.requests.average)} req/s`;
console.log(`(a) raw node:http      ${rps(a).padEnd(14)} p99 ${a.latency.p99} ms`);
console.log(`(b) weir, 200 durable  ${rps(b).padEnd(14)} p99 ${b.latency.p99} ms  non-2xx ${b.non2xx}`);
console.log(`(c) weir, respond      ${rps(c).padEnd(14)} p99 ${c.latency.p99} ms  non-2xx ${c.non2xx}`);
const rb = b.requests.average / a.requests.average;
const rc = c.requests.average / a.requests.average;
report({ name: '(b) webhook respondImmediately, durable', weir: rps(b), baseline: rps(a), ratio: rb, target: '>= 0.8x', ok: rb >= 0.8 && b.non2xx === 0 });
report({ name: '(c) webhook -> set -> condition -> respond', weir: rps(c), baseline: rps(a), ratio: rc, target: '>= 0.6x', ok: rc >= 0.6 && c.non2xx === 0 });
report({ name: '(b) p99 latency', weir: `${b.latency.p99} ms`, baseline: `${a.latency.p99} ms`, ratio: b.latency.p99 / Math.max(1, a.latency.p99), target: '< 10 ms', ok: b.latency.p99 < 10 });
report({ name: 'host RSS after load', weir: `${rss.toFixed(0)} MB`, baseline: '-', ratio: rss / 120, target: '< 120 MB', ok: rss < 120 });

// 10,000 schedules: interval flows whose due times spread over ~3 s, one timer, lateness of each firing.
const memory = await createWeir();
const count = Number(process.env.BENCH_SCHEDULES ?? 10000);
const spreadMs = 3000;
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
// Shift the scheduler's clock so the first slots (publish time + 1 min) fall 2..2+spread s from now.
const published = await memory.workflows.listPublished();
const firstDue = Math.min(...published.map((p) => Date.parse(p.publishedAt))) + 60_000;
const offset = firstDue - (Date.now() + 2000);
const late: number[] = [];
const scheduler = createScheduler({
  weir: memory,
  runner: createRunner(),
  clock: { now: () => Date.now() + offset, setTimer: (fn, ms) => setTimeout(fn, ms), clearTimer: (h) => clearTimeout(h as NodeJS.Timeout) },
  fire: async () => {},
});
memory.bus.on('schedule:fired', (e) => late.push((e as { late: number }).late));
await scheduler.sync();
const timers = scheduler.timers;
const lastDue = Math.max(...published.map((p) => Date.parse(p.publishedAt))) + 60_000 - offset;
await new Promise((r) => setTimeout(r, Math.max(0, lastDue - Date.now()) + 200));
scheduler.stop();
const p99 = percentile(late, 99);
console.log(`schedules: ${count} registered (${Date.now() - t0} ms to set up), ${timers} timer armed, ${late.length} fired, lateness p50 ${percentile(late, 50)} ms p99 ${p99} ms max ${Math.max(...late)} ms`);
report({ name: `${count} schedules on one timer: p99 lateness`, weir: `${p99} ms`, baseline: '-', ratio: p99 / 20, target: '< 20 ms, 1 timer', ok: p99 < 20 && timers === 1 && late.length === count });
await memory.close();
