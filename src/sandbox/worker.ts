// The entry of a sandbox worker thread: one engine per thread, one job at a time, each answered with a Reply.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createEngine, type EngineOptions, type Job, type Reply } from './engine.js';

// Code nodes yield the CPU to the host's own thread: when the machine is short of CPU, the intake and other
// flows come first and a Code node spinning at its limit does not slow them. Linux keeps a nice value per
// thread (elsewhere the call would lower the whole process, host included).
const WORKER_NICE = 10;
if (process.platform === 'linux') setPriority(0, WORKER_NICE);

const engine = createEngine(workerData as EngineOptions);
const port = parentPort!;
const answer = (reply: Reply) => port.postMessage(reply);
port.on('message', (job: Job) => {
  const reply = engine.run(job);
  if (reply instanceof Promise) void reply.then(answer);
  else answer(reply);
});
