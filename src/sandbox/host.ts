import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';
import { WeirError } from '../errors.js';
import { cryptoHelpers } from './crypto.js';
import { MAX_HOST_INPUT, type Limit } from './limits.js';

export const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error'] as const;
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number];

export interface HostOptions {
  /** The globals (`$input`, `$node`, ...) as one JSON object text, parsed once inside the sandbox. */
  inputs: string;
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
 * reads only strings of bounded length from the sandbox. `$crypto` and `console` are built on first use:
 * most runs touch neither, and building them is a large share of a short run. Returns what releases the
 * handles kept for them; call it before the context is disposed.
 * @example
 * const release = defineGlobals(ctx, parse, { inputs: '{"$input":{}}', limit, log: console.log, dropped() {}, logLimits: { lines: 100, chars: 65536 } })
 */
export function defineGlobals(ctx: QuickJSContext, parse: QuickJSHandle, options: HostOptions): () => void {
  const { limit } = options;
  const hostFunction = (name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | void) =>
    ctx.newFunction(name, (...args) => {
      if (limit.expired()) throw limit.error();
      return fn(...args);
    });
  assignInputs(ctx, parse, options.inputs);
  const lazy = [
    lazyGlobal(ctx, limit, '$crypto', () => cryptoObject(ctx, hostFunction, limit)),
    lazyGlobal(ctx, limit, 'console', () => consoleObject(ctx, hostFunction, options)),
  ];
  return () => lazy.forEach((release) => release());
}

/** Parses the inputs' JSON text once inside the sandbox and copies its members onto the global object. */
function assignInputs(ctx: QuickJSContext, parse: QuickJSHandle, inputs: string): void {
  const text = ctx.newString(inputs);
  const parsed = ctx.callFunction(parse, ctx.undefined, text);
  text.dispose();
  if (parsed.error) {
    parsed.error.dispose();
    throw new WeirError('SANDBOX_LIMIT', 'code: the node\'s inputs ($input, $node, ...) do not fit in the sandbox memory', { hints: ['raise sandbox.memoryMb in weir.config.json'] });
  }
  const object = ctx.getProp(ctx.global, 'Object');
  const assign = ctx.getProp(object, 'assign');
  try {
    // The context is fresh, so the global has no setters yet, and the keys are the fixed global names.
    ctx.unwrapResult(ctx.callFunction(assign, object, ctx.global, parsed.value)).dispose();
  } finally {
    for (const h of [assign, object, parsed.value]) h.dispose();
  }
}

/**
 * Defines `name` on the global object as an accessor that builds its value on first read and that an
 * assignment replaces, so code sees an ordinary global. Returns what releases the value's handle.
 */
function lazyGlobal(ctx: QuickJSContext, limit: Limit, name: string, build: () => QuickJSHandle): () => void {
  let value: QuickJSHandle | undefined;
  ctx.defineProp(ctx.global, name, {
    configurable: true,
    enumerable: true,
    get: () => {
      if (limit.expired()) throw limit.error();
      value ??= build();
      // The caller frees what a host function returns: it gets its own reference.
      return value.dup();
    },
    set: (next: QuickJSHandle) => {
      value?.dispose();
      value = next.dup();
    },
  });
  return () => value?.dispose();
}

function cryptoObject(ctx: QuickJSContext, hostFunction: (name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | void) => QuickJSHandle, limit: Limit): QuickJSHandle {
  const crypto = ctx.newObject();
  for (const [name, fn] of Object.entries(cryptoHelpers)) {
    const helper = hostFunction(name, (...args) => {
      const result = (fn as (...a: unknown[]) => string | boolean)(...args.map((a) => cryptoArgument(ctx, a, limit)));
      return typeof result === 'boolean' ? (result ? ctx.true : ctx.false) : ctx.newString(result);
    });
    ctx.setProp(crypto, name, helper);
    helper.dispose();
  }
  return crypto;
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
