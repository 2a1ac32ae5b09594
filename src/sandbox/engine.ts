import type { QuickJSWASMModule } from 'quickjs-emscripten';
import type { ErrorCode } from '../errors.js';
import { execute, type ExecuteOptions, type Outcome } from './execute.js';
import type { ConsoleLevel, HostRun } from './host.js';
import { Limit, limitError, type Overdue } from './limits.js';
import { createRealm, type Realm } from './realm.js';
import { createSyntaxErrorCache } from './syntax-errors.js';

/** The limits one engine applies (the `sandbox` settings). */
export interface EngineOptions {
  memoryMb: number;
  maxOutputBytes: number;
}

/**
 * One run, as it crosses to a worker thread: the code, the globals as one JSON object text (`{"$input": ...}`),
 * the CPU limit in ms and the console budget (lines, characters). Flat, as a structured clone of an array of
 * primitives costs less than one of an object.
 */
export type Job = [code: string, inputs: string, cpuMs: number, lines: number, chars: number];

export interface ReplyError {
  code: ErrorCode;
  message: string;
  hints: string[];
  status: number;
}

/**
 * How a run ended, as it crosses back. A run that succeeded and logged nothing (the common case) is only its
 * return value as JSON text (undefined for none); otherwise the value, the console lines kept, how many calls
 * were dropped, and the error.
 */
export type Reply = string | undefined | [json: string | undefined, logs: Array<[ConsoleLevel, string]>, dropped: number, error?: ReplyError];

/**
 * The messages between the pool and a worker. Jobs go in lists (those the host sent in one turn of its event
 * loop) and replies come back in lists, in the jobs' order: one message each way per turn rather than one per
 * job, since each message can wake a thread. A number instead of replies hands that many jobs back unrun:
 * the ones waiting behind a job that ran past {@link LONG_RUN_MS}, for the pool to give to another worker.
 */
export type WorkerAnswer = Reply[] | number;

/** How long a job may run before the jobs behind it in its worker go back to the pool (and none are sent behind it). */
export const LONG_RUN_MS = 5;

const MB = 1024 * 1024;
// The QuickJS build starts with 16 MB of WebAssembly memory (its own data and stack); a run's heap comes on top.
const BASE_MEMORY = 16 * MB;
const PAGE = 64 * 1024;
// How many code texts that failed to compile a worker remembers.
const SYNTAX_ERRORS_KEPT = 256;

/**
 * QuickJS for one thread: the WebAssembly module loads on first use and is reused, and so is one realm (a
 * runtime and context with frozen intrinsics, see {@link createRealm}) until a run breaks a limit or leaves
 * something behind; each run's globals are cleared from it after the run. Memory is capped by the size of the
 * WebAssembly memory itself (QuickJS's own limit does not count every allocation in this build).
 * @example
 * const engine = createEngine({ memoryMb: 32, maxOutputBytes: 4 << 20 })
 * await engine.run(['return 1', '{}', 1000, 100, 65536]) // '1'
 */
export function createEngine({ memoryMb, maxOutputBytes }: EngineOptions) {
  let loading: Promise<QuickJSWASMModule> | null = null;
  // The module once loaded, so a run does not wait a promise turn for it.
  let loaded: QuickJSWASMModule | null = null;
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
      return (loaded = await q.newQuickJSWASMModuleFromVariant(q.newVariant(q.RELEASE_SYNC, { wasmMemory, emscriptenModule })));
    })());
  const logs: Array<[ConsoleLevel, string]> = [];
  let droppedCalls = 0;
  const log = (message: string, level: ConsoleLevel) => void logs.push([level, message]);
  const dropped = () => void droppedCalls++;

  const runWith = (module: QuickJSWASMModule, [code, inputs, cpuMs, lines, chars]: Job, overdue?: Overdue): Reply => {
    let outcome: Outcome;
    try {
      // Made outside any run, so no run's CPU limit interrupts it or counts it: a cold worker's first realm
      // takes a few hundred ms on a busy machine, which must not fail the first run of a flow with the CPU limit.
      realm ??= createRealm(module, { memoryMb, maxOutputBytes }, () => current);
      const limit = new Limit({ cpuMs, memoryMb, maxOutputBytes }, overdue);
      // One object both for the host functions (as the current run) and for execute: a literal, so each run's has the same shape.
      const run: ExecuteOptions = { limit, log, dropped, logLimits: { lines, chars }, inputs, maxOutputBytes, memoryExhausted, memoryFull, syntaxErrors };
      current = run;
      outcome = execute(realm, code, run);
    } catch {
      // Building the realm failed: QuickJS itself did.
      outcome = { error: limitError('broken', { cpuMs, memoryMb, maxOutputBytes }), broken: true, replace: true };
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
    if (replaceModule || !loading) loading = loaded = null;
    const { error } = outcome;
    if (!error && !logs.length && !droppedCalls) return outcome.json;
    const reply: Reply = [error ? undefined : outcome.json, logs.splice(0), droppedCalls];
    if (error) reply[3] = { code: error.code, message: error.message, hints: error.hints, status: error.status };
    droppedCalls = 0;
    return reply;
  };

  return {
    /** Runs one job, at once when QuickJS is loaded; never throws (a failure is in the reply). */
    run(job: Job, overdue?: Overdue): Reply | Promise<Reply> {
      return loaded ? runWith(loaded, job, overdue) : load().then((module) => runWith(module, job, overdue));
    },
  };
}
