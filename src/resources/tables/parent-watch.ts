import { Worker } from 'node:worker_threads';

/** How often the watch looks for the parent: a process left behind ends within this. */
const EVERY_MS = 200;

// The watch runs on a thread of its own: a SQLite statement blocks the process's main thread for as long as it
// runs, so a check there could never run while a runaway statement spins. Reparenting changes `process.ppid`
// (to init or a subreaper), which is how a parent killed with SIGKILL shows; SIGKILL ends the whole process
// from this thread (process.exit here would end only the thread).
const WATCH = `const { workerData } = require('node:worker_threads');
setInterval(() => { if (process.ppid !== workerData.parent) process.kill(process.pid, 'SIGKILL'); }, workerData.every);`;

/**
 * Ends this process as soon as the process `parent` is no longer its parent, even while its main thread is
 * busy: a helper process must never outlive the host or CLI that started it. The watch does not keep the
 * process alive.
 * @example
 * endWithParent(Number(process.argv[3]))
 */
export function endWithParent(parent: number): void {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
  new Worker(WATCH, { eval: true, workerData: { parent, every: EVERY_MS } }).unref();
}
