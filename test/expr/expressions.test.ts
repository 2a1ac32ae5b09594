import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WeirError } from '../../src/index.js';
import { createExpressions, type Scope } from '../../src/expr/index.js';

const expr = createExpressions();
const scope: Scope = {
  input: {
    a: { b: 5, s: 'text', t: true, n: null, o: { deep: [1, 2] } },
    list: [{ name: 'first' }, { name: 'second' }],
    i: 1,
    body: { user: { name: 'Ada' }, items: [{ sku: 'x-1' }] },
    headers: { 'x-custom': 'custom-value', 'content-type': 'application/json' },
    query: { page: '2' },
    method: 'POST',
    proto: JSON.parse('{"__proto__": {"polluted": true}}'),
  },
  node: { 'set-1': { data: { v: 7 }, status: 'success', startedAt: 't0', finishedAt: 't1' }, 'http_request-12': { data: { status: 204 }, status: 'success' } },
  env: { API_KEY: 'k-123' },
};
const ev = (text: string) => expr.evaluate(text, scope);

function parseError(text: string): WeirError {
  try {
    ev(text);
  } catch (err) {
    assert.instance(err, WeirError);
    return err as WeirError;
  }
  throw new Error(`expected a parse error for ${text}`);
}

test('paths: $input, dotted, indexes, bracket keys, $node ids with dashes, $env', () => {
  assert.equal(ev('{{ $input }}'), scope.input);
  assert.is(ev('{{ $input.a.b }}'), 5);
  assert.is(ev('{{ $input.list[0].name }}'), 'first');
  assert.is(ev('{{ $input.list[1]["name"] }}'), 'second');
  assert.is(ev("{{ $input.headers['x-custom'] }}"), 'custom-value');
  assert.is(ev('{{ $input.list[$input.i].name }}'), 'second');
  assert.is(ev('{{ $node.set-1.data.v }}'), 7);
  assert.equal(ev('{{ $node.set-1 }}'), scope.node['set-1']);
  assert.is(ev('{{ $node.http_request-12.data.status }}'), 204);
  assert.is(ev("{{ $node['set-1'].status }}"), 'success');
  assert.is(ev('{{ $env.API_KEY }}'), 'k-123');
  assert.is(ev('{{ $input.a.o.deep.length }}'), 2);
  assert.is(ev('{{ $input.a.s.length }}'), 4);
});

test('webhook shorthands stand for $input.body, headers, query, method', () => {
  assert.is(ev('{{ body.user.name }}'), 'Ada');
  assert.is(ev('{{body.items[0].sku}}'), 'x-1');
  assert.is(ev("{{ headers['content-type'] }}"), 'application/json');
  assert.is(ev('{{ query.page }}'), '2');
  assert.is(ev('{{ method }}'), 'POST');
});

