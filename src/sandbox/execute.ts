import type { QuickJSHandle } from 'quickjs-emscripten';
import { WeirError } from '../errors.js';
import type { RunEnd } from './bootstrap.js';
import type { HostRun } from './host.js';
import { NUL_IN_CODE } from './limits.js';
import type { Realm } from './realm.js';
import type { SyntaxErrorCache } from './syntax-errors.js';

export interface ExecuteOptions extends HostRun {
  /** The globals (`$input`, `$node`, ...) as one JSON object text, parsed once inside the sandbox. */
  inputs: string;
  maxOutputBytes: number;
  /** Whether the WebAssembly memory ran out (QuickJS then may not even throw). */
  memoryExhausted(): boolean;
  /** Whether the WebAssembly memory has grown to its maximum. */
  memoryFull(): boolean;
  /** The code texts this worker saw fail to compile. */
  syntaxErrors: SyntaxErrorCache;
}

/**
 * How a run ended; `broken` says the WebAssembly instance must not be used again, `replace` that the realm
 * must not (a limit was broken, or something of the run may have outlived it).
 */
export interface Outcome {
  /** The return value as JSON text (none for `undefined`), parsed by the receiver: one string crosses. */
  json?: string;
  error?: WeirError;
  broken: boolean;
  replace: boolean;
}

/**
 * Runs `code` as the body of a function in `realm` (an async one when it awaits), then clears what it left on
 * the global object. It never throws: the result, the user's error or the broken limit is in the outcome.
 * QuickJS failing itself (some exhausted states abort it) marks the module broken.
 * @example
 * const { json, error } = execute(realm, 'return 1', { inputs: '{}', limit, log, dropped, logLimits, maxOutputBytes: 4 << 20, memoryExhausted, memoryFull, syntaxErrors })
 */
