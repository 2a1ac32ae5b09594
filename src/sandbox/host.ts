import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';
import { cryptoHelpers } from './crypto.js';
import { MAX_HOST_INPUT, type Limit } from './limits.js';

export type ConsoleLevel = 'log' | 'info' | 'warn' | 'error';

/** What the host functions of a context serve: the run in progress. */
export interface HostRun {
  limit: Limit;
  /** Where console lines go. */
  log(message: string, level: ConsoleLevel): void;
  /** Counts a console call past the run's budget: dropped inside the sandbox, nothing was copied out. */
  dropped(): void;
  /** The console budget of one run: lines, and characters over all lines. */
  logLimits: { lines: number; chars: number };
}

/**
 * The host functions of a context, made once and serving whichever run is in progress (`current`):
 * `$crypto`'s `hmac`, `timingSafeEqual` and `sha256`, and the `emit` that the in-sandbox console sends its
 * lines to. Each first checks the run's limit (so time spent in them counts against the CPU limit and a
 * stopped run cannot keep calling out), and reads only strings of bounded length from the sandbox.
 * @example
 * const [hmac, timingSafeEqual, sha256, emit] = createHostFunctions(ctx, () => run)
 */
export function createHostFunctions(ctx: QuickJSContext, current: () => HostRun | null): QuickJSHandle[] {
  const hostFunction = (name: string, fn: (run: HostRun, ...args: QuickJSHandle[]) => QuickJSHandle | void) =>
    ctx.newFunction(name, (...args) => {
      const run = current();
      if (!run) throw new Error('no run in progress');
      if (run.limit.expired()) throw run.limit.error();
      return fn(run, ...args);
    });
  // In the order the bootstrap takes them.
  const helpers = (['hmac', 'timingSafeEqual', 'sha256'] as const).map((name) =>
    hostFunction(name, ({ limit }, ...args) => {
      const result = (cryptoHelpers[name] as (...a: unknown[]) => string | boolean)(...args.map((a) => cryptoArgument(ctx, a, limit)));
      return typeof result === 'boolean' ? (result ? ctx.true : ctx.false) : ctx.newString(result);
    }),
  );
  const emit = hostFunction('emit', (run, level, message) => {
    // The console never sends more than the budget; a line is still read only when it fits.
    if (message && ctx.typeof(message) === 'string' && stringLength(ctx, message) <= run.logLimits.chars + 1) run.log(ctx.getString(message), ctx.getString(level) as ConsoleLevel);
    else run.dropped();
  });
  return [...helpers, emit];
}

/** A `$crypto` argument as a host value: strings up to {@link MAX_HOST_INPUT} characters (longer ones stop the run), anything else as null. */
function cryptoArgument(ctx: QuickJSContext, arg: QuickJSHandle, limit: Limit): string | null | undefined {
  const type = ctx.typeof(arg);
  if (type === 'undefined') return undefined;
  if (type !== 'string') return null;
  if (stringLength(ctx, arg) > MAX_HOST_INPUT) {
    limit.stop('input');
    throw limit.error();
  }
  return ctx.getString(arg);
}

/** The length of a string in the sandbox, read without copying the string out. */
export function stringLength(ctx: QuickJSContext, value: QuickJSHandle): number {
  const length = ctx.getProp(value, 'length');
  const n = ctx.getNumber(length);
  length.dispose();
  return n;
}
