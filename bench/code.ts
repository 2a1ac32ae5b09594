// A Code node on the request path (32 connections, autocannon), each server in its own child process:
// (a) a raw node:http server that checks an HMAC-SHA256 signature of the body and answers a small JSON;
// (b) `weir serve` with webhook_trigger(respondImmediately: false) -> code -> respond, the Code node doing
//     the same check with $crypto.hmac and $crypto.timingSafeEqual in the QuickJS sandbox;
// (b0) the same flow on another weir build when WEIR_BASE_DIR names one (a checkout with dist/ built), to
//     compare two builds in one run;
// (c) Node-RED 4 `http in -> function -> http response` doing the same work, when NODE_RED_DIR names a
//     directory where node-red@4 is installed (`npm install --prefix <dir> node-red@4`); never a dependency.
// The servers are measured in interleaved rounds (BENCH_ROUNDS, default 5) and the medians of each round's
// ratios are reported, as the machine's speed drifts. Then: while Code nodes spin at their CPU limit (their
// webhook called continuously), the p99 latency of another flow's webhook.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FlowEdge, FlowNode } from '../src/index.js';
import { createWeir } from '../src/weir.js';
import { NODE_RED_SKIPPED, nodeRedDir, startNodeRed } from './_node-red.js';
import { cpuCeiling, median, report, start, stop, withCpu } from './_stats.js';

interface Result {
  requests: { average: number };
  latency: { p99: number; p50: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<Result>;
type Measured = Result & { cpuUs: number; clientUs: number };

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = resolve(root, process.env.WEIR_CLI ?? 'dist/cli.js');
const baseCli = process.env.WEIR_BASE_DIR ? resolve(process.env.WEIR_BASE_DIR, 'dist/cli.js') : null;
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const KEY = 'bench-signing-key';
const body = JSON.stringify({ order: { id: 12345, amount: 99.5, items: [{ sku: 'a-1', qty: 2 }] }, source: 'bench' });
const headers = { 'content-type': 'application/json', 'x-signature': createHmac('sha256', KEY).update(body).digest('hex') };

const CODE = `const sig = $crypto.hmac('sha256', '${KEY}', $input.rawBody, 'hex')
if (!$crypto.timingSafeEqual(sig, $input.headers['x-signature'] ?? '')) throw Object.assign(new Error('bad signature'), { status: 401 })
return { ok: true, id: $input.body.order.id }`;

const RAW_SERVER = `
const http = require('node:http');
const { createHmac, timingSafeEqual } = require('node:crypto');
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    const sig = Buffer.from(createHmac('sha256', '${KEY}').update(raw).digest('hex'));
    const got = Buffer.from(String(req.headers['x-signature'] || ''));
    if (sig.length !== got.length || !timingSafeEqual(sig, got)) { res.writeHead(401); return res.end(); }
    const out = JSON.stringify({ ok: true, id: JSON.parse(raw).order.id });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  });
}).listen(0, '127.0.0.1', function () { console.log(JSON.stringify({ url: 'http://127.0.0.1:' + this.address().port })); });
`;

const NODE_RED_FUNCTION = `const crypto = global.get('crypto');
const raw = msg.payload.toString('utf8');
const sig = Buffer.from(crypto.createHmac('sha256', '${KEY}').update(raw).digest('hex'));
const got = Buffer.from(String(msg.req.headers['x-signature'] || ''));
if (sig.length !== got.length || !crypto.timingSafeEqual(sig, got)) { msg.statusCode = 401; msg.payload = ''; return msg; }
msg.payload = { ok: true, id: JSON.parse(raw).order.id };
return msg;`;

const nodeRedFlows = [
  { id: 'tab', type: 'tab', label: 'bench' },
  { id: 'in', z: 'tab', type: 'http in', url: '/sig', method: 'post', skipBodyParsing: true, wires: [['fn']] },
  { id: 'fn', z: 'tab', type: 'function', func: NODE_RED_FUNCTION, outputs: 1, wires: [['out']] },
  { id: 'out', z: 'tab', type: 'http response', statusCode: '', headers: {}, wires: [] },
];

/**
 * Load on one URL (a 2 s warm-up first): requests/s and latency from autocannon, with the CPU per request of
 * the server (process `pid`) and of the load generator (this process).
 */
async function load(url: string, pid: number, connections = 32, seconds = duration): Promise<Measured> {
  const opts = { url, method: 'POST', connections, headers, body };
  await autocannon({ ...opts, duration: 2 });
  return withCpu(pid, seconds, () => autocannon({ ...opts, duration: seconds }));
}

const home = mkdtempSync(join(tmpdir(), 'weir-bench-code-'));
const weir = await createWeir({ home: join(home, 'template') });
const publish = async (name: string, nodes: FlowNode[], edges: FlowEdge[]) => {
  const wf = await weir.workflows.create(name);
  await weir.workflows.save(wf.id, { nodes, edges });
  await weir.workflows.publish(wf.id);
  return `/trigger/${wf.webhookToken}`;
};
const codeChain = (code: string): [FlowNode[], FlowEdge[]] => [
  [
    { id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImmediately: false } },
    { id: 'code-1', type: 'code', config: { code } },
    { id: 'respond-1', type: 'respond', config: { status: 200, body: { ok: '{{ $node.code-1.data.ok }}', id: '{{ $node.code-1.data.id }}' } } },
  ],
  [
    { id: 'e1', source: 'webhook_trigger-1', target: 'code-1' },
    { id: 'e2', source: 'code-1', target: 'respond-1' },
  ],
];
const signaturePath = await publish('bench-code', ...codeChain(CODE));
const spinPath = await publish('bench-spin', ...codeChain('while (true) {}'));
const otherPath = await publish('bench-other', [
  { id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImmediately: false } },
  { id: 'respond-1', type: 'respond', config: { status: 200, body: { accepted: '{{ body.order.id }}' } } },
], [{ id: 'e1', source: 'webhook_trigger-1', target: 'respond-1' }]);
await weir.close();

