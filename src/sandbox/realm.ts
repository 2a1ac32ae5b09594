import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { BOOTSTRAP, type RunEnd } from './bootstrap.js';
import { directFunctions } from './direct-calls.js';
import { createHostFunctions, type HostRun } from './host.js';

const MB = 1024 * 1024;
// Compiled code kept per context: by count, and by characters, as QuickJS keeps each function's source text
// and bytecode in the heap that a run's memory limit also counts.
const COMPILED_KEPT = 128;
const COMPILED_CHARS = 256 * 1024;
// Code that may await (the word anywhere, even in a string or comment) compiles as an async function.
const AWAITS = /\bawait\b/;

/** What the current run gives the host functions; null between runs. */
export type CurrentRun = () => HostRun | null;

/**
 * One QuickJS runtime and context kept across runs (the "frozen realm" of SES / Hardened JS): its intrinsics
 * and built-ins are frozen once, each run's globals are put on the global object and cleared after it, and
 * each code text is compiled once. Nothing a run can reach survives it except the frozen intrinsics; a run
 * that breaks a limit, whose global object cannot be cleared, or whose compilation ran code outside its
 * function `taints` the realm, which the engine then replaces. The interrupt handler and the host functions read the current run from `current`.
 * @example
 * const realm = createRealm(module, { memoryMb: 32, maxOutputBytes: 4 << 20 }, () => run)
 * const compiled = realm.compile('return 1') // { fn } or { error }
 */
