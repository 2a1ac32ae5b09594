// What metrics and traces cost a host, read from where its CPU goes rather than from throughput: `weir serve`
// (metrics on, as by default; the OpenTelemetry API loaded, no SDK) runs under the V8 CPU profiler while
// autocannon drives (b) a webhook answered at once (durable intake) and (c) the Respond flow of bench/host.ts,
// and each sample is charged to the module its code came from (the bundle marks each module with a
// `// src/...` line). The share of the busy samples in src/observe/, prom-client and Node's performance
// observers (prom-client's GC and event-loop metrics) is what metrics and traces add to a request. Unlike a
// throughput ratio between two hosts, a share within one process does not move with the other tenants of a
// shared machine: the 3 % target is checked on it.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWeir } from '../src/weir.js';
import { IMMEDIATE_FLOW, ORDER_BODY, RESPOND_FLOW } from './_flows.js';
import { report, start, stop } from './_stats.js';

const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<{ requests: { average: number }; non2xx: number }>;
const root = fileURLToPath(new URL('..', import.meta.url));
const duration = Number(process.env.BENCH_SECONDS ?? 10);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The module of each line of a bundle file: the last `// src/...` or `// node_modules/...` marker above it. */
function moduleLines(file: string): string[] {
  const byLine: string[] = [];
  let current = '(bundle)';
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const marker = /^\/\/ ((?:src|adapters|node_modules)\/\S+)$/.exec(line);
    if (marker) current = marker[1];
    byLine.push(current);
  }
  return byLine;
}

/** Busy samples by where their code lives: a module of weir's bundle, a package, or Node's internals. */
function samplesByPlace(profileFile: string): Map<string, number> {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const bundles = new Map<string, string[]>();
  const places = new Map<string, number>();
  for (const id of profile.samples) {
    const { url, lineNumber, functionName } = nodes.get(id)!.callFrame;
    let place: string;
    if (url.startsWith('file://') && url.includes('/dist/')) {
      let lines = bundles.get(url);
      if (!lines) bundles.set(url, (lines = moduleLines(fileURLToPath(url))));
      place = lines[lineNumber] ?? '(bundle)';
    } else if (url.includes('/node_modules/')) place = `node_modules/${url.split('/node_modules/').pop()!.split('/')[0]}`;
    else if (url) place = url.startsWith('node:internal/perf') ? 'node:internal/perf' : 'node (other)';
    // `(garbage collector)`, `(program)`, `(idle)`, or a native function (`writev`).
    else place = functionName.startsWith('(') ? functionName : '(native)';
    places.set(place, (places.get(place) ?? 0) + 1);
  }
  // Time the thread waited for work is no request's cost.
  places.delete('(idle)');
  return places;
}

const OBSERVING = (place: string) => place.startsWith('src/observe/') || place === 'node_modules/prom-client' || place === 'node_modules/@opentelemetry' || place === 'node:internal/perf';

const home = mkdtempSync(join(tmpdir(), 'weir-bench-observe-'));
const weir = await createWeir({ home });
const immediate = await weir.workflows.create('bench-immediate');
await weir.workflows.save(immediate.id, IMMEDIATE_FLOW);
await weir.workflows.publish(immediate.id);
const respond = await weir.workflows.create('bench-respond');
await weir.workflows.save(respond.id, RESPOND_FLOW);
await weir.workflows.publish(respond.id);
const tokens = { b: (await weir.workflows.get(immediate.id)).webhookToken!, c: (await weir.workflows.get(respond.id)).webhookToken! };
await weir.close();

for (const [row, name] of [['b', 'webhook respondImmediately, durable'], ['c', 'webhook -> set -> condition -> respond']] as const) {
  const profiles = join(home, `profile-${row}`);
  const host = await start(['--cpu-prof', `--cpu-prof-dir=${profiles}`, join(root, 'dist/cli.js'), 'serve', '--home', home, '--port', '0', '--json', '--quiet']);
  const load = await autocannon({ url: `${host.url}/trigger/${tokens[row]}`, method: 'POST', body: ORDER_BODY, headers: { 'content-type': 'application/json' }, connections: 32, duration });
  await stop(host.child);
  const places = samplesByPlace(join(profiles, readdirSync(profiles)[0]));
  let busy = 0;
  let observing = 0;
  for (const [place, n] of places) {
    busy += n;
    if (OBSERVING(place)) observing += n;
  }
  const share = observing / busy;
  const top = [...places].filter(([p]) => OBSERVING(p)).sort((x, y) => y[1] - x[1]).map(([p, n]) => `${p} ${((100 * n) / busy).toFixed(2)} %`);
  report({
    name: `(${row}) ${name}: metrics + traces' share of the host's busy CPU`,
    weir: `${(100 * share).toFixed(2)} %`,
    baseline: `${Math.round(load.requests.average)} req/s`,
    ratio: 1 / (1 - share),
    target: '<= 3 %',
    ok: share <= 0.03 && load.non2xx === 0,
  });
  console.log(`      ${top.join(', ') || 'no samples there'}`);
}
rmSync(home, { recursive: true, force: true });
