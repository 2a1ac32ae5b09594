import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';
import { WeirError } from '../errors.js';
import { cryptoHelpers } from './crypto.js';
import { MAX_HOST_INPUT, type Limit } from './limits.js';

export const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error'] as const;
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number];

export interface HostOptions {
  /** Globals (`$input`, `$node`, ...) as JSON texts. */
  globals: Record<string, string>;
  limit: Limit;
  /** Where console lines go. */
  log(message: string, level: ConsoleLevel): void;
  /** Counts a console call past `logLimits`: dropped inside the sandbox, nothing was copied out. */
  dropped(): void;
  /** The console budget of one run: lines, and characters over all lines. */
  logLimits: { lines: number; chars: number };
}

// Formats and budgets console lines inside the sandbox, so a long string is cut before it is copied out and
// calls past the budget copy nothing at all: they only report that a line was dropped.
const CONSOLE_SHIM = `(function (emit, levels, maxLines, maxChars) {
  let lines = 0, chars = 0;
  const text = (a) => { if (typeof a === 'string') return a; try { const s = JSON.stringify(a); return s === undefined ? String(a) : s } catch (e) { return String(a) } };
  const console = {};
  for (const level of levels) console[level] = function (...args) {
    if (lines >= maxLines || chars >= maxChars) return void emit(level);
    let line = '';
    for (let i = 0; i < args.length && line.length <= maxChars - chars; i++) line += (i ? ' ' : '') + text(args[i]);
    // One character past the budget lets the receiver see that the line was cut.
    line = line.slice(0, maxChars - chars + 1);
    lines++;
    chars += line.length;
    emit(level, line);
  };
  return console;
})`;

/**
 * Defines the globals, `$crypto` and `console` in a fresh context. Every host function first checks the run's
 * limit (so time spent in them counts against the CPU limit and a stopped run cannot keep calling out), and
 * reads only strings of bounded length from the sandbox.
 * @example
 * defineGlobals(ctx, parse, { globals: { $input: '{}' }, limit, log: console.log, dropped() {}, logLimits: { lines: 100, chars: 65536 } })
 */
export function defineGlobals(ctx: QuickJSContext, parse: QuickJSHandle, options: HostOptions): void {
  const { limit } = options;
  const set = (target: QuickJSHandle, name: string, value: QuickJSHandle) => {
    ctx.setProp(target, name, value);
    value.dispose();
  };
  const hostFunction = (name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | void) =>
    ctx.newFunction(name, (...args) => {
      if (limit.expired()) throw limit.error();
      return fn(...args);
    });
  for (const [name, json] of Object.entries(options.globals)) {
    const text = ctx.newString(json);
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
    set(crypto, name, hostFunction(name, (...args) => {
      const result = (fn as (...a: unknown[]) => string | boolean)(...args.map((a) => cryptoArgument(ctx, a, limit)));
      return typeof result === 'boolean' ? (result ? ctx.true : ctx.false) : ctx.newString(result);
    }));
  }
  set(ctx.global, '$crypto', crypto);
  set(ctx.global, 'console', consoleObject(ctx, hostFunction, options));
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

function consoleObject(ctx: QuickJSContext, hostFunction: (name: string, fn: (...args: QuickJSHandle[]) => void) => QuickJSHandle, options: HostOptions): QuickJSHandle {
  const { lines, chars } = options.logLimits;
  const emit = hostFunction('emit', (level, message) => {
    // The shim never sends more than the budget; a line is still read only when it fits.
    if (message && ctx.typeof(message) === 'string' && stringLength(ctx, message) <= chars + 1) options.log(ctx.getString(message), ctx.getString(level) as ConsoleLevel);
    else options.dropped();
  });
  const levels = ctx.newArray();
  CONSOLE_LEVELS.forEach((level, i) => {
    const h = ctx.newString(level);
    ctx.setProp(levels, i, h);
    h.dispose();
  });
  const shim = ctx.unwrapResult(ctx.evalCode(CONSOLE_SHIM, 'console.js'));
  const args = [emit, levels, ctx.newNumber(lines), ctx.newNumber(chars)];
  try {
    return ctx.unwrapResult(ctx.callFunction(shim, ctx.undefined, ...args));
  } finally {
    for (const h of [shim, ...args]) h.dispose();
  }
}