/** A weir host of `build` on a fresh copy of the template home; stopped and removed by the returned function. */
async function weirHost(build: string, label: string) {
  const dir = join(home, `${label}-${Date.now()}`);
  cpSync(join(home, 'template'), dir, { recursive: true });
  // --log-level warn (what --quiet means) rather than --quiet: a base build from before --quiet takes it too.
  const host = await start([build, 'serve', '--home', dir, '--port', '0', '--json', '--log-level', 'warn']);
  return { url: host.url, pid: host.child.pid!, close: async () => (await stop(host.child), rmSync(dir, { recursive: true, force: true })) };
}

type Round = { raw: Measured; weir: Measured; base?: Measured; nodeRed?: Measured };
const raw = await start(['-e', RAW_SERVER]);
const nodeRed = nodeRedDir ? await startNodeRed(home, nodeRedFlows, { path: '/sig', headers, body }) : null;
const measured: Round[] = [];
for (let i = 0; i < rounds; i++) {
  const round: Partial<Round> = { raw: await load(raw.url, raw.child.pid!) };
  for (const [key, build] of [['weir', cli], ['base', baseCli]] as const) {
    if (!build) continue;
    const host = await weirHost(build, key);
    round[key] = await load(host.url + signaturePath, host.pid);
    await host.close();
  }
  if (nodeRed) round.nodeRed = await load(`${nodeRed.url}/sig`, nodeRed.child.pid!);
  measured.push(round as Round);
}
await stop(raw.child);
if (nodeRed) await stop(nodeRed.child);

/** While `spinners` requests at a time call the spinning flow, the other flow's latency under 8 connections. */
async function whileSpinning(build: string, label: string, spinners = 4) {
  const host = await weirHost(build, `spin-${label}`);
  await load(host.url + otherPath, host.pid, 8, 1);
  let spinning = true;
  let spun = 0;
  const spinner = async () => {
    while (spinning) {
      const r = await fetch(host.url + spinPath, { method: 'POST', headers, body });
      await r.arrayBuffer();
      if (r.status === 500) spun++;
    }
  };
  const running = Array.from({ length: spinners }, spinner);
  const other = await autocannon({ url: host.url + otherPath, method: 'POST', connections: 8, headers, body, duration });
  spinning = false;
  await Promise.all(running);
  await host.close();
  return { other, spun };
}
const spin = await whileSpinning(cli, 'weir');
const spinBase = baseCli ? await whileSpinning(baseCli, 'base') : null;

