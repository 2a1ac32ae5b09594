import type { QuickJSWASMModule } from 'quickjs-emscripten';
import type { ErrorCode } from '../errors.js';
import { execute, type Outcome } from './execute.js';
import type { ConsoleLevel, HostRun } from './host.js';
import { createLimit, limitError } from './limits.js';
import { createRealm, type Realm } from './realm.js';
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
 * QuickJS for one thread: the WebAssembly module loads on first use and is reused, and so is one realm (a
 * runtime and context with frozen intrinsics, see {@link createRealm}) until a run breaks a limit or leaves
 * something behind; each run gets its own global object in it. Memory is capped by the size of the
 * WebAssembly memory itself (QuickJS's own limit does not count every allocation in this build).
 * @example
 * const engine = createEngine({ memoryMb: 32, maxOutputBytes: 4 << 20 })
 * await engine.run({ code: 'return 1', inputs: '{}', cpuMs: 1000, logLimits: { lines: 100, chars: 65536 } }) // { json: '1', logs: [], dropped: 0 }
 */
export function createEngine({ memoryMb, maxOutputBytes }: EngineOptions) {
  let loading: Promise<QuickJSWASMModule> | null = null;
  let wasmMemory: WebAssembly.Memory | null = null;
  let realm: Realm | null = null;
  let current: HostRun | null = null;
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
      let outcome: Outcome;
      try {
        // Made outside any run, so no run's CPU limit interrupts it.
        realm ??= createRealm(module, memoryMb, () => current);
        current = { limit, log, dropped, logLimits: job.logLimits };
        outcome = execute(realm, job.code, { ...current, inputs: job.inputs, maxOutputBytes, memoryExhausted, memoryFull, syntaxErrors });
      } catch {
        // Building the realm failed: QuickJS itself did.
        outcome = { error: limitError('broken', { cpuMs: job.cpuMs, memoryMb, maxOutputBytes }), broken: true, replace: true };
      } finally {
        current = null;
      }
      // A broken instance, or one whose memory stays mostly grown, is replaced before the next run, and with
      // it the realm; a realm that may hold something of this run is replaced on its own.
      const replaceModule = outcome.broken || memoryExhausted();
      if (realm && (outcome.replace || replaceModule)) {
        try {
          realm.dispose();
        } catch {
          loading = null;
        }
        realm = null;
      }
      if (replaceModule) loading = null;
      if (outcome.error) reply.error = { code: outcome.error.code, message: outcome.error.message, hints: outcome.error.hints, status: outcome.error.status };
      else if (outcome.json !== undefined) reply.json = outcome.json;
      return reply;
    },
  };
}
