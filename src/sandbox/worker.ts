// The entry of a sandbox worker thread: one engine per thread, one job at a time, each answered with a Reply.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { createEngine, type EngineOptions, type Job } from './engine.js';

// Code nodes yield the CPU to the host's own thread: when the machine is short of CPU, the intake and other
// flows come first and a Code node spinning at its limit does not slow them. Linux keeps a nice value per
// thread (elsewhere the call would lower the whole process, host included).
const WORKER_NICE = 10;
if (process.platform === 'linux') setPriority(0, WORKER_NICE);

const engine = createEngine(workerData as EngineOptions);
parentPort!.on('message', async (job: Job) => parentPort!.postMessage(await engine.run(job)));
