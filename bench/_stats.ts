import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Helpers shared by the benchmarks: statistics, result rows, server child processes. */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** Prints one result row: name, weir figure, baseline figure, ratio and whether the target holds. */
export function report(row: { name: string; weir: string; baseline: string; ratio: number; target: string; ok: boolean }): void {
  console.log(`${row.ok ? 'PASS' : 'MISS'}  ${row.name.padEnd(46)} weir ${row.weir.padEnd(16)} baseline ${row.baseline.padEnd(16)} ratio ${row.ratio.toFixed(2).padStart(6)}  target ${row.target}`);
}

/** Starts a server child process that prints `{"url": ...}` as its first line; resolves once it has. */
export function start(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ child, url: JSON.parse(out.split('\n')[0]).url });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** Stops a server child with SIGTERM and waits for it to exit. */
export async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** CPU time (user + system, all threads) of a process so far, in ms (Linux `/proc`). */
export function processCpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

/** One load run with the CPU per request it cost the server (process `pid`) and the load generator (this process). */
export async function withCpu<R extends { requests: { average: number } }>(pid: number, seconds: number, run: () => Promise<R>): Promise<R & { cpuUs: number; clientUs: number }> {
  const server = processCpuMs(pid);
  const client = process.cpuUsage();
  const r = await run();
  const { user, system } = process.cpuUsage(client);
  const total = Math.max(1, r.requests.average * seconds);
  return { ...r, cpuUs: ((processCpuMs(pid) - server) * 1000) / total, clientUs: (user + system) / total };
}

/**
 * The most a server could answer with every core busy, for its CPU per request and the load generator's
 * (which shares the cores), as a ratio to `baselineRps`: above it, only a cheaper request gets.
 */
export const cpuCeiling = (serverUs: number, clientUs: number, baselineRps: number): number => (availableParallelism() * 1e6) / ((serverUs + clientUs) * baselineRps);
