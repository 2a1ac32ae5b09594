import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';

// Host functions that QuickJS calls without quickjs-emscripten's generic C -> host path.
//
// Why: that path (the context's `cToHostCallbacks.callFunction`) wraps `this` and every argument in a
// handle, runs the function as a generator inside a Scope and copies its result, which cost more than the
// `$crypto` work itself (figures: docs/performance.md, "Figures behind the code's choices"). A direct call reads its arguments from QuickJS's argv with the FFI and
// hands back a JSValue pointer, which C takes over: `qts_call_function` (c/interface.c) copies `*result`
// and frees the pointer, and turns a null pointer into undefined. So a pointer QTS_NewString made passes
// its value, and a static one (QTS_GetTrue) must be duplicated first.
//
// This is the only module that touches quickjs-emscripten-core's internals, which is why package.json pins
// quickjs-emscripten to the exact version they were read from (0.32.0). It uses a QuickJSContext's private
// `cToHostCallbacks` object (the module's callbacks keep that object itself, so replacing its `callFunction`
// reroutes the context's calls), `getFunction(fn_id)`, `ffi` and `module` (the Emscripten module, for its
// allocator and heap). `directFunctions` checks that they are there and that a call takes the direct
// path, and throws otherwise, so a changed library fails at realm creation rather than mid-run.

/** The arguments of one direct call, read when asked for; valid only during the call. */
export interface DirectArguments {
  /** How many the caller passed. */
  readonly length: number;
  /** Argument `i` as a string, converted as `String(value)` would (ask only for ones known to be strings). */
  string(i: number): string;
  /** Argument `i` as a number, converted as `Number(value)` would. */
  number(i: number): number;
}

/**
 * A host function called directly: its result is a string, a boolean, or nothing (undefined). What it throws
 * is thrown into QuickJS as an Error with the same name and message, as the generic path does.
 */
export type DirectFunction = (args: DirectArguments) => string | boolean | void;

/** Makes one host function of the context, named `name`, that runs `fn` when called. */
export type NewDirectFunction = (name: string, fn: DirectFunction) => QuickJSHandle;

type Pointer = number;
type CallFunction = (ctx: Pointer, thisPtr: Pointer, argc: number, argv: Pointer, fnId: number) => Pointer;

/** The FFI functions used here, with the signatures of c/interface.c (pointers are wasm addresses). */
interface Ffi {
  QTS_ArgvGetJSValueConstPointer(argv: Pointer, index: number): Pointer;
  QTS_GetString(ctx: Pointer, value: Pointer): Pointer;
  QTS_FreeCString(ctx: Pointer, chars: Pointer): void;
  QTS_GetFloat64(ctx: Pointer, value: Pointer): number;
  QTS_NewString(ctx: Pointer, chars: Pointer): Pointer;
  QTS_DupValuePointer(ctx: Pointer, value: Pointer): Pointer;
  QTS_GetTrue(): Pointer;
  QTS_GetFalse(): Pointer;
}

/** The Emscripten module members used here. `HEAPU8` is replaced when the memory grows: read it after each allocation. */
interface EmscriptenModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): Pointer;
  _free(ptr: Pointer): void;
}

/** The private members of a QuickJSContext (quickjs-emscripten-core 0.32.0) used here. */
interface ContextInternals {
  cToHostCallbacks: { callFunction: CallFunction };
  getFunction(fnId: number): unknown;
  ffi: Ffi;
  module: EmscriptenModule;
}

const FFI_USED: Array<keyof Ffi> = ['QTS_ArgvGetJSValueConstPointer', 'QTS_GetString', 'QTS_FreeCString', 'QTS_GetFloat64', 'QTS_NewString', 'QTS_DupValuePointer', 'QTS_GetTrue', 'QTS_GetFalse'];
const MODULE_FUNCTIONS_USED = ['_malloc', '_free'] as const;

const made = new WeakMap<QuickJSContext, NewDirectFunction>();
// Strings cross as UTF-8 through the WebAssembly heap. The native encoder and decoder do what Emscripten's
// own helpers do in JavaScript loops, at a fraction of the cost for the kilobytes a run's inputs take.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The maker of direct host functions for `ctx` (one per context): QuickJS calls them without the generic
 * path's handles and scopes, and every other host function of the context goes on through that path.
 * Throws when quickjs-emscripten is not the version this was written for.
 * @example
 * const newDirectFunction = directFunctions(ctx)
 * const twice = newDirectFunction('twice', (args) => args.string(0).repeat(2))
 */
export function directFunctions(ctx: QuickJSContext): NewDirectFunction {
  let newDirectFunction = made.get(ctx);
  if (!newDirectFunction) {
    newDirectFunction = install(ctx, internalsOf(ctx));
    selfTest(ctx, newDirectFunction);
    made.set(ctx, newDirectFunction);
  }
  return newDirectFunction;
}

function internalsOf(ctx: QuickJSContext): ContextInternals {
  const internals = ctx as unknown as Partial<ContextInternals>;
  const missing = [
    ...(typeof internals.cToHostCallbacks?.callFunction === 'function' ? [] : ['cToHostCallbacks.callFunction']),
    ...(typeof internals.getFunction === 'function' ? [] : ['getFunction']),
    ...FFI_USED.filter((name) => typeof internals.ffi?.[name] !== 'function').map((name) => `ffi.${name}`),
    ...MODULE_FUNCTIONS_USED.filter((name) => typeof internals.module?.[name] !== 'function').map((name) => `module.${name}`),
    ...(internals.module?.HEAPU8 instanceof Uint8Array ? [] : ['module.HEAPU8']),
  ];
  if (missing.length) throw unexpected(`it lacks ${missing.join(', ')}`);
  return internals as ContextInternals;
}

