import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { WeirError } from '../errors.js';
import { defineGlobals, stringLength, type HostOptions } from './host.js';
import type { Limit } from './limits.js';
import type { SyntaxErrorCache } from './syntax-errors.js';

export interface ExecuteOptions extends Omit<HostOptions, 'limit'> {
  limit: Limit;
  memoryMb: number;
  maxOutputBytes: number;
  /** Whether the WebAssembly memory ran out (QuickJS then may not even throw). */
  memoryExhausted(): boolean;
  /** Whether the WebAssembly memory has grown to its maximum. */
  memoryFull(): boolean;
  /** The code texts this worker saw fail to compile. */
  syntaxErrors: SyntaxErrorCache;
}

/** How a run ended; `broken` says the WebAssembly instance must not be used again. */
export interface Outcome {
  /** The return value as JSON text (none for `undefined`), parsed by the receiver: one string crosses. */
  json?: string;
  error?: WeirError;
  broken: boolean;
}

const MB = 1024 * 1024;

/**
 * Runs `code` as the body of an async function in a fresh runtime and context of `module`. It never throws:
 * the result, the user's error or the broken limit is in the outcome, and a failure to free the runtime
 * (QuickJS aborts on some exhausted states) only marks the module broken. Each run gets its own runtime:
 * a runtime kept across runs costs as much per run (the next garbage collection pays for the discarded
 * context instead of freeing the runtime), and it would carry one run's garbage, garbage-collection
 * threshold and finalizers into the next.
 * @example
 * const { json, error } = execute(module, 'return 1', { inputs: '{}', limit, log, dropped, logLimits, memoryMb: 32, maxOutputBytes: 4 << 20, memoryExhausted, memoryFull, syntaxErrors })
 */
export function execute(module: QuickJSWASMModule, code: string, options: ExecuteOptions): Outcome {
  const { limit } = options;
  let runtime: QuickJSRuntime | undefined;
  let ctx: QuickJSContext | undefined;
  const outcome: Outcome = { broken: false };
  const syntaxError = options.syntaxErrors.get(code);
  if (syntaxError) return { error: syntaxError, broken: false };
  try {
    runtime = module.newRuntime();
    runtime.setInterruptHandler(() => limit.expired());
    runtime.setMemoryLimit(options.memoryMb * MB);
    runtime.setMaxStackSize(512 * 1024);
    ctx = runtime.newContext();
    outcome.json = evaluate(ctx, runtime, code, options);
  } catch (err) {
    if (err instanceof WeirError) outcome.error = err;
    else {
      // QuickJS itself failed: deep recursion can exhaust the host's stack before QuickJS's own stack limit,
      // and some exhausted states abort the WebAssembly instance. The run is stopped and the instance
      // replaced; the internal message means nothing to the caller.
      limit.stop(err instanceof RangeError && /call stack/i.test(err.message) ? 'stack' : 'broken');
      outcome.error = limit.error();
      outcome.broken = true;
    }
  }
  try {
    ctx?.dispose();
    runtime?.dispose();
  } catch {
    outcome.broken = true;
  }
  return outcome;
}

