// Issue #34, property 1: the `{{ }}` expression language. Any string compiles or is refused with
// INVALID_CONFIG and a position, in bounded time; any compiled expression over any JSON scope returns a value
// or fails with a WeirError, never reaches a prototype and never returns a function.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WeirError } from '../../src/index.js';
import { createExpressions, type Scope } from '../../src/expr/index.js';
import { check } from './_props.js';

const FILE = 'expressions';
/** Time one template may take to compile, however hostile (the measured worst is well under 5 ms). */
const MAX_COMPILE_MS = 50;

// The grammar, spelt out here rather than imported, so a change to it shows up as a failing property.
const ROOTS = ['$input', '$node', '$now', '$env', '$execution', 'body', 'headers', 'query', 'method'];
const FUNCTIONS: Record<string, [number, number]> = { json: [1, 2], lower: [1, 1], upper: [1, 1], length: [1, 1], trim: [1, 1], string: [1, 1], number: [1, 1] };
const FORBIDDEN = ['constructor', '__proto__', 'prototype'];
const OPERATORS = ['??', '||', '&&', '==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%'];
/** Keys the scopes below hold and the expressions read: ordinary ones and the names of prototype machinery. */
const KEYS = ['a', 'b', 'list', 'length', '0', '1', 'data', 'status', 'set-1', 'toString', 'valueOf', 'hasOwnProperty', 'polluted', ...FORBIDDEN];

const name = fc.constantFrom('a', 'b', 'list', 'length', 'data', 'status', 'toString', 'valueOf', 'hasOwnProperty', 'polluted', 'x_1', '$y', 'true');
const nodeId = fc.constantFrom('set-1', 'code-12', 'a', 'trigger_x-3-4');
const stringLiteral = fc.oneof(
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.string({ maxLength: 8, unit: 'binary' }).map((s) => JSON.stringify(s)),
  fc.constantFrom(...KEYS.filter((k) => !FORBIDDEN.includes(k))).map((s) => `'${s}'`),
  fc.constantFrom("'\\u0041\\n\\t'", "'it\\'s'", '"{{ }}"', "'}}'"),
);
const numberLiteral = fc.oneof(fc.nat({ max: 1000 }).map(String), fc.double({ min: 0, max: 1e6, noNaN: true }).map((n) => String(n)), fc.constantFrom('1e3', '.5', '2.', '1E-2'));

/** Expressions the grammar accepts (no forbidden key anywhere): each must compile. */
const { expr: validExpr } = fc.letrec<{ expr: string; primary: string }>((tie) => ({
  primary: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberLiteral,
    stringLiteral,
    fc.constantFrom('true', 'false', 'null'),
    // After `$node.` comes a node id (`set-1`), read by its own rule: the line below.
    fc.tuple(fc.constantFrom(...ROOTS.filter((r) => r !== '$node')), fc.array(fc.oneof(name.map((k) => `.${k}`), fc.nat({ max: 3 }).map((i) => `[${i}]`)), { maxLength: 4 })).map(([root, keys]) => root + keys.join('')),
    fc.tuple(nodeId, fc.array(name, { maxLength: 3 })).map(([id, keys]) => `$node.${id}${keys.map((k) => `.${k}`).join('')}`),
    fc.constantFrom(...Object.keys(FUNCTIONS)).chain((fn) => fc.array(tie('expr'), { minLength: FUNCTIONS[fn][0], maxLength: FUNCTIONS[fn][1] }).map((args) => `${fn}(${args.join(', ')})`)),
    tie('expr').map((e) => `(${e})`),
  ),
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('primary'),
    // A computed key that is not a literal (a literal key must be a string or a number: `[true]` is refused).
    fc.tuple(tie('primary'), tie('expr')).map(([o, k]) => `${o}[${k} ?? 'a']`),
    // `0.a` reads as the number `0.` followed by a name, as in JavaScript: a number takes brackets first.
    fc.tuple(tie('primary'), name).map(([o, k]) => `${/^[\d.]/.test(o) ? `(${o})` : o}.${k}`),
    fc.tuple(fc.constantFrom('!', '-'), tie('expr')).map(([op, e]) => `${op}${e}`),
    fc.tuple(tie('expr'), fc.constantFrom(...OPERATORS), tie('expr')).map(([l, op, r]) => `${l} ${op} ${r}`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([t, a, b]) => `${t} ? ${a} : ${b}`),
  ),
}));