test('$now is the current ISO time', () => {
  const before = Date.now();
  const now = ev('{{ $now }}') as string;
  assert.match(now, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.ok(Date.parse(now) >= before - 1 && Date.parse(now) <= Date.now());
});

test('a whole expression keeps its type; embedded ones become text', () => {
  assert.is(ev('{{ $input.a.b }}'), 5);
  assert.is(ev('{{ $input.a.t }}'), true);
  assert.is(ev('{{ $input.a.n }}'), null);
  assert.equal(ev('{{ $input.a.o }}'), { deep: [1, 2] });
  assert.is(ev('n={{ $input.a.b }}'), 'n=5');
  assert.is(ev('{{ $input.a.t }}!'), 'true!');
  assert.is(ev('o={{ $input.a.o }}'), 'o={"deep":[1,2]}');
  assert.is(ev('{{ $input.a.b }}{{ $input.a.b }}'), '55');
  assert.is(ev(' {{ $input.a.b }}'), ' 5');
  assert.is(ev('no expression here'), 'no expression here');
});

test('missing paths give undefined, or nothing inside text, never a crash', () => {
  assert.is(ev('{{ $input.nope }}'), undefined);
  assert.is(ev('{{ $input.nope.deeper[3].name }}'), undefined);
  assert.is(ev('{{ $input.a.b.c }}'), undefined);
  assert.is(ev('{{ $node.set-9.data }}'), undefined);
  assert.is(ev('{{ $env.MISSING }}'), undefined);
  assert.is(ev('[{{ $input.nope }}]'), '[]');
  assert.is(ev('[{{ $input.a.n }}]'), '[]');
  assert.is(ev('{{ $input.list[9].name }}'), undefined);
  assert.is(ev('{{ $input.list[$input.nope] }}'), undefined);
});

test('literals, operators, ternary and ??', () => {
  assert.is(ev("{{ 'it\\'s' }}"), "it's");
  assert.is(ev('{{ "a\\nb" }}'), 'a\nb');
  assert.is(ev('{{ 1.5e1 }}'), 15);
  assert.is(ev('{{ null }}'), null);
  assert.is(ev('{{ $input.a.b + 1 }}'), 6);
  assert.is(ev("{{ 'n' + $input.a.b }}"), 'n5');
  assert.is(ev('{{ $input.a.b * 2 - 4 / 2 }}'), 8);
  assert.is(ev('{{ (1 + 2) * 3 }}'), 9);
  assert.is(ev('{{ 7 % 3 }}'), 1);
  assert.is(ev('{{ -$input.a.b }}'), -5);
  assert.is(ev('{{ $input.a.b == 5 && $input.a.s != "x" }}'), true);
  assert.is(ev("{{ $input.a.b == '5' }}"), false);
  assert.is(ev('{{ $input.a.b >= 5 && $input.a.b < 6 && 2 <= 3 && 4 > 3 }}'), true);
  assert.is(ev("{{ 'abc' < 'abd' }}"), true);
  assert.is(ev('{{ !$input.a.t || $input.a.b }}'), 5);
  assert.is(ev('{{ $input.a.b > 3 ? "big" : "small" }}'), 'big');
  assert.is(ev('{{ $input.a.b > 9 ? "big" : $input.a.b > 4 ? "mid" : "small" }}'), 'mid');
  assert.is(ev('{{ $input.nope ?? "default" }}'), 'default');
  assert.is(ev('{{ $input.a.n ?? 0 }}'), 0);
  assert.is(ev('{{ $input.a.b ?? 0 }}'), 5);
});

test('functions: json lower upper length trim string number', () => {
  assert.is(ev('{{ json($input.a.o) }}'), '{"deep":[1,2]}');
  assert.is(ev('{{ lower("ABC") }}'), 'abc');
  assert.is(ev('{{ upper(body.user.name) }}'), 'ADA');
  assert.is(ev('{{ length($input.list) }}'), 2);
  assert.is(ev('{{ length("four") }}'), 4);
  assert.is(ev('{{ length($input.a) }}'), 5);
  assert.is(ev('{{ length($input.nope) }}'), 0);
  assert.is(ev('{{ trim("  x ") }}'), 'x');
  assert.is(ev('{{ string($input.a.b) }}'), '5');
  assert.is(ev("{{ number(query.page) + 1 }}"), 3);
  assert.ok(Number.isNaN(ev('{{ number("abc") }}')));
});

test('prototypes, constructors and globals are out of reach', () => {
  for (const text of ['{{ $input.constructor }}', '{{ $input.a.__proto__ }}', "{{ $input['constructor'] }}", '{{ $input["__proto__"] }}', '{{ $input.prototype }}', '{{ $node.set-1.constructor }}']) {
    assert.match(parseError(text).message, /is not accessible/, text);
  }
  for (const name of ['process', 'require', 'globalThis', 'global', 'this', 'Function', 'eval', 'constructor']) {
    assert.match(parseError(`{{ ${name} }}`).message, /unknown name/, name);
  }
  assert.match(parseError('{{ $input.a.s.toUpperCase() }}').message, /calling a value is not allowed/);
  assert.match(parseError('{{ lower.constructor }}').message, /unknown name "lower"/);
  assert.match(parseError('{{ $input.a = 1 }}').message, /assignment is not allowed/);
  // Computed keys are checked when evaluated; inherited members are never found.
  assert.is(expr.evaluate('{{ $input.a[$input.k] }}', { ...scope, input: { a: {}, k: 'constructor' } }), undefined);
  assert.is(expr.evaluate('{{ $input.a[$input.k] }}', { ...scope, input: { a: {}, k: '__proto__' } }), undefined);
  assert.is(ev('{{ $input.a.toString }}'), undefined);
  assert.is(ev('{{ $input.a.s.toUpperCase }}'), undefined);
  assert.is(ev('{{ $input.list.map }}'), undefined);
  assert.is(ev('{{ $input.proto.polluted }}'), undefined);
});

test('parse errors name the position in the template', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['{{ $input. }}', 11, /expected a name after "\."/],
    ['ab {{ 1 + }} cd', 10, /unexpected "}}"/],
    ['{{ $input.a', 11, /missing "}}"/],
    ['{{ }}', 3, /empty expression/],
    ["x {{ 'open }}", 5, /unterminated string/],
    ['{{ nope }}', 3, /unknown name "nope"/],
    ['{{ json() }}', 3, /takes 1 to 2 arguments/],
    ['{{ frobnicate(1) }}', 3, /unknown function "frobnicate"/],
    ['{{ $input.a === 1 }}', 12, /use ==/],
    ['{{ $input.a # 1 }}', 12, /unexpected character "#"/],
  ];
  for (const [text, position, message] of cases) {
    const err = parseError(text);
    assert.is(err.code, 'INVALID_CONFIG', text);
    assert.is((err.details as { position: number }).position, position, text);
    assert.match(err.message, `position ${position}`);
    assert.match(err.message, message, text);
  }
});

test('templates are parsed once per instance and reused', () => {
  const own = createExpressions({ cacheSize: 2 });
  const a = own.template('{{ $input.a }}');
  assert.is(own.template('{{ $input.a }}'), a);
  own.template('{{ $input.b }}');
  own.template('{{ $input.c }}');
  assert.is.not(own.template('{{ $input.a }}'), a, 'the oldest entry was dropped at the bound');
  assert.is.not(createExpressions().template('{{ $input.a }}'), a, 'instances do not share a cache');
});

test('render resolves every string of a config, leaving constants as they are', () => {
  const config = { url: 'https://x/{{ $input.a.b }}', headers: { auth: 'Bearer {{ $env.API_KEY }}', fixed: 'yes' }, list: ['{{ $input.a.t }}', 3], constant: { x: 1 } };
  const out = expr.render(config, scope) as typeof config;
  assert.equal(out, { url: 'https://x/5', headers: { auth: 'Bearer k-123', fixed: 'yes' }, list: [true, 3], constant: { x: 1 } });
  assert.is(out.constant, config.constant);
  const noTemplates = { a: 1, b: ['x'] };
  assert.is(expr.render(noTemplates, scope), noTemplates);
});

test.run();
