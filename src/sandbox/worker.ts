// The entry of a sandbox worker thread: one engine per thread, one job at a time, each answered with a Reply.
import { parentPort, workerData } from 'node:worker_threads';
import { createEngine, type EngineOptions, type Job } from './engine.js';

const engine = createEngine(workerData as EngineOptions);
parentPort!.on('message', async (job: Job) => parentPort!.postMessage(await engine.run(job)));