/** Text around expressions: anything without `{{`, and not ending in `{` (`{{{` opens at its first two). */
const text = fc.string({ maxLength: 10 }).filter((s) => !s.includes('{{') && !s.endsWith('{'));
/** A template of valid expressions between plain text. */
const validTemplate = fc.oneof(
  validExpr.map((e) => `{{ ${e} }}`),
  fc.tuple(text, fc.array(fc.tuple(validExpr, text), { minLength: 1, maxLength: 3 })).map(([head, parts]) => head + parts.map(([e, t]) => `{{ ${e} }}${t}`).join('')),
);

/** The grammar's tokens and near misses, in any order: strings that reach deep into the parser and the lexer. */
const token = fc.oneof(
  fc.constantFrom(...ROOTS, ...Object.keys(FUNCTIONS), ...FORBIDDEN, ...OPERATORS, '.', '[', ']', '(', ')', ',', '?', ':', '!', '{{', '}}', '}', '{', '=', '===', '!==', '"', "'", '\\', '\\u12', '$node.', 'set-1', '-1', '1.', '1e', '0x1', 'eval', 'this', 'new', '`', ';'),
  name,
  stringLiteral,
  numberLiteral,
  fc.string({ maxLength: 3 }),
);
const tokenSoup = fc.tuple(fc.array(token, { maxLength: 40 }), fc.constantFrom(' ', '', '\n')).map(([tokens, sep]) => `{{ ${tokens.join(sep)}`);
/** Long inputs: a token run repeated, to find what grows faster than the text (nesting, quadratic scans). */
const longInput = fc.tuple(fc.array(token, { minLength: 1, maxLength: 6 }), fc.integer({ min: 50, max: 1500 })).map(([tokens, n]) => `{{ ${tokens.join(' ').repeat(n)}`);
const anyTemplate = fc.oneof(
  tokenSoup,
  tokenSoup.map((s) => `${s} }}`),
  validTemplate,
  fc.string({ maxLength: 40 }).map((s) => `{{${s}`),
  fc.string({ maxLength: 40, unit: 'binary' }),
  fc.string({ maxLength: 40, unit: 'grapheme' }).map((s) => `x {{ ${s} }} y`),
  longInput,
);

/** Compiles `source` with a fresh engine: the compiled closure (or null), or the error thrown, and the time taken. */
function compileOnce(source: string): { fn?: unknown; error?: unknown; ms: number } {
  const expressions = createExpressions();
  const started = performance.now();
  try {
    const fn = expressions.template(source);
    return { fn, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

/** Asserts the outcome of compiling `source`: a closure or null, or INVALID_CONFIG with a position inside it. */
function assertCompiles(source: string) {
  let outcome = compileOnce(source);
  // A pause of the machine (another process, a collection) is not the parser's time: retry before judging.
  for (let i = 0; i < 2 && outcome.ms >= MAX_COMPILE_MS; i++) outcome = compileOnce(source);
  assert.ok(outcome.ms < MAX_COMPILE_MS, `compiling took ${outcome.ms.toFixed(1)} ms: ${JSON.stringify(source.slice(0, 200))}`);
  if (outcome.error === undefined) {
    assert.ok(outcome.fn === null || typeof outcome.fn === 'function');
    assert.is(outcome.fn === null, !source.includes('{{'), 'null exactly when there is no {{');
    return;
  }
  const err = outcome.error;
  assert.instance(err, WeirError, `not a WeirError: ${String(err)} for ${JSON.stringify(source)}`);
  assert.is((err as WeirError).code, 'INVALID_CONFIG');
  const position = ((err as WeirError).details as { position?: unknown } | undefined)?.position;
  assert.ok(Number.isInteger(position) && (position as number) >= 0 && (position as number) <= source.length, `position ${String(position)} inside ${source.length} characters`);
  assert.match((err as WeirError).message, `position ${position}`);
  assert.not.match((err as WeirError).message, '\n', 'one line');
}

test('any string compiles, or is refused with INVALID_CONFIG and a position, in bounded time', () => {
  check('any string compiles or is refused with a position', 1000, FILE, fc.property(anyTemplate, (source) => assertCompiles(source)));
});

test('problems() lists a template that does not parse under its path, and never throws', () => {
  const expressions = createExpressions({ cacheSize: 16 });
  check(
    'problems() reports parse errors at their path',
    500,
    FILE,
    fc.property(anyTemplate, fc.constantFrom('config.values', ''), (source, path) => {
      const found = expressions.problems({ key: [source] }, path);
      let refused = false;
      try {
        createExpressions().template(source);
      } catch {
        refused = true;
      }
      assert.is(found.length, refused ? 1 : 0);
      if (refused) assert.is(found[0].path, path ? `${path}.key[0]` : 'key[0]');
    }),
  );
});

test('templates built from the grammar compile', () => {
  check(
    'grammar-built templates compile',
    1000,
    FILE,
    fc.property(validTemplate, (source) => {
      const { error } = compileOnce(source);
      assert.is(error, undefined, `${String(error)}`);
    }),
  );
});

test('a forbidden key anywhere in a path is refused at compile time', () => {
  check(
    'forbidden keys are refused',
    500,
    FILE,
    fc.property(validExpr, fc.constantFrom(...FORBIDDEN), fc.constantFrom('.', '["', "['"), (e, key, form) => {
      const access = form === '.' ? `.${key}` : `${form}${key}${form[1]}]`;
      const { error } = compileOnce(`{{ (${e})${access} }}`);
      assert.instance(error, WeirError);
      assert.is((error as WeirError).code, 'INVALID_CONFIG');
    }),
  );
});

/** JSON values whose object keys include the names of prototype machinery, made as own properties. */
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 4 })), tie('json')), { maxLength: 5 }).map((entries) => Object.fromEntries(entries)),
  ),
}));
/** A scope as the executor gives one, every part generated. */
const scope: fc.Arbitrary<Scope> = fc.record({
  input: json,
  node: fc.array(fc.tuple(fc.oneof(nodeId, fc.constantFrom(...KEYS)), json), { maxLength: 3 }).map((entries) => Object.fromEntries(entries)),
  env: fc.dictionary(fc.constantFrom('API_KEY', 'a', 'constructor', '__proto__'), fc.string({ maxLength: 5 })),
  execution: fc.option(fc.record({ id: fc.string({ maxLength: 5 }) }), { nil: undefined }),
});

