import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import { WeirError } from '../errors.js';
import { cryptoHelpers } from './crypto.js';

/** Limits of the Code node sandbox (`weir.config.json` `sandbox`). */
export interface SandboxOptions {
  /** CPU time one run may take, in ms (default 1000). */
  cpuMs?: number;
  /** Memory one run may use, in MB (default 32). */
  memoryMb?: number;
}

export interface SandboxRun {
  /** JSON values defined as globals (`$input`, `$node`, ...). */
  globals: Record<string, unknown>;
  /** A lower CPU limit for this run (e.g. the node's `timeoutMs`). */
  cpuMs?: number;
  signal?: AbortSignal;
  /** Where `console.log`, `.info`, `.warn` and `.error` inside the sandbox go (`level` is the method's name). */
  log?(message: string, level: ConsoleLevel): void;
}

export type Sandbox = ReturnType<typeof createSandbox>;

const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error'] as const;
type ConsoleLevel = (typeof CONSOLE_LEVELS)[number];

const MB = 1024 * 1024;
// The QuickJS build starts with 16 MB of WebAssembly memory (its own data and stack); a run's heap comes on top.
const BASE_MEMORY = 16 * MB;
const PAGE = 64 * 1024;

/**
 * Runs user JavaScript in QuickJS compiled to WebAssembly: a separate heap with no `process`, `require`,
 * file system or network; only JSON values and the `$crypto` helpers cross the boundary. Memory is capped by
 * the size of the WebAssembly memory itself (QuickJS's own limit does not count every allocation in this
 * build), CPU time by an interrupt handler with a deadline. The module loads on first use, once per instance;
 * each run gets a fresh runtime and context.
 * @example
 * const sandbox = createSandbox({ cpuMs: 500 })
 * await sandbox.run('return $input.a * 2', { globals: { $input: { a: 21 } } }) // 42
 */
export function createSandbox({ cpuMs = 1000, memoryMb = 32 }: SandboxOptions = {}) {
  let loading: Promise<QuickJSWASMModule> | null = null;
  let wasmMemory: WebAssembly.Memory | null = null;
  // When the WebAssembly memory runs out before QuickJS's own limit, QuickJS cannot even allocate its
  // "out of memory" error and throws nothing. A run that leaves the memory mostly grown gets a fresh
  // module next time, so "grown and nothing thrown" always means this run exhausted it.
  const memoryExhausted = () => (wasmMemory?.buffer.byteLength ?? 0) > BASE_MEMORY + (memoryMb * MB) / 2;
  const load = () =>
    (loading ??= (async () => {
      const q = await import('quickjs-emscripten');
      wasmMemory = new WebAssembly.Memory({ initial: BASE_MEMORY / PAGE, maximum: Math.ceil((BASE_MEMORY + memoryMb * MB) / PAGE) });
      // printErr (honoured by Emscripten, missing from the types) keeps a broken instance's abort off stderr.
      const emscriptenModule = { printErr: () => {} } as object;
      return q.newQuickJSWASMModuleFromVariant(q.newVariant(q.RELEASE_SYNC, { wasmMemory, emscriptenModule }));
    })());

  return {
    /** Runs `code` as the body of a function and resolves to its JSON return value. */
    async run(code: string, options: SandboxRun): Promise<unknown> {
      const module = await load();
      const health = { broken: false };
      try {
        return execute(module, code, { ...options, cpuMs: Math.min(options.cpuMs ?? cpuMs, cpuMs), memoryExhausted, health }, memoryMb);
      } catch (err) {
        if (err instanceof WeirError) throw err;
        // Anything but a user error means the WebAssembly instance may be broken: start a fresh one next time.
        health.broken = true;
        // Deep recursion overflows the host's stack inside WebAssembly before QuickJS's own check.
        if (err instanceof RangeError && /call stack/i.test(err.message)) throw stackLimit();
        // The instance's own message (an Emscripten abort, a QuickJS assertion) means nothing to the caller:
        // such failures come from a run that exhausted the stack, memory or the engine's object lists.
        throw new WeirError('SANDBOX_LIMIT', 'code: the run exhausted the sandbox (call stack, memory or pending jobs) and was stopped', {
          hints: ['look for unbounded recursion or a promise chain that feeds itself'],
        });
      } finally {
        if (health.broken || memoryExhausted()) loading = null;
      }
    },
  };
}

