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
 * How the sandbox describes the arguments of a `$crypto` call, two bits each (argument `i` at bit `2 * i`),
 * so the host reads a string with one call instead of first asking its type and length: the in-sandbox
 * wrapper (see the realm's bootstrap) sets them with `typeof` and `.length`, which cost nothing there.
 */
export const ARGUMENT_KIND = { other: 0, string: 1, undefined: 2, tooLong: 3 } as const;

/**
 * The host functions of a context, made once and serving whichever run is in progress (`current`):
 * `$crypto`'s `hmac`, `timingSafeEqual` and `sha256` (each taking the argument kinds first, see
 * {@link ARGUMENT_KIND}), and the `emit` that the in-sandbox console sends its lines to. Each first checks the
 * run's limit (so time spent in them counts against the CPU limit and a stopped run cannot keep calling out),
 * and reads only strings of bounded length from the sandbox.
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
    hostFunction(name, ({ limit }, kinds, ...args) => {
      const values = cryptoArguments(ctx, ctx.getNumber(kinds), args, limit);
      const result = (cryptoHelpers[name] as (...a: unknown[]) => string | boolean)(...values);
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

/**
 * `$crypto` arguments as host values, as their kinds say: strings (read only when at most {@link MAX_HOST_INPUT}
 * characters; a longer one stops the run), undefined, and anything else as null.
 */
function cryptoArguments(ctx: QuickJSContext, kinds: number, args: QuickJSHandle[], limit: Limit): Array<string | null | undefined> {
  const kindOf = (i: number) => (kinds >>> (2 * i)) & 3;
  if (args.some((_, i) => kindOf(i) === ARGUMENT_KIND.tooLong)) {
    limit.stop('input');
    throw limit.error();
  }
  return args.map((arg, i) => {
    const kind = kindOf(i);
    return kind === ARGUMENT_KIND.string ? ctx.getString(arg) : kind === ARGUMENT_KIND.undefined ? undefined : null;
  });
}

/** The length of a string in the sandbox, read without copying the string out. */
export function stringLength(ctx: QuickJSContext, value: QuickJSHandle): number {
  const length = ctx.getProp(value, 'length');
  const n = ctx.getNumber(length);
  length.dispose();
  return n;
}