/** Fails when `value` is or holds a function, or an object whose prototype is not a plain JSON one. */
function assertPlain(value: unknown, seen = new Set<unknown>()): void {
  assert.is.not(typeof value, 'function', 'an expression returned a function');
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  const proto = Object.getPrototypeOf(value);
  assert.ok(proto === Object.prototype || proto === Array.prototype || proto === null, 'an expression returned an object that is not plain data');
  assert.ok(value !== Object.prototype && value !== Array.prototype, 'an expression returned a prototype');
  for (const key of Reflect.ownKeys(value)) {
    const desc = Object.getOwnPropertyDescriptor(value, key)!;
    assert.ok(!desc.get && !desc.set, 'an accessor in a result');
    assertPlain(desc.value, seen);
  }
}

const prototypeNames = () => [Object.prototype, Array.prototype, String.prototype, Function.prototype].map((p) => Reflect.ownKeys(p).map(String).sort().join());

test('any compiled expression over any JSON scope returns plain data or fails with a WeirError; prototypes stay as they were', () => {
  const before = prototypeNames();
  const expressions = createExpressions({ cacheSize: 64 });
  check(
    'evaluation returns plain data and never reaches a prototype',
    1000,
    FILE,
    fc.property(validTemplate, scope, (source, s) => {
      const fn = expressions.template(source)!;
      let value: unknown;
      try {
        value = fn(s);
      } catch (err) {
        assert.instance(err, WeirError, `evaluating ${source} threw ${String(err)}`);
        return;
      }
      assertPlain(value);
      // render() resolves the same template inside any JSON value and leaves the rest as it is ($now moves on).
      if (!source.includes('$now')) assert.equal(expressions.render({ at: [source, '{ plain }'] }, s), { at: [value, '{ plain }'] });
      assert.is(({} as { polluted?: unknown }).polluted, undefined);
      assert.equal(prototypeNames(), before, 'a prototype gained or lost a property');
    }),
  );
});

test('examples: names of prototype machinery read nothing', () => {
  const expressions = createExpressions();
  const s: Scope = { input: JSON.parse('{"__proto__": {"polluted": 1}, "a": {}}'), node: {}, env: {} };
  for (const source of ['{{ $input.toString }}', '{{ $input.a.hasOwnProperty }}', '{{ $input["__pro" + "to__"] }}', '{{ $input.a["constr" + "uctor"] }}', '{{ "x".toString }}', '{{ $input.polluted }}']) {
    assert.is(expressions.evaluate(source, s), undefined, source);
  }
  assert.throws(() => expressions.evaluate('{{ $input.constructor }}', s), (err: unknown) => err instanceof WeirError && err.code === 'INVALID_CONFIG');
});

test.run();
