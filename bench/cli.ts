// Cold start of the CLI: `weir --version` against `node -e 0`, and `weir workflows list` over 1,000
// workflows, run interleaved so machine noise hits both alike; medians of repeated runs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createWeir } from '../src/weir.js';
import { median, report } from './_stats.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const time = (args: string[]) => {
  const t = performance.now();
  execFileSync(process.execPath, args, { stdio: 'ignore' });
  return performance.now() - t;
};

const runs = Number(process.env.BENCH_RUNS ?? 25);
const bare: number[] = [];
const version: number[] = [];
for (let i = 0; i < runs; i++) {
  bare.push(time(['-e', '0']));
  version.push(time([cli, '--version']));
}
const ratio = median(version) / median(bare);
report({ name: 'cold start: weir --version vs node -e 0', weir: `${median(version).toFixed(1)} ms`, baseline: `${median(bare).toFixed(1)} ms`, ratio, target: '<= 1.5x', ok: ratio <= 1.5 });

const home = mkdtempSync(join(tmpdir(), 'weir-bench-'));
const weir = await createWeir({ home });
for (let i = 0; i < 1000; i += 50) await Promise.all(Array.from({ length: 50 }, (_, k) => weir.workflows.create(`flow-${i + k}`)));
await weir.close();
const list: number[] = [];
const listBare: number[] = [];
for (let i = 0; i < Math.ceil(runs / 2); i++) {
  listBare.push(time(['-e', '0']));
  list.push(time([cli, '--home', home, 'workflows', 'list', '--json']));
}
const count = JSON.parse(execFileSync(process.execPath, [cli, '--home', home, 'workflows', 'list', '--json'], { encoding: 'utf8' })).length;
report({ name: `weir workflows list (${count} workflows)`, weir: `${median(list).toFixed(1)} ms`, baseline: `${median(listBare).toFixed(1)} ms`, ratio: median(list) / median(listBare), target: '< 300 ms', ok: median(list) < 300 });