type ExecuteOptions = SandboxRun & { cpuMs: number; memoryExhausted(): boolean; health: { broken: boolean } };

function execute(module: QuickJSWASMModule, code: string, options: ExecuteOptions, memoryMb: number): unknown {
  const runtime = module.newRuntime();
  const deadline = Date.now() + options.cpuMs;
  const limit: Limit = { stopped: null, cpuMs: options.cpuMs, memoryMb, memoryExhausted: options.memoryExhausted };
  runtime.setInterruptHandler(() => {
    if (options.signal?.aborted) limit.stopped = 'cancel';
    else if (Date.now() > deadline) limit.stopped = 'cpu';
    return limit.stopped !== null;
  });
  runtime.setMemoryLimit(memoryMb * MB);
  runtime.setMaxStackSize(512 * 1024);
  const ctx = runtime.newContext();
  try {
    const json = ctx.getProp(ctx.global, 'JSON');
    const parse = ctx.getProp(json, 'parse');
    const stringify = ctx.getProp(json, 'stringify');
    try {
      defineGlobals(ctx, parse, options);
      const evaluated = ctx.evalCode(`(async function () {\n${code}\n})()`, 'code.js');
      if (evaluated.error) throw userError(ctx, evaluated.error, limit);
      // Only what escapes the promise machinery ends a job with an error: the interrupt, or memory.
      const jobs = runtime.executePendingJobs();
      if (jobs.error) throw userError(ctx, jobs.error, limit);
      const state = ctx.getPromiseState(evaluated.value);
      evaluated.value.dispose();
      if (state.type === 'rejected') throw userError(ctx, state.error, limit);
      if (state.type === 'pending') {
        // A job QuickJS had no memory left to queue is dropped silently, which leaves the promise pending.
        if (limit.stopped || options.memoryExhausted()) throw limitError(limit);
        throw new WeirError('EXECUTION_FAILED', 'code: the returned promise never settled (there is no I/O to wait for in a Code node)');
      }
      // Code that caught the interrupt and returned anyway still broke the limit.
      if (limit.stopped) {
        state.value.dispose();
        throw limitError(limit);
      }
      return toHost(ctx, stringify, state.value);
    } finally {
      for (const h of [stringify, parse, json]) h.dispose();
    }
  } finally {
    release(ctx, runtime, options.health);
  }
}

/**
 * Frees the run's context and runtime. After a run that overflowed the engine's stack, QuickJS can fail an
 * assertion while freeing; the instance is then marked broken and the run's own error (thrown already) stands.
 */
function release(ctx: QuickJSContext, runtime: { dispose(): void }, health: { broken: boolean }): void {
  try {
    ctx.dispose();
    runtime.dispose();
  } catch {
    health.broken = true;
  }
}