function evaluate(ctx: QuickJSContext, runtime: QuickJSRuntime, code: string, options: ExecuteOptions): string | undefined {
  const { limit } = options;
  const json = ctx.getProp(ctx.global, 'JSON');
  const parse = ctx.getProp(json, 'parse');
  const stringify = ctx.getProp(json, 'stringify');
  let release = () => {};
  try {
    release = defineGlobals(ctx, parse, options);
    const evaluated = ctx.evalCode(`(async function () {\n${code}\n})()`, 'code.js');
    if (evaluated.error) {
      const error = userError(ctx, evaluated.error, options);
      // Evaluating the wrapper only compiles the code and starts it: the body's own throws reject its promise.
      if (!limit.stopped && error.message.startsWith('code: SyntaxError')) options.syntaxErrors.remember(code, error);
      throw error;
    }
    const jobs = runtime.executePendingJobs();
    // A promise job rejects its promise rather than throw: one that threw was stopped by a limit (the
    // interrupt, memory), even when the code's own promise settled before.
    if (jobs.error) {
      userError(ctx, jobs.error, options);
      limit.stop('broken');
    }
    // Out of memory inside a promise job only rejects that job's promise: a chain that feeds itself ends
    // silently once the WebAssembly memory is full, which is then the only trace it leaves.
    else if (jobs.value > 0 && options.memoryFull()) limit.stop('memory');
    const state = ctx.getPromiseState(evaluated.value);
    evaluated.value.dispose();
    if (state.type === 'rejected') throw userError(ctx, state.error, options);
    // Code that caught the interrupt and returned anyway still broke the limit.
    if (limit.stopped || state.type === 'pending') {
      if (state.type === 'fulfilled') state.value.dispose();
      if (limit.stopped) throw limit.error();
      throw new WeirError('EXECUTION_FAILED', 'code: the returned promise never settled (there is no I/O to wait for in a Code node)');
    }
    return toHost(ctx, stringify, state.value, options);
  } finally {
    release();
    for (const h of [stringify, parse, json]) h.dispose();
  }
}

/** The return value as JSON text, so only data crosses (none for undefined), bounded by `maxOutputBytes`. */
function toHost(ctx: QuickJSContext, stringify: QuickJSHandle, value: QuickJSHandle, { limit, maxOutputBytes }: ExecuteOptions): string | undefined {
  try {
    const result = ctx.callFunction(stringify, ctx.undefined, value);
    if (result.error) {
      result.error.dispose();
      if (limit.stopped) throw limit.error();
      throw new WeirError('EXECUTION_FAILED', 'code: the return value is not JSON-serializable');
    }
    try {
      if (ctx.typeof(result.value) !== 'string') return undefined;
      // Measured in characters before copying it out (each is at least one byte), then in bytes.
      const text = stringLength(ctx, result.value) > maxOutputBytes ? undefined : ctx.getString(result.value);
      if (text === undefined || Buffer.byteLength(text) > maxOutputBytes) {
        limit.stop('output');
        throw limit.error();
      }
      return text;
    } finally {
      result.value.dispose();
    }
  } finally {
    value.dispose();
  }
}

/** A thrown value as a WeirError: limits become SANDBOX_LIMIT, a numeric `status` becomes the HTTP status. */
function userError(ctx: QuickJSContext, thrown: QuickJSHandle, { limit, memoryExhausted }: ExecuteOptions): WeirError {
  const isObject = ctx.typeof(thrown) === 'object';
  const prop = (name: string) => {
    if (!isObject) return undefined;
    const h = ctx.getProp(thrown, name);
    const type = ctx.typeof(h);
    const v = type === 'object' ? undefined : type === 'string' ? boundedString(ctx, h) : ctx.dump(h);
    h.dispose();
    return v;
  };
  const message = isObject ? String(prop('message') ?? '') : ctx.typeof(thrown) === 'string' ? boundedString(ctx, thrown) : String(ctx.dump(thrown));
  const name = prop('name');
  const status = prop('status');
  const line = /code\.js:(\d+)/.exec(String(prop('stack') ?? ''))?.[1];
  const nothing = ctx.typeof(thrown) === 'undefined' || ctx.sameValue(thrown, ctx.null);
  thrown.dispose();
  if (message === 'out of memory' || (nothing && memoryExhausted())) limit.stop('memory');
  if (name === 'InternalError' && message === 'stack overflow') limit.stop('stack');
  if (limit.stopped) return limit.error();
  // The code is wrapped in one line of `(async function () {`, so its line 1 is line 2 of code.js.
  const text = `${name && name !== 'Error' ? `${name}: ` : ''}${message}${line && Number(line) > 1 ? ` (line ${Number(line) - 1})` : ''}`;
  const validStatus = typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599;
  return new WeirError('EXECUTION_FAILED', `code: ${text}`, validStatus ? { status } : {});
}

// A thrown message is kept only up to this many characters: the error ends up in records and logs.
const MAX_MESSAGE = 4096;

function boundedString(ctx: QuickJSContext, value: QuickJSHandle): string {
  const text = ctx.getString(value);
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}