function install(ctx: QuickJSContext, internals: ContextInternals): NewDirectFunction {
  const { ffi, module, cToHostCallbacks: callbacks } = internals;
  const generic = callbacks.callFunction;
  const truePtr = ffi.QTS_GetTrue();
  const falsePtr = ffi.QTS_GetFalse();
  // What each direct function was registered as with the context (a stand-in the generic path would run).
  const directOf = new WeakMap<object, DirectFunction>();
  const args = new Arguments(ffi, module);

  const newString = (ctxPtr: Pointer, text: string): Pointer => {
    // The exact size, not the most a text of this length could take: a run's inputs may be megabytes.
    const bytes = Buffer.byteLength(text);
    const chars = module._malloc(bytes + 1);
    if (!chars) throw outOfMemory();
    try {
      const heap = module.HEAPU8;
      encoder.encodeInto(text, heap.subarray(chars, chars + bytes));
      heap[chars + bytes] = 0;
      return ffi.QTS_NewString(ctxPtr, chars);
    } finally {
      module._free(chars);
    }
  };

  callbacks.callFunction = (ctxPtr, thisPtr, argc, argv, fnId) => {
    const fn = directOf.get(internals.getFunction(fnId) as object);
    if (!fn) return generic(ctxPtr, thisPtr, argc, argv, fnId);
    // A host function that calls back into QuickJS could be called again meanwhile: keep the outer call's arguments.
    const outer = args.enter(ctxPtr, argc, argv);
    try {
      const result = fn(args);
      if (result === undefined) return 0;
      return typeof result === 'string' ? newString(ctxPtr, result) : ffi.QTS_DupValuePointer(ctxPtr, result ? truePtr : falsePtr);
    } catch (error) {
      return ctx.throw(error as Error);
    } finally {
      args.leave(outer);
    }
  };

  return (name, fn) => {
    const standIn = () => {
      throw new Error(`${name}: called through quickjs-emscripten's generic path, not directly`);
    };
    directOf.set(standIn, fn);
    return ctx.newFunction(name, standIn);
  };
}

/** The arguments of the call in progress, as raw argv; one object per context, reused by every call. */
class Arguments implements DirectArguments {
  #ctx: Pointer = 0;
  #argc = 0;
  #argv: Pointer = 0;

  constructor(
    private readonly ffi: Ffi,
    private readonly module: EmscriptenModule,
  ) {}

  get length(): number {
    return this.#argc;
  }

  /** Starts a call; returns the outer call's arguments, for `leave`. */
  enter(ctx: Pointer, argc: number, argv: Pointer): [Pointer, number, Pointer] {
    const outer: [Pointer, number, Pointer] = [this.#ctx, this.#argc, this.#argv];
    this.#ctx = ctx;
    this.#argc = argc;
    this.#argv = argv;
    return outer;
  }

  leave([ctx, argc, argv]: [Pointer, number, Pointer]): void {
    this.#ctx = ctx;
    this.#argc = argc;
    this.#argv = argv;
  }

  // Past argc there is no argv slot to read: the value is undefined.
  string(i: number): string {
    if (i >= this.#argc) return 'undefined';
    // As QuickJSContext.getString: QuickJS's UTF-8 copy, decoded, then freed.
    const chars = this.ffi.QTS_GetString(this.#ctx, this.ffi.QTS_ArgvGetJSValueConstPointer(this.#argv, i));
    if (!chars) throw outOfMemory();
    const heap = this.module.HEAPU8;
    const text = decoder.decode(heap.subarray(chars, heap.indexOf(0, chars)));
    this.ffi.QTS_FreeCString(this.#ctx, chars);
    return text;
  }

  number(i: number): number {
    if (i >= this.#argc) return NaN;
    return this.ffi.QTS_GetFloat64(this.#ctx, this.ffi.QTS_ArgvGetJSValueConstPointer(this.#argv, i));
  }
}

/** Calls a direct function once from QuickJS: a string and a number in, a string out, through the direct path. */
function selfTest(ctx: QuickJSContext, newDirectFunction: NewDirectFunction): void {
  let called = false;
  const probe = newDirectFunction('probe', (args) => {
    called = true;
    return `${args.string(0)}:${args.number(1)}:${args.length}`;
  });
  const inputs = [ctx.newString('probe'), ctx.newNumber(2.5)];
  const result = ctx.callFunction(probe, ctx.undefined, ...inputs);
  inputs.forEach((h) => h.dispose());
  probe.dispose();
  const answer = result.error ? undefined : ctx.dump(result.value);
  (result.error ?? result.value).dispose();
  if (!called) throw unexpected('a direct call did not reach its function');
  if (answer !== 'probe:2.5:2') throw unexpected(`a direct call answered ${JSON.stringify(answer)}`);
}

/** What QuickJS throws itself when an allocation fails, so the run's memory limit is recognized. */
function outOfMemory(): Error {
  return Object.assign(new Error('out of memory'), { name: 'InternalError' });
}

function unexpected(what: string): Error {
  return new Error(
    `src/sandbox/direct-calls.ts relies on internals of quickjs-emscripten 0.32.0 (pinned in package.json), and ${what}: check them again in the installed version`,
  );
}
