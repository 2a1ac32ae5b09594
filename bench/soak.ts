// Soak: `weir serve` with a Respond flow (webhook_trigger(false) -> set -> respond) under autocannon load
// (32 connections) for BENCH_SOAK_S seconds (default 180). Every BENCH_SOAK_SAMPLE_S seconds (default 5) the
// home's size on disk (du) and the host's RSS are sampled. At the end `weir doctor --json` tells what the
// home holds by kind; what retention keeps is estimated as maxPerWorkflow records at the batches' mean size
// plus everything that is not an execution batch. Targets: the largest home sampled within 100 MB of that,
// p99 < 10 ms, worst answer < 250 ms, and the host's RSS flat (its last third's mean within 25 % of its
// second third's).
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createWeir } from '../src/weir.js';
import { start, stop } from './_stats.js';

interface Result {
  requests: { average: number; total: number };
  latency: { p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<Result>;
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, process.env.WEIR_CLI ?? 'dist/cli.js');
const seconds = Number(process.env.BENCH_SOAK_S ?? 180);
const sampleS = Number(process.env.BENCH_SOAK_SAMPLE_S ?? 5);
const MAX_PER_WORKFLOW = 1000;
const MB = 1024 * 1024;
const body = JSON.stringify({ order: { id: 12345, amount: 99.5, items: [{ sku: 'a-1', qty: 2 }] }, source: 'bench' });

const home = mkdtempSync(join(tmpdir(), 'weir-bench-soak-'));
const weir = await createWeir({ home });
const flow = await weir.workflows.create('soak-respond');
await weir.workflows.save(flow.id, {
  nodes: [
    { id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImmediately: false } },
    { id: 'set-1', type: 'set', config: { values: { amount: '{{ body.order.amount }}', id: '{{ body.order.id }}' } } },
    { id: 'respond-1', type: 'respond', config: { status: 200, body: { accepted: '{{ $node.set-1.data.id }}' } } },
  ],
  edges: [
    { id: 'e1', source: 'webhook_trigger-1', target: 'set-1' },
    { id: 'e2', source: 'set-1', target: 'respond-1' },
  ],
});
await weir.workflows.publish(flow.id);
const token = flow.webhookToken;
await weir.close();

// Files pruned while `du` walks the home make it exit 1 with the total of the rest, which is what we want.
const du = async (): Promise<number> => {
  const out = await promisify(execFile)('du', ['-s', '--block-size=1', home]).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  const bytes = Number(out.stdout.split('\t')[0]);
  if (!Number.isFinite(bytes) || !out.stdout) throw new Error(`du gave no size of ${home}`);
  return bytes;
};
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const host = await start([cli, 'serve', '--home', home, '--port', '0', '--json', '--log-level', 'warn']);
const pid = host.child.pid!;
const samples: Array<{ t: number; homeMb: number; rssMb: number }> = [];
const began = Date.now();
let sampling = false;
const timer = setInterval(() => {
  if (sampling) return;
  sampling = true;
  void du()
    .then((bytes) => samples.push({ t: Math.round((Date.now() - began) / 1000), homeMb: bytes / MB, rssMb: rssMb(pid) }))
    // A sample that could not be taken is left out (the next one comes in a few seconds).
    .catch((err) => console.error(`a sample was skipped: ${(err as Error).message}`))
    .finally(() => (sampling = false));
}, sampleS * 1000);
// The host goes however the load ends: a failed run leaves no `weir serve` behind.
const result = await autocannon({ url: `${host.url}/trigger/${token}`, method: 'POST', connections: 32, headers: { 'content-type': 'application/json' }, body, duration: seconds }).finally(async () => {
  clearInterval(timer);
  await stop(host.child);
});

const doctor = spawnSync(process.execPath, [cli, '--home', home, 'doctor', '--json'], { encoding: 'utf8' });
const report = JSON.parse(doctor.stdout) as { kinds: Array<{ kind: string; place: string; count: number; bytes: number; records?: number }>; total: { bytes: number } };
const batches = report.kinds.find((k) => k.kind === 'execution batches');
const perRecord = batches && batches.records ? batches.bytes / batches.records : 0;
const keptMb = (report.total.bytes - (batches?.bytes ?? 0) + perRecord * MAX_PER_WORKFLOW) / MB;

console.log(`${seconds} s of load, ${Math.round(result.requests.average)} req/s, ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors`);
console.log('  t(s)   home MB   host RSS MB');
for (const s of samples) console.log(`  ${String(s.t).padStart(4)}  ${s.homeMb.toFixed(1).padStart(8)}  ${s.rssMb.toFixed(0).padStart(12)}`);
console.log('weir doctor after the load:');
for (const k of report.kinds) console.log(`  ${`${k.place} ${k.kind}`.padEnd(32)} ${String(k.count).padStart(8)}  ${(k.bytes / MB).toFixed(2).padStart(8)} MB${k.records === undefined ? '' : `  (${k.records} records)`}`);

const largest = Math.max(0, ...samples.map((s) => s.homeMb));
const third = Math.max(1, Math.floor(samples.length / 3));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const rssMid = mean(samples.slice(third, 2 * third).map((s) => s.rssMb));
const rssEnd = mean(samples.slice(-third).map((s) => s.rssMb));
const line = (ok: boolean, what: string, figure: string, target: string) => console.log(`${ok ? 'PASS' : 'MISS'}  ${what.padEnd(44)} ${figure.padEnd(22)} target ${target}`);
line(largest - keptMb < 100, 'largest home beyond what retention keeps', `${(largest - keptMb).toFixed(1)} MB (kept ${keptMb.toFixed(1)})`, '< 100 MB');
line(result.latency.p99 < 10, 'p99', `${result.latency.p99} ms`, '< 10 ms');
line(result.latency.max < 250, 'worst answer', `${result.latency.max} ms`, '< 250 ms');
line(rssEnd <= rssMid * 1.25, 'host RSS flat (last third vs second third)', `${rssMid.toFixed(0)} -> ${rssEnd.toFixed(0)} MB`, 'within 25 %');