export function createRealm(module: QuickJSWASMModule, { memoryMb, maxOutputBytes }: { memoryMb: number; maxOutputBytes: number }, current: CurrentRun) {
  const runtime: QuickJSRuntime = module.newRuntime();
  runtime.setInterruptHandler(() => current()?.limit.expired() ?? false);
  runtime.setMemoryLimit(memoryMb * MB);
  runtime.setMaxStackSize(512 * 1024);
  const ctx: QuickJSContext = runtime.newContext();
  const held: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle) => (held.push(h), h);
  const fnToString = keep(ctx.getProp(keep(ctx.getProp(keep(ctx.getProp(ctx.global, 'Function')), 'prototype')), 'toString'));
  const host = createHostFunctions(ctx, current);
  // A run's inputs and its answer cross as direct calls, the cheapest way strings have in and out.
  let inputsOfRun = '';
  let answerOfRun = '';
  const newDirectFunction = directFunctions(ctx);
  const protocol = [
    newDirectFunction('takeInputs', () => inputsOfRun),
    newDirectFunction('answer', (args) => void (answerOfRun = args.string(0))),
  ];
  const bootstrap = ctx.unwrapResult(ctx.evalCode(BOOTSTRAP, 'realm.js'));
  const maxOutput = ctx.newNumber(maxOutputBytes);
  const kit = keep(ctx.unwrapResult(ctx.callFunction(bootstrap, ctx.undefined, ...host, ...protocol, maxOutput)));
  bootstrap.dispose();
  maxOutput.dispose();
  [...host, ...protocol].forEach((h) => h.dispose());
  const [run, finish, thrown, harden, quote] = ['run', 'finish', 'thrown', 'harden', 'quote'].map((name) => keep(ctx.getProp(kit, name)));
  // The console budget arrives as two numbers, nearly always the same: their handles are kept until it changes.
  let budget: { lines: number; chars: number; handles: [QuickJSHandle, QuickJSHandle] } | null = null;
  const forgetBudget = () => {
    budget?.handles.forEach((h) => h.dispose());
    budget = null;
  };
  const budgetHandles = ({ lines, chars }: { lines: number; chars: number }) => {
    if (budget?.lines !== lines || budget.chars !== chars) {
      forgetBudget();
      budget = { lines, chars, handles: [ctx.newNumber(lines), ctx.newNumber(chars)] };
    }
    return budget.handles;
  };
  // Least recently used first.
  const compiled = new Map<string, QuickJSHandle>();
  let compiledChars = 0;
  const forget = (code: string) => {
    compiled.get(code)?.dispose();
    compiled.delete(code);
    compiledChars -= code.length;
  };

  const realm = {
    ctx,
    runtime,
    /** Set when the context may hold state of a run; the engine then replaces it. */
    tainted: false,
    /**
     * The function compiled from `code` (the caller frees it only when `owned`), or what evaluating it threw
     * (the caller frees it). Code that compiles into more than its function (a `}` closing the wrapper, then
     * code of its own) ran at compilation, as a script of this context: it is `escaped`. Either failure
     * taints the realm, a syntax error included (a script can throw one after declaring global bindings).
     * Code holding a NUL character is refused (`nul`) before QuickJS sees it.
     */
    compile(code: string): { fn: QuickJSHandle; owned?: boolean } | { error: QuickJSHandle } | { escaped: true } | { nul: true } {
      const cached = compiled.get(code);
      if (cached) {
        compiled.delete(code);
        compiled.set(code, cached);
        return { fn: cached };
      }
      // QuickJS takes the code as C text, which would end at a NUL: such code is refused before it runs.
      if (code.includes('\0')) return { nul: true };
      // Code that never awaits runs as a plain function: its result then needs no promise and no job queue.
      const source = `${AWAITS.test(code) ? 'async ' : ''}function () {\n${code}\n}`;
      // The code is on line 2 of code.js, which the error messages account for.
      const evaluated = ctx.evalCode(`(${source})`, 'code.js');
      if (evaluated.error) {
        realm.tainted = true;
        return { error: evaluated.error };
      }
      // A function whose source text is the whole wrapper is the wrapper: any `}` in the code that closed it
      // early would end that function earlier in the text.
      const text = ctx.callFunction(fnToString, evaluated.value);
      const whole = !text.error && ctx.typeof(text.value) === 'string' && ctx.getString(text.value) === source;
      (text.error ?? text.value).dispose();
      if (!whole) {
        evaluated.value.dispose();
        realm.tainted = true;
        return { escaped: true };
      }
      const hardened = ctx.callFunction(harden, ctx.undefined, evaluated.value);
      if (hardened.error) {
        evaluated.value.dispose();
        realm.tainted = true;
        return { error: hardened.error };
      }
      hardened.value.dispose();
      if (code.length <= COMPILED_CHARS) {
        compiled.set(code, evaluated.value);
        compiledChars += code.length;
        while (compiled.size > COMPILED_KEPT || compiledChars > COMPILED_CHARS) forget(compiled.keys().next().value!);
        return { fn: evaluated.value };
      }
      return { fn: evaluated.value, owned: true };
    },
    /**
     * Runs `fn` with `inputs` (one JSON object text) on the global object; its result waits for `finish`.
     * What stopped it, if anything did: the inputs not fitting in memory, or the run's limit.
     */
    start(fn: QuickJSHandle, inputs: string, logLimits: { lines: number; chars: number }): { error?: QuickJSHandle } {
      inputsOfRun = inputs;
      try {
        const started = ctx.callFunction(run, ctx.undefined, fn, ...budgetHandles(logLimits));
        if (started.error) return started;
        started.value.dispose();
        return {};
      } finally {
        inputsOfRun = '';
      }
    },
    /** Once the runtime ran the jobs the run queued: how it ended, with the global object cleared (else the realm is tainted). */
    finish(): RunEnd | { error: QuickJSHandle } {
      const finished = ctx.callFunction(finish, ctx.undefined);
      if (finished.error) return finished;
      finished.value.dispose();
      const text = answerOfRun;
      answerOfRun = '';
      if (text[1] === '-') realm.tainted = true;
      return { end: text[0] as RunEnd['end'], json: text.slice(2) };
    },
    /** What a run that ended `e` threw (the caller frees it). */
    thrown: (): QuickJSHandle => ctx.unwrapResult(ctx.callFunction(thrown, ctx.undefined)),
    /** A string's JSON text, read whole even when it holds a NUL (C text would end there). */
    quote: (value: QuickJSHandle): string => ctx.unwrapResult(ctx.callFunction(quote, ctx.undefined, value)).consume(ctx.getString),
    /** Frees the context and runtime; throws when QuickJS cannot (the module is then broken). */
    dispose(): void {
      for (const code of [...compiled.keys()]) forget(code);
      forgetBudget();
      held.forEach((h) => h.alive && h.dispose());
      ctx.dispose();
      runtime.dispose();
    },
  };
  return realm;
}

export type Realm = ReturnType<typeof createRealm>;
