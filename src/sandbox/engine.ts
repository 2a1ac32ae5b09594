import type { QuickJSWASMModule } from 'quickjs-emscripten';
import type { ErrorCode } from '../errors.js';
import { execute } from './execute.js';
import type { ConsoleLevel } from './host.js';
import { createLimit } from './limits.js';
import { createSyntaxErrorCache } from './syntax-errors.js';

/** The limits one engine applies (the `sandbox` settings). */
export interface EngineOptions {
  memoryMb: number;
  maxOutputBytes: number;
}

/** One run, as it crosses to a worker thread: the globals are one JSON object text (`{"$input": ...}`). */
export interface Job {
  code: string;
  inputs: string;
  cpuMs: number;
  logLimits: { lines: number; chars: number };
}

/** How a run ended, as it crosses back: the return value as JSON text, the console lines kept, and how many calls were dropped. */
export interface Reply {
  json?: string;
  error?: { code: ErrorCode; message: string; hints: string[]; status: number };
  logs: Array<[ConsoleLevel, string]>;
  dropped: number;
}

const MB = 1024 * 1024;
// The QuickJS build starts with 16 MB of WebAssembly memory (its own data and stack); a run's heap comes on top.
const BASE_MEMORY = 16 * MB;
const PAGE = 64 * 1024;
// How many code texts that failed to compile a worker remembers.
const SYNTAX_ERRORS_KEPT = 256;

/**
 * QuickJS for one thread: the WebAssembly module loads on first use and is reused; each run gets a fresh
 * runtime and context, so nothing leaks from one run to the next. Memory is capped by the size of the
 * WebAssembly memory itself (QuickJS's own limit does not count every allocation in this build).
 * @example
 * const engine = createEngine({ memoryMb: 32, maxOutputBytes: 4 << 20 })
 * await engine.run({ code: 'return 1', inputs: '{}', cpuMs: 1000, logLimits: { lines: 100, chars: 65536 } }) // { json: '1', logs: [], dropped: 0 }
 */
export function createEngine({ memoryMb, maxOutputBytes }: EngineOptions) {
  let loading: Promise<QuickJSWASMModule> | null = null;
  let wasmMemory: WebAssembly.Memory | null = null;
  const syntaxErrors = createSyntaxErrorCache(SYNTAX_ERRORS_KEPT);
  // When the WebAssembly memory runs out before QuickJS's own limit, QuickJS cannot even allocate its
  // "out of memory" error and throws nothing. A run that leaves the memory mostly grown gets a fresh
  // module next time, so "grown and nothing thrown" always means this run exhausted it.
  const memoryExhausted = () => (wasmMemory?.buffer.byteLength ?? 0) > BASE_MEMORY + (memoryMb * MB) / 2;
  const maximum = Math.ceil((BASE_MEMORY + memoryMb * MB) / PAGE);
  const memoryFull = () => (wasmMemory?.buffer.byteLength ?? 0) >= maximum * PAGE;
  const load = () =>
    (loading ??= (async () => {
      const q = await import('quickjs-emscripten');
      wasmMemory = new WebAssembly.Memory({ initial: BASE_MEMORY / PAGE, maximum });
      // printErr (honoured by Emscripten, missing from the types) keeps a broken instance's abort off stderr.
      const emscriptenModule = { printErr: () => {} } as object;
      return q.newQuickJSWASMModuleFromVariant(q.newVariant(q.RELEASE_SYNC, { wasmMemory, emscriptenModule }));
    })());

  return {
    /** Runs one job; never throws (a failure is the reply's `error`). */
    async run(job: Job): Promise<Reply> {
      const module = await load();
      const limit = createLimit({ cpuMs: job.cpuMs, memoryMb, maxOutputBytes });
      const reply: Reply = { logs: [], dropped: 0 };
      const log = (message: string, level: ConsoleLevel) => void reply.logs.push([level, message]);
      const dropped = () => void reply.dropped++;
      const outcome = execute(module, job.code, { inputs: job.inputs, log, dropped, logLimits: job.logLimits, limit, memoryMb, maxOutputBytes, memoryExhausted, memoryFull, syntaxErrors });
      // A broken instance, or one whose memory stays mostly grown, is replaced before the next run.
      if (outcome.broken || memoryExhausted()) loading = null;
      if (outcome.error) reply.error = { code: outcome.error.code, message: outcome.error.message, hints: outcome.error.hints, status: outcome.error.status };
      else if (outcome.json !== undefined) reply.json = outcome.json;
      return reply;
    },
  };
}
