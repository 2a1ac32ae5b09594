// Scale-out on Redis: executions per second of an I/O-bound flow (`delay` 50 ms) with 1, 2 and 3 worker
// processes (`weir serve --role worker`) in the same run, and webhook intake requests/s on Redis storage
// beside the embedded fs default (autocannon). Needs Redis on 127.0.0.1:6379 (test/scale/services.mjs).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWeir } from '../src/weir.js';
import { median, report } from './_stats.js';
import { REDIS_URL, dropRedisPrefix } from '../test/scale/_scale.js';

const cli = fileURLToPath(new URL(`../${process.env.WEIR_CLI ?? 'dist/cli.js'}`, import.meta.url));
const prefix = `weirb_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 5);
const JOBS_PER_WORKER = Number(process.env.BENCH_JOBS ?? 300);

const home = (config: object) => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-bench-scale-'));
  writeFileSync(join(dir, 'weir.config.json'), JSON.stringify(config));
  return dir;
};
const redisConfig = (queue: boolean) => ({
  storage: { cloud: { driver: 'redis', url: REDIS_URL, base: prefix } },
  ...(queue ? { queue: { driver: 'bullmq', url: REDIS_URL, prefix, concurrency: CONCURRENCY } } : {}),
  executions: { maxPerWorkflow: 100000 },
});

/** Starts `weir serve` and resolves with its URL (null for a worker without a port) once it is ready. */
function serve(dir: string, args: string[]): Promise<{ child: ChildProcess; url: string | null }> {
  const child = spawn(process.execPath, [cli, '--home', dir, 'serve', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url || /worker ready/.test(out)) resolve({ child, url: url ?? null });
    });
    child.once('exit', (code) => reject(new Error(`weir serve exited with ${code}: ${out}`)));
  });
}
const stop = (child: ChildProcess) => new Promise((r) => (child.exitCode !== null ? r(null) : (child.once('exit', r), child.kill('SIGTERM'))));

const trigger = (type: string, config: object, nodes: object[] = []) => ({
  nodes: [{ id: `${type}-1`, type, config }, ...nodes],
  edges: nodes.map((n: any) => ({ id: `e-${n.id}`, source: `${type}-1`, target: n.id })),
  variables: {},
  metadata: {},
});

// 1. Executions/s with 1, 2, 3 workers: the bench process enqueues, the workers run.
const queueHome = home(redisConfig(true));
const weir = await createWeir({ home: queueHome });
const { id } = await weir.workflows.create('io-bound', undefined, { config: trigger('manual_trigger', {}, [{ id: 'delay-1', type: 'delay', config: { ms: 50 } }]) as never });
await weir.workflows.publish(id);
const pub = (await weir.workflows.findPublished(id))!;
const queue = weir.runtime.queue!;
const workflow = { id: pub.id, name: pub.name, version: pub.version, config: pub.config };
const runJobs = (n: number) => Promise.all(Array.from({ length: n }, () => queue.run({ workflow, input: {}, trigger: 'manual' })));

const rates: Record<number, number> = {};
for (const workers of [1, 2, 3]) {
  const procs = await Promise.all(Array.from({ length: workers }, () => serve(queueHome, ['--role', 'worker'])));
  await runJobs(CONCURRENCY * workers * 2); // warm-up: connections, JIT
  const samples: number[] = [];
  for (let round = 0; round < 3; round++) {
    const jobs = JOBS_PER_WORKER * workers;
    const t = performance.now();
    const records = await runJobs(jobs);
    samples.push(jobs / ((performance.now() - t) / 1000));
    if (records.some((r) => r.status !== 'success')) throw new Error('an execution failed');
  }
  rates[workers] = median(samples);
  console.log(`  ${workers} worker${workers > 1 ? 's' : ' '} x ${CONCURRENCY} at once: ${rates[workers].toFixed(0)} executions/s (ideal ${((workers * CONCURRENCY * 1000) / 50).toFixed(0)})`);
  await Promise.all(procs.map((p) => stop(p.child)));
}
await weir.close();
for (const workers of [2, 3]) {
  const ratio = rates[workers] / rates[1];
  const target = workers === 3 ? 2.5 : 1.7;
  report({ name: `executions/s, ${workers} workers vs 1 (delay 50 ms)`, weir: `${rates[workers].toFixed(0)}/s`, baseline: `${rates[1].toFixed(0)}/s`, ratio, target: `>= ${target}x`, ok: ratio >= target });
}

// 2. Webhook intake requests/s: the embedded fs default, Redis storage, and a Redis intake host that only enqueues.
const { default: autocannon } = await import('autocannon');
async function intake(config: object, args: string[] = []): Promise<number> {
  const dir = home(config);
  const w = await createWeir({ home: dir });
  const created = await w.workflows.create(`hook-${randomBytes(4).toString('hex')}`, undefined, { config: trigger('webhook_trigger', { respondImmediately: true }) as never });
  await w.workflows.publish(created.id);
  await w.close();
  const host = await serve(dir, ['--port', '0', ...args]);
  const workers = args.includes('intake') ? await serve(dir, ['--role', 'worker']) : null;
  const url = `${host.url}/trigger/${created.webhookToken}`;
  const run = (duration: number) =>
    autocannon({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order":42}', connections: 32, duration });
  await run(1);
  const result = await run(Number(process.env.BENCH_SECONDS ?? 5));
  await stop(host.child);
  if (workers) await stop(workers.child);
  if (result.non2xx) throw new Error(`${result.non2xx} intake requests failed`);
  return result.requests.average;
}
const fsRate = await intake({});
const redisRate = await intake(redisConfig(false));
const queuedRate = await intake(redisConfig(true), ['--role', 'intake']);
// Redis answers over the network what the fs driver reads from cached files (token, published copy,
// capture session), and the queued intake adds the BullMQ job; a third of the embedded rate is the floor.
report({ name: 'webhook intake req/s: Redis storage vs fs default', weir: `${redisRate.toFixed(0)}/s`, baseline: `${fsRate.toFixed(0)}/s`, ratio: redisRate / fsRate, target: '>= 0.33x', ok: redisRate / fsRate >= 0.33 });
report({ name: 'webhook intake req/s: Redis + queue intake vs fs', weir: `${queuedRate.toFixed(0)}/s`, baseline: `${fsRate.toFixed(0)}/s`, ratio: queuedRate / fsRate, target: '>= 0.33x', ok: queuedRate / fsRate >= 0.33 });

// Leave nothing behind in Redis.
await dropRedisPrefix(prefix);
