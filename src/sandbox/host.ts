import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';
import { cryptoHelpers } from './crypto.js';
import { directFunctions, type DirectArguments } from './direct-calls.js';
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
 * How the sandbox describes the arguments of a `$crypto` call, three bits each (argument `i` at bit
 * `ARGUMENT_KIND_BITS * i`), so the host reads a string with one call instead of first asking its type and
 * length: the in-sandbox wrapper (see the realm's bootstrap) sets them with `typeof`, `.length` and
 * `indexOf`, which cost nothing there. Strings cross as C text, which ends at the first NUL, so a string
 * holding one crosses as its JSON text (`json`): a NUL must not cut what is hashed or compared.
 */
export const ARGUMENT_KIND = { other: 0, string: 1, undefined: 2, tooLong: 3, json: 4 } as const;
export const ARGUMENT_KIND_BITS = 3;

/**
 * The host functions of a context, made once and serving whichever run is in progress (`current`):
 * `$crypto`'s `hmac`, `timingSafeEqual` and `sha256` (each taking the argument kinds first, see
 * {@link ARGUMENT_KIND}), and the `emit` that the in-sandbox console sends its lines to: `emit(level)` for a
 * line past the budget, else `emit(level, line, line.length)`, or `emit(level, the line's JSON, its length, 1)`
 * for a line holding a NUL. Each first checks the run's limit (so time spent in them counts against the CPU
 * limit and a stopped run cannot keep calling out), and reads only strings of bounded length from the
 * sandbox. They are direct functions (see direct-calls.ts), as the generic host-call path of
 * quickjs-emscripten costs more than the work they do.
 * @example
 * const [hmac, timingSafeEqual, sha256, emit] = createHostFunctions(ctx, () => run)
 */
export function createHostFunctions(ctx: QuickJSContext, current: () => HostRun | null): QuickJSHandle[] {
  const newDirectFunction = directFunctions(ctx);
  const hostFunction = (name: string, fn: (run: HostRun, args: DirectArguments) => string | boolean | void) =>
    newDirectFunction(name, (args) => {
      const run = current();
      if (!run) throw new Error('no run in progress');
      if (run.limit.expired()) throw run.limit.error();
      return fn(run, args);
    });
  // In the order the bootstrap takes them.
  const helpers = (['hmac', 'timingSafeEqual', 'sha256'] as const).map((name) =>
    hostFunction(name, ({ limit }, args) => (cryptoHelpers[name] as (...a: unknown[]) => string | boolean)(...cryptoArguments(args, limit))),
  );
  // The console never sends more than the budget; a line is still read only when it fits. Its length is
  // counted in the sandbox, where it costs nothing, as the argument kinds of `$crypto` are.
  const emit = hostFunction('emit', (run, args) => {
    if (args.length < 3 || args.number(2) > run.logLimits.chars + 1) return void run.dropped();
    const line = args.string(1);
    run.log(args.length > 3 ? (JSON.parse(line) as string) : line, args.string(0) as ConsoleLevel);
  });
  return [...helpers, emit];
}

/**
 * The arguments of a `$crypto` call (its kinds, then its own arguments) as host values, as their kinds say:
 * strings (read only when at most {@link MAX_HOST_INPUT} characters; a longer one stops the run), undefined,
 * and anything else as null.
 */
function cryptoArguments(args: DirectArguments, limit: Limit): Array<string | null | undefined> {
  const kinds = args.number(0);
  const kindOf = (i: number) => (kinds >>> (ARGUMENT_KIND_BITS * i)) & ((1 << ARGUMENT_KIND_BITS) - 1);
  const count = args.length - 1;
  for (let i = 0; i < count; i++) {
    if (kindOf(i) === ARGUMENT_KIND.tooLong) {
      limit.stop('input');
      throw limit.error();
    }
  }
  const values: Array<string | null | undefined> = [];
  for (let i = 0; i < count; i++) {
    const kind = kindOf(i);
    const value = kind === ARGUMENT_KIND.string ? args.string(i + 1) : kind === ARGUMENT_KIND.json ? (JSON.parse(args.string(i + 1)) as string) : kind === ARGUMENT_KIND.undefined ? undefined : null;
    values.push(value);
  }
  return values;
}