export function execute(realm: Realm, code: string, options: ExecuteOptions): Outcome {
  const { limit } = options;
  const outcome: Outcome = { broken: false, replace: false };
  const syntaxError = options.syntaxErrors.get(code);
  if (syntaxError) return { error: syntaxError, broken: false, replace: false };
  try {
    outcome.json = evaluate(realm, code, options);
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
  outcome.replace = outcome.broken || realm.tainted || limit.stopped !== null;
  return outcome;
}

function evaluate(realm: Realm, code: string, options: ExecuteOptions): string | undefined {
  const { limit } = options;
  const compiled = realm.compile(code);
  if ('nul' in compiled) {
    const error = new WeirError('EXECUTION_FAILED', `code: SyntaxError: ${NUL_IN_CODE}`);
    options.syntaxErrors.remember(code, error);
    throw error;
  }
  if ('escaped' in compiled) {
    if (limit.stopped) throw limit.error();
    const error = new WeirError('EXECUTION_FAILED', 'code: SyntaxError: a } closes the function the code runs in, and code follows it');
    options.syntaxErrors.remember(code, error);
    throw error;
  }
  if ('error' in compiled) {
    const error = userError(realm, compiled.error, options);
    if (!limit.stopped && error.message.startsWith('code: SyntaxError')) options.syntaxErrors.remember(code, error);
    throw error;
  }
  let started;
  try {
    started = realm.start(compiled.fn, options.inputs, options.logLimits);
  } finally {
    if (compiled.owned) compiled.fn.dispose();
  }
  // The code's own throws are kept for `finish`: a throw here is the inputs' parsing running out of memory,
  // or the run's limit.
  if (started.error) {
    started.error.dispose();
    if (limit.stopped) throw limit.error();
    realm.tainted = true;
    throw new WeirError('SANDBOX_LIMIT', 'code: the node\'s inputs ($input, $node, ...) do not fit in the sandbox memory', { hints: ['raise sandbox.memoryMb in weir.config.json'] });
  }
  // Code that returns at once queues no job, unless it made promises of its own.
  if (realm.runtime.hasPendingJob()) runJobs(realm, options);
  const finished = realm.finish();
  if ('error' in finished) {
    finished.error.dispose();
    limit.stop('broken');
    throw limit.error();
  }
  return returnValue(realm, finished, options);
}

/** Runs the promise jobs a run queued (an async run's, or a chain the code started), all of them. */
function runJobs(realm: Realm, options: ExecuteOptions): void {
  const { limit } = options;
  const jobs = realm.runtime.executePendingJobs();
  // A promise job rejects its promise rather than throw: one that threw was stopped by a limit (the
  // interrupt, memory), even when the code's own promise settled before.
  if (jobs.error) {
    userError(realm, jobs.error, options);
    limit.stop('broken');
  }
  // Out of memory inside a promise job only rejects that job's promise: a chain that feeds itself ends
  // silently once the WebAssembly memory is full, which is then the only trace it leaves.
  else if (jobs.value > 0 && options.memoryFull()) limit.stop('memory');
  if (limit.stopped) throw limit.error();
}

/** The return value as JSON text, so only data crosses (none for undefined), bounded by `maxOutputBytes`. */
function returnValue(realm: Realm, { end, json }: RunEnd, options: ExecuteOptions): string | undefined {
  const { limit, maxOutputBytes } = options;
  if (end === 'e') throw userError(realm, realm.thrown(), options);
  if (end === 'o' || (end === 'j' && Buffer.byteLength(json) > maxOutputBytes)) limit.stop('output');
  // Code that caught the interrupt, or a host function's refusal, and returned anyway still broke the limit.
  if (limit.stopped) throw limit.error();
  if (end === 's') throw new WeirError('EXECUTION_FAILED', 'code: the return value is not JSON-serializable');
  if (end === 'n') {
    // Whatever the promise waits for is the run's and stays in the context.
    realm.tainted = true;
    throw new WeirError('EXECUTION_FAILED', 'code: the returned promise never settled (there is no I/O to wait for in a Code node)');
  }
  return end === 'j' ? json : undefined;
}

/** A thrown value as a WeirError: limits become SANDBOX_LIMIT, a numeric `status` becomes the HTTP status (and its message the caller's). */
function userError(realm: Realm, thrown: QuickJSHandle, { limit, memoryExhausted }: ExecuteOptions): WeirError {
  const { ctx } = realm;
  const isObject = ctx.typeof(thrown) === 'object';
  const prop = (name: string) => {
    if (!isObject) return undefined;
    const h = ctx.getProp(thrown, name);
    const type = ctx.typeof(h);
    const v = type === 'object' ? undefined : type === 'string' ? boundedString(realm, h) : ctx.dump(h);
    h.dispose();
    return v;
  };
  const message = isObject ? String(prop('message') ?? '') : ctx.typeof(thrown) === 'string' ? boundedString(realm, thrown) : String(ctx.dump(thrown));
  const name = prop('name');
  const status = prop('status');
  const line = /code\.js:(\d+)/.exec(String(prop('stack') ?? ''))?.[1];
  const nothing = ctx.typeof(thrown) === 'undefined' || ctx.sameValue(thrown, ctx.null);
  thrown.dispose();
  if (message === 'out of memory' || (nothing && memoryExhausted())) limit.stop('memory');
  if (name === 'InternalError' && message === 'stack overflow') limit.stop('stack');
  if (limit.stopped) return limit.error();
  // An error thrown with a status is the code's answer to the webhook caller: its message goes out as written.
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599) return new WeirError('EXECUTION_FAILED', message, { status });
  // The code follows one line of its wrapper, so its line 1 is line 2 of code.js.
  const text = `${name && name !== 'Error' ? `${name}: ` : ''}${message}${line && Number(line) > 1 ? ` (line ${Number(line) - 1})` : ''}`;
  return new WeirError('EXECUTION_FAILED', `code: ${text}`);
}

// A thrown message is kept only up to this many characters: the error ends up in records and logs.
const MAX_MESSAGE = 4096;

function boundedString(realm: Realm, value: QuickJSHandle): string {
  let text = realm.ctx.getString(value);
  // C text ends at the first NUL: a string holding one is read whole, through its JSON (errors are rare).
  if (text.length < realm.ctx.getProp(value, 'length').consume(realm.ctx.getNumber)) text = JSON.parse(realm.quote(value)) as string;
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}
