import { ARGUMENT_KIND, ARGUMENT_KIND_BITS } from './host.js';
import { MAX_HOST_INPUT } from './limits.js';

// The bit ARGUMENT_KIND.json sets, in each argument's place: whether any argument crosses as JSON.
const JSON_KINDS = [0, 1, 2, 3].reduce((mask, i) => mask | (ARGUMENT_KIND.json << (ARGUMENT_KIND_BITS * i)), 0);

/**
 * How a run ended, as the sandbox answers in one string (a letter, then the JSON text of `j`):
 * - `j`: returned a JSON value (`json`); `u`: returned nothing JSON can hold (undefined, a function);
 * - `e`: threw, or its promise rejected (the value: the realm's `thrown()`);
 * - `s`: returned a value JSON.stringify refused (a BigInt, a cycle); `o`: its JSON is longer than the output limit;
 * - `n`: returned a promise that never settled (once the runtime ran every job).
 */
export interface RunEnd {
  end: 'j' | 'u' | 'e' | 's' | 'o' | 'n';
  json: string;
}

/**
 * The source of a realm's kit (see createRealm in realm.ts), evaluated once per context before any code
 * runs. It takes the host functions and returns the functions the host calls; nothing else it creates is
 * reachable from code. In order:
 * - FinalizationRegistry goes: its callbacks would run during a later run's garbage collection, with the
 *   earlier run's closures (its console writing into the later run's log).
 * - The "override mistake": once a prototype is frozen, assigning a property it holds fails on every object
 *   that inherits it (`err.name = 'X'` on a `new Error()`, `obj.toString = fn`). The properties code commonly
 *   assigns become accessors whose setter defines an own property on the receiver, as SES does. The set is
 *   small: reading one costs a call, so hot methods (Array.prototype.push, ...) stay data properties.
 * - The built-ins move off the global object onto a frozen object that becomes its prototype, so name
 *   lookups still find them; the global object keeps only `undefined`, `NaN` and `Infinity` (which cannot
 *   move) and stays extensible. Every intrinsic reachable from there, and the ones only syntax reaches (the
 *   prototypes of async and generator functions, iterators), is frozen.
 * - `run` puts a run's inputs, a fresh `$crypto` and a fresh `console` on the global object, where code
 *   finds them as plain globals, as it finds what it assigns there itself (`x = 5`, `globalThis.y = 1`,
 *   `var` in an indirect eval). `finish`, called once the promise jobs the run queued have run, takes its
 *   result and deletes all of it, so the next run starts from the same global object; when it cannot (a
 *   property made non-configurable, the object made non-extensible or given another prototype), it says so
 *   and the realm is replaced. A fresh global object per run would cost every name lookup a trip through a
 *   Proxy (a `with` scope): more than most code itself.
 * - `console` counts lines and characters in variables reset by each run, so no console object, old or
 *   new, has more than the run's budget.
 */
