// The entry of a sandbox worker thread: one engine per thread, running the jobs of each list in order and
// answering with their replies (see WorkerAnswer).
import { setPriority } from 'node:os';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { LONG_RUN_MS, createEngine, type EngineOptions, type Job, type Reply } from './engine.js';

// Code nodes yield the CPU to the host's own thread: when the machine is short of CPU, the intake and other
// flows come first and a Code node spinning at its limit does not slow them. Linux keeps a nice value per
// thread (elsewhere the call would lower the whole process, host included).
const WORKER_NICE = 10;
if (process.platform === 'linux') setPriority(0, WORKER_NICE);

const engine = createEngine(workerData as EngineOptions);
const port = parentPort!;
// Replies of a list wait for the rest of the list, unless a job runs long: then they leave at once.
const held: Reply[] = [];
const flush = () => {
  if (held.length) port.postMessage(held.splice(0));
};
// The list running, and where in it.
let list: Job[] = [];
let at = 0;

/** The running job passed LONG_RUN_MS: the jobs behind it (in its list and in the port) go back unrun. */
const overdue = {
  afterMs: LONG_RUN_MS,
  reached() {
    let back = list.length - at - 1;
    list = list.slice(0, at + 1);
    for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) back += (next.message as Job[]).length;
    flush();
    if (back) port.postMessage(back);
  },
};

/** Runs `jobs` from `from` on; a promise only when QuickJS must load first (lists then wait their turn). */
function runList(jobs: Job[], from = 0): Promise<void> | undefined {
  list = jobs;
  for (at = from; at < list.length; at++) {
    const reply = engine.run(list[at], overdue);
    if (reply instanceof Promise) {
      flush();
      const resumeAt = at;
      return reply.then((r) => {
        held.push(r);
        // `list`, not `jobs`: the jobs handed back while this one ran are no longer in it.
        return runList(list, resumeAt + 1);
      });
    }
    held.push(reply);
  }
  flush();
  return undefined;
}

let loading: Promise<void> | undefined;
port.on('message', (jobs: Job[]) => {
  const mine = (loading = loading ? loading.then(() => runList(jobs)) : runList(jobs));
  void mine?.then(() => {
    if (loading === mine) loading = undefined;
  });
});
