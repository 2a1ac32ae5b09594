import { spawn, type ChildProcess } from 'node:child_process';

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