export const BOOTSTRAP = `(function (hostHmac, hostTimingSafeEqual, hostSha256, emit, takeInputs, answer, maxOutput) {
  'use strict';
  const { create, defineProperty, freeze, getOwnPropertyDescriptor, getPrototypeOf, hasOwn, isExtensible, setPrototypeOf } = Object;
  const { apply, deleteProperty, ownKeys } = Reflect;
  const realGlobal = globalThis, parse = JSON.parse, stringify = JSON.stringify, RealString = String, RealTypeError = TypeError;
  const promiseResolve = Promise.resolve.bind(Promise), promiseThen = (p, f, r) => apply(Promise.prototype.then, p, [f, r]);

  const own = (value) => ({ value, writable: true, enumerable: true, configurable: true });
  // A string crosses to the host as C text, which ends at its first NUL: one holding a NUL crosses as its JSON.
  const hasNul = (s) => s.indexOf('\\0') !== -1;
  const tame = (object, key) => {
    const d = getOwnPropertyDescriptor(object, key);
    if (!d || !hasOwn(d, 'value')) return;
    const { value, enumerable } = d;
    defineProperty(object, key, {
      get() { return value },
      set(next) {
        if (this === object) throw new RealTypeError("'" + key + "' of a built-in prototype is read-only");
        if (hasOwn(this, key)) this[key] = next;
        else defineProperty(this, key, own(next));
      },
      enumerable,
      configurable: false,
    });
  };
  for (const key of ['constructor', 'toString', 'toLocaleString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable']) tame(Object.prototype, key);
  for (const E of [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, InternalError, AggregateError])
    for (const key of ['constructor', 'name', 'message', 'toString']) tame(E.prototype, key);
  for (const key of ['constructor', 'toString']) tame(Function.prototype, key);

  const builtins = create(getPrototypeOf(realGlobal));
  for (const key of ownKeys(realGlobal)) {
    const d = getOwnPropertyDescriptor(realGlobal, key);
    if (!d.configurable) continue;
    if (key !== 'FinalizationRegistry') defineProperty(builtins, key, d);
    deleteProperty(realGlobal, key);
  }
  setPrototypeOf(realGlobal, builtins);

  let maxLines = 0, maxChars = 0, lines = 0, chars = 0;
  const text = (a) => { if (typeof a === 'string') return a; try { const s = stringify(a); return s === undefined ? RealString(a) : s } catch (e) { return RealString(a) } };
  const method = (level) => function (...args) {
    if (lines >= maxLines || chars >= maxChars) return void emit(level);
    let line = '';
    for (let i = 0; i < args.length && line.length <= maxChars - chars; i++) line += (i ? ' ' : '') + text(args[i]);
    // One character past the budget lets the receiver see that the line was cut.
    line = line.slice(0, maxChars - chars + 1);
    lines++;
    chars += line.length;
    if (hasNul(line)) emit(level, stringify(line), line.length, 1);
    else emit(level, line, line.length);
  };
  const log = method('log'), info = method('info'), warn = method('warn'), error = method('error');
  // The host functions take their arguments' kinds first (see ARGUMENT_KIND), found here where they cost nothing.
  const kind = (v, i) => (typeof v === 'string' ? (v.length > ${MAX_HOST_INPUT} ? ${ARGUMENT_KIND.tooLong} : hasNul(v) ? ${ARGUMENT_KIND.json} : ${ARGUMENT_KIND.string}) : v === undefined ? ${ARGUMENT_KIND.undefined} : ${ARGUMENT_KIND.other}) << (${ARGUMENT_KIND_BITS} * i);
  // The JSON of a string holding a NUL; only called when a kind says one is there.
  const pass = (v) => (typeof v === 'string' && v.length <= ${MAX_HOST_INPUT} && hasNul(v) ? stringify(v) : v);
  const hmac = function hmac(alg, key, data, encoding) {
    const kinds = kind(alg, 0) | kind(key, 1) | kind(data, 2) | kind(encoding, 3);
    return kinds & ${JSON_KINDS} ? hostHmac(kinds, pass(alg), pass(key), pass(data), pass(encoding)) : hostHmac(kinds, alg, key, data, encoding);
  };
  const timingSafeEqual = function timingSafeEqual(a, b) {
    const kinds = kind(a, 0) | kind(b, 1);
    return kinds & ${JSON_KINDS} ? hostTimingSafeEqual(kinds, pass(a), pass(b)) : hostTimingSafeEqual(kinds, a, b);
  };
  const sha256 = function sha256(data, encoding) {
    const kinds = kind(data, 0) | kind(encoding, 1);
    return kinds & ${JSON_KINDS} ? hostSha256(kinds, pass(data), pass(encoding)) : hostSha256(kinds, data, encoding);
  };
  // How a run ended, as one string handed to the host in one call: a letter (see RunEnd), '+' when the
  // global object was cleaned (or '-' when it could not be), then the return value's JSON text if any.
  const cleaned = () => {
    if (getPrototypeOf(realGlobal) !== builtins || !isExtensible(realGlobal)) return false;
    const keys = ownKeys(realGlobal);
    for (let i = keys.length; i-- > 0;) {
      const key = keys[i];
      if (!deleteProperty(realGlobal, key) && key !== 'undefined' && key !== 'NaN' && key !== 'Infinity') return false;
    }
    return true;
  };
  const end = (kind, json) => answer(kind + (cleaned() ? '+' : '-') + json);
  const returned = (value) => {
    let json;
    try { json = stringify(value) } catch (e) { return end('s', '') }
    if (json === undefined) return end('u', '');
    // Characters are at most bytes: the host measures the bytes of what passes.
    return json.length > maxOutput ? end('o', '') : end('j', json);
  };
  // How the run ended, once it did: what it returned or threw, or how its promise settled. A thrown value
  // stays a property: out of memory, QuickJS can throw its "uninitialized" marker, which no variable holds.
  let settled;
  const kit = {
    // The run's result waits for \`finish\`: the promise jobs the code queued run first, with its globals in place.
    run(compiled, lineBudget, charBudget) {
      maxLines = lineBudget; maxChars = charBudget; lines = 0; chars = 0;
      settled = undefined;
      const values = parse(takeInputs());
      // A name the built-ins hold (an embedder's global called JSON, or __proto__) is shadowed, not assigned.
      for (const key in values) {
        if (key in builtins) defineProperty(realGlobal, key, own(values[key]));
        else realGlobal[key] = values[key];
      }
      realGlobal.$crypto = { hmac, timingSafeEqual, sha256 };
      realGlobal.console = { log, info, warn, error };
      try {
        const result = apply(compiled, realGlobal, []);
        // A thenable is awaited, as an async function's return would be; reading 'then' may run code, inside the run.
        if (result === null || (typeof result !== 'object' && typeof result !== 'function') || typeof result.then !== 'function') settled = { value: result };
        else promiseThen(promiseResolve(result), (value) => { settled = { value } }, (reason) => { settled = { reason } });
      } catch (reason) {
        settled = { reason };
      }
    },
    // Once the host ran the pending jobs: how the run ended (see RunEnd).
    finish() {
      if (!settled) return answer('n');
      return 'reason' in settled ? end('e', '') : returned(settled.value);
    },
    // What a run that ended 'e' threw, handed over once.
    thrown() { const ended = settled; settled = undefined; return ended.reason },
    quote(s) { return stringify(s) },
    harden(compiled) { freeze(compiled) },
  };

  const seen = new Set([realGlobal]);
  const queue = [];
  const visit = (v) => { if (((typeof v === 'object' && v !== null) || typeof v === 'function') && !seen.has(v)) { seen.add(v); queue.push(v) } };
  [builtins, hostHmac, hostTimingSafeEqual, hostSha256, hmac, timingSafeEqual, sha256, emit, log, info, warn, error, kit,
    async function () {}, function* () {}, async function* () {}, (function* () {})(), (async function* () {})(),
    [][Symbol.iterator](), new Map()[Symbol.iterator](), new Set()[Symbol.iterator](), ''[Symbol.iterator](), /a/[Symbol.matchAll](''),
    Iterator.from({ next() {} }), [].values().map((x) => x)].forEach(visit);
  while (queue.length) {
    const o = queue.pop();
    freeze(o);
    visit(getPrototypeOf(o));
    for (const key of ownKeys(o)) {
      const d = getOwnPropertyDescriptor(o, key);
      if ('value' in d) visit(d.value);
      else { visit(d.get); visit(d.set) }
    }
  }
  return kit;
})`;