function defineGlobals(ctx: QuickJSContext, parse: QuickJSHandle, options: SandboxRun): void {
  const set = (target: QuickJSHandle, name: string, value: QuickJSHandle) => {
    ctx.setProp(target, name, value);
    value.dispose();
  };
  for (const [name, value] of Object.entries(options.globals)) {
    if (value === undefined) continue;
    const text = ctx.newString(JSON.stringify(value));
    const parsed = ctx.callFunction(parse, ctx.undefined, text);
    text.dispose();
    if (parsed.error) {
      parsed.error.dispose();
      throw new WeirError('SANDBOX_LIMIT', `code: ${name} does not fit in the sandbox memory`, { hints: ['raise sandbox.memoryMb in weir.config.json'] });
    }
    set(ctx.global, name, parsed.value);
  }
  const crypto = ctx.newObject();
  for (const [name, fn] of Object.entries(cryptoHelpers)) {
    set(crypto, name, ctx.newFunction(name, (...args) => {
      const result = (fn as (...a: unknown[]) => string | boolean)(...args.map((a) => ctx.dump(a)));
      return typeof result === 'boolean' ? (result ? ctx.true : ctx.false) : ctx.newString(result);
    }));
  }
  set(ctx.global, '$crypto', crypto);
  const console = ctx.newObject();
  for (const level of CONSOLE_LEVELS) {
    set(console, level, ctx.newFunction(level, (...args) => {
      options.log?.(args.map((a) => (ctx.typeof(a) === 'string' ? ctx.getString(a) : JSON.stringify(ctx.dump(a)))).join(' '), level);
    }));
  }
  set(ctx.global, 'console', console);
}

/** The return value as a host value, through JSON so only data crosses (undefined stays undefined). */
function toHost(ctx: QuickJSContext, stringify: QuickJSHandle, value: QuickJSHandle): unknown {
  try {
    const result = ctx.callFunction(stringify, ctx.undefined, value);
    if (result.error) {
      result.error.dispose();
      throw new WeirError('EXECUTION_FAILED', 'code: the return value is not JSON-serializable');
    }
    const text = ctx.typeof(result.value) === 'string' ? ctx.getString(result.value) : undefined;
    result.value.dispose();
    return text === undefined ? undefined : JSON.parse(text);
  } finally {
    value.dispose();
  }
}

interface Limit {
  stopped: 'cpu' | 'cancel' | null;
  cpuMs: number;
  memoryMb: number;
  memoryExhausted(): boolean;
}

function limitError({ stopped, cpuMs, memoryMb }: Limit): WeirError {
  if (stopped === 'cancel') return new WeirError('CANCELLED', 'code: cancelled');
  if (stopped === 'cpu') return new WeirError('SANDBOX_LIMIT', `code: CPU time limit of ${cpuMs} ms exceeded`, { hints: ['raise sandbox.cpuMs in weir.config.json, or do less work per run'] });
  return new WeirError('SANDBOX_LIMIT', `code: memory limit of ${memoryMb} MB exceeded`, { hints: ['raise sandbox.memoryMb in weir.config.json'] });
}

const stackLimit = () => new WeirError('SANDBOX_LIMIT', 'code: call stack limit exceeded (recursion too deep)', { hints: ['bound the recursion, or use a loop'] });

/** A thrown value as a WeirError: limits become SANDBOX_LIMIT, a numeric `status` becomes the HTTP status. */
function userError(ctx: QuickJSContext, thrown: QuickJSHandle, limit: Limit): WeirError {
  const prop = (name: string) => {
    if (ctx.typeof(thrown) !== 'object') return undefined;
    const h = ctx.getProp(thrown, name);
    const v = ctx.dump(h);
    h.dispose();
    return v;
  };
  const message = ctx.typeof(thrown) === 'object' ? String(prop('message') ?? '') : String(ctx.dump(thrown));
  const name = prop('name');
  const status = prop('status');
  const line = /code\.js:(\d+)/.exec(String(prop('stack') ?? ''))?.[1];
  const nothing = ctx.typeof(thrown) === 'undefined' || ctx.dump(thrown) === null;
  thrown.dispose();
  if (limit.stopped || message === 'out of memory' || (nothing && limit.memoryExhausted())) return limitError(limit);
  if (name === 'InternalError' && message === 'stack overflow') return stackLimit();
  // The code is wrapped in one line of `(async function () {`, so its line 1 is line 2 of code.js.
  const text = `${name && name !== 'Error' ? `${name}: ` : ''}${message}${line && Number(line) > 1 ? ` (line ${Number(line) - 1})` : ''}`;
  const validStatus = typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599;
  return new WeirError('EXECUTION_FAILED', `code: ${text}`, validStatus ? { status } : {});
}