const rps = (n: number) => `${Math.round(n)} req/s`;
const line = (label: string, r: Measured) =>
  console.log(`  ${label.padEnd(26)} ${rps(r.requests.average).padEnd(14)} p50 ${String(r.latency.p50).padStart(3)} ms  p99 ${String(r.latency.p99).padStart(3)} ms  server CPU ${r.cpuUs.toFixed(0).padStart(4)} us/req  non-2xx ${r.non2xx}  errors ${r.errors}`);
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
measured.forEach((m, i) => {
  const of = (x?: Result) => (x ? (x.requests.average / m.raw.requests.average).toFixed(2) : '-');
  console.log(`round ${i + 1} of ${rounds}: weir/raw ${of(m.weir)}, base/raw ${of(m.base)}, Node-RED/raw ${of(m.nodeRed)}`);
  line('(a) raw node:http', m.raw);
  line('(b) weir code flow', m.weir);
  if (m.base) line('(b0) weir code flow, base', m.base);
  if (m.nodeRed) line('(c) Node-RED function', m.nodeRed);
});
const med = (pick: (m: Round) => number) => median(measured.map(pick));
const rawRps = med((m) => m.raw.requests.average);
const ratio = med((m) => m.weir.requests.average / m.raw.requests.average);
const failed = measured.reduce((n, m) => n + m.weir.non2xx + m.weir.errors, 0);
const ceiling = med((m) => cpuCeiling(m.weir.cpuUs, m.weir.clientUs, m.raw.requests.average));
console.log(`medians: server CPU per request (all threads) (a) ${med((m) => m.raw.cpuUs).toFixed(0)} us, (b) ${med((m) => m.weir.cpuUs).toFixed(0)} us; with all ${availableParallelism()} cores busy (b) could reach ${ceiling.toFixed(2)}x of (a)`);
report({ name: '(b) webhook -> code (HMAC check) -> respond', weir: rps(med((m) => m.weir.requests.average)), baseline: rps(rawRps), ratio, target: '>= 0.3x (goal 0.5x)', ok: ratio >= 0.3 && failed === 0 });
if (baseCli) {
  const baseRatio = med((m) => m.base!.requests.average / m.raw.requests.average);
  const gain = med((m) => m.weir.requests.average / m.base!.requests.average);
  console.log(`      (b0) base build ${process.env.WEIR_BASE_DIR}: ${rps(med((m) => m.base!.requests.average))} = ${baseRatio.toFixed(2)}x of (a); (b) is ${gain.toFixed(2)}x of (b0), p99 ${med((m) => m.weir.latency.p99)} ms against ${med((m) => m.base!.latency.p99)} ms`);
}
if (nodeRed) {
  const redRatio = med((m) => m.nodeRed!.requests.average / m.raw.requests.average);
  const ahead = med((m) => m.weir.requests.average / m.nodeRed!.requests.average);
  report({ name: '(c) Node-RED 4 http in -> function -> response', weir: rps(med((m) => m.weir.requests.average)), baseline: rps(med((m) => m.nodeRed!.requests.average)), ratio: ahead, target: '> 1x (weir ahead)', ok: ahead > 1 });
  console.log(`      (c) Node-RED is ${redRatio.toFixed(2)}x of (a)`);
} else {
  console.log(`NOTE  ${NODE_RED_SKIPPED}`);
}
const p99 = spin.other.latency.p99;
report({ name: 'other flow p99 while Code nodes spin', weir: `${p99} ms`, baseline: '-', ratio: p99 / 50, target: '< 50 ms', ok: p99 < 50 && spin.spun > 0 && spin.other.non2xx === 0 });
console.log(`      ${rps(spin.other.requests.average)} on the other flow (8 connections) while ${spin.spun} spinning runs hit their CPU limit${spinBase ? `; base build: p99 ${spinBase.other.latency.p99} ms, ${rps(spinBase.other.requests.average)}, ${spinBase.spun} spinning runs` : ''}`);
rmSync(home, { recursive: true, force: true });
