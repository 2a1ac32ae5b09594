import { createLexer, type Lexer, type Token } from './lexer.js';
import { FUNCTIONS } from './functions.js';
import { FORBIDDEN_KEYS } from './values.js';

/** The expression tree. Member keys are checked at parse time; there is no node for calling a value. */
export type Ast =
  | { type: 'literal'; value: unknown }
  | { type: 'root'; name: RootName }
  | { type: 'member'; object: Ast; key: string | number }
  | { type: 'index'; object: Ast; key: Ast }
  | { type: 'unary'; op: '!' | '-'; arg: Ast }
  | { type: 'binary'; op: BinaryOp; left: Ast; right: Ast }
  | { type: 'logical'; op: '&&' | '||' | '??'; left: Ast; right: Ast }
  | { type: 'conditional'; test: Ast; then: Ast; else: Ast }
  | { type: 'call'; name: keyof typeof FUNCTIONS; args: Ast[] };

export type BinaryOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';

/**
 * `$input`, `$node`, `$now`, `$env`, `$execution`, the webhook shorthands for `$input.body` etc., and `$item`,
 * `$index` (the item a foreach `map` is at; undefined elsewhere).
 */
export const ROOTS = ['$input', '$node', '$now', '$env', '$execution', 'body', 'headers', 'query', 'method', '$item', '$index'] as const;
export type RootName = (typeof ROOTS)[number];

const LITERALS: Record<string, unknown> = { true: true, false: false, null: null };
// Binary operators by precedence, lowest first (`??`, `||`, `&&` short-circuit and are handled apart).
const LEVELS: string[][] = [['??'], ['||'], ['&&'], ['==', '!='], ['<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']];
// Parsing and evaluating recurse once per level of the tree: a deeper one would exhaust the stack.
const MAX_DEPTH = 256;

/** The lexer plus how deep the tree being built is at this point. */
type Parser = Lexer & { depth: number };

/** Goes one level deeper in the tree; past {@link MAX_DEPTH} the expression is refused at `pos`. */
function descend(lx: Parser, pos: number): void {
  if (++lx.depth > MAX_DEPTH) lx.fail(pos, `the expression nests deeper than ${MAX_DEPTH} levels (brackets, operators, calls, keys)`);
}

/** Runs `parse` with the depth as it is now restored afterwards (chains descend once per link). */
function within<T>(lx: Parser, parse: () => T): T {
  const outer = lx.depth;
  try {
    return parse();
  } finally {
    lx.depth = outer;
  }
}

/**
 * Parses one `{{ ... }}` expression of `source` starting right after the `{{` at `start`.
 * Returns the tree and the offset just past the closing `}}`.
 */
export function parseExpression(source: string, start: number): { ast: Ast; end: number } {
  const lx: Parser = Object.assign(createLexer(source, start), { depth: 0 });
  if (lx.peek().kind === 'close') lx.fail(lx.peek().pos, 'empty expression');
  const ast = parseConditional(lx);
  const close = lx.next();
  if (close.kind === 'eof') lx.fail(close.pos, 'missing "}}"');
  if (close.kind !== 'close') lx.fail(close.pos, `unexpected ${describe(close)}`);
  return { ast, end: close.pos + 2 };
}

const describe = (t: Token) => (t.kind === 'eof' ? 'end of text' : t.kind === 'string' ? 'string' : `"${t.value}"`);
const isPunct = (t: Token, p: string) => t.kind === 'punct' && t.value === p;

function expect(lx: Parser, p: string): Token {
  const t = lx.next();
  if (!isPunct(t, p)) lx.fail(t.pos, `expected "${p}" but found ${describe(t)}`);
  return t;
}

function parseConditional(lx: Parser): Ast {
  return within(lx, () => {
    descend(lx, lx.peek().pos);
    const test = parseBinary(lx, 0);
    if (!isPunct(lx.peek(), '?')) return test;
    lx.next();
    const then = parseConditional(lx);
    expect(lx, ':');
    return { type: 'conditional', test, then, else: parseConditional(lx) };
  });
}

function parseBinary(lx: Parser, level: number): Ast {
  if (level === LEVELS.length) return parseUnary(lx);
  let left = parseBinary(lx, level + 1);
  // Each operator of a chain (`a + b + c`) puts the tree so far one level down.
  return within(lx, () => {
    for (;;) {
      const t = lx.peek();
      if (t.kind !== 'punct' || !LEVELS[level].includes(t.value as string)) return left;
      lx.next();
      descend(lx, t.pos);
      const right = parseBinary(lx, level + 1);
      const op = t.value as string;
      left = op === '&&' || op === '||' || op === '??' ? { type: 'logical', op, left, right } : { type: 'binary', op: op as BinaryOp, left, right };
    }
  });
}

function parseUnary(lx: Parser): Ast {
  const t = lx.peek();
  if (isPunct(t, '!') || isPunct(t, '-')) {
    lx.next();
    return within(lx, () => {
      descend(lx, t.pos);
      return { type: 'unary', op: t.value as '!' | '-', arg: parseUnary(lx) };
    });
  }
  return parsePostfix(lx, parsePrimary(lx));
}

function parsePrimary(lx: Parser): Ast {
  const t = lx.next();
  if (t.kind === 'number' || t.kind === 'string') return { type: 'literal', value: t.value };
  if (isPunct(t, '(')) {
    const inner = parseConditional(lx);
    expect(lx, ')');
    return inner;
  }
  if (t.kind !== 'name') return lx.fail(t.pos, `unexpected ${describe(t)}`);
  const name = t.value as string;
  if (Object.hasOwn(LITERALS, name)) return { type: 'literal', value: LITERALS[name] };
  if (isPunct(lx.peek(), '(')) {
    if (!Object.hasOwn(FUNCTIONS, name)) lx.fail(t.pos, `unknown function "${name}" (known: ${Object.keys(FUNCTIONS).join(', ')})`);
    lx.next();
    const args: Ast[] = [];
    if (!isPunct(lx.peek(), ')')) {
      args.push(parseConditional(lx));
      while (isPunct(lx.peek(), ',')) {
        lx.next();
        args.push(parseConditional(lx));
      }
    }
    expect(lx, ')');
    const fn = FUNCTIONS[name as keyof typeof FUNCTIONS];
    if (args.length < fn.min || args.length > fn.max) {
      lx.fail(t.pos, `${name}() takes ${fn.min === fn.max ? fn.min : `${fn.min} to ${fn.max}`} argument${fn.max === 1 ? '' : 's'}, got ${args.length}`);
    }
    return { type: 'call', name: name as keyof typeof FUNCTIONS, args };
  }
  if (!(ROOTS as readonly string[]).includes(name)) {
    lx.fail(t.pos, `unknown name "${name}" (an expression starts with ${ROOTS.join(', ')})`);
  }
  return { type: 'root', name: name as RootName };
}

function checkKey(lx: Parser, key: string, pos: number): void {
  if (FORBIDDEN_KEYS.has(key)) lx.fail(pos, `"${key}" is not accessible`);
}

function parsePostfix(lx: Parser, object: Ast): Ast {
  return within(lx, () => postfixChain(lx, object));
}

function postfixChain(lx: Parser, object: Ast): Ast {
  for (;;) {
    const t = lx.peek();
    if (isPunct(t, '.') || isPunct(t, '[')) descend(lx, t.pos);
    if (isPunct(t, '.')) {
      lx.next();
      // Node ids hold a dash (`$node.set-1.data`); elsewhere a dash after a name is subtraction.
      const isNodeRoot = object.type === 'root' && object.name === '$node';
      const name = isNodeRoot ? lx.nodeId() : lx.next();
      if (name.kind !== 'name') lx.fail(name.pos, `expected a name after "." but found ${describe(name)}`);
      checkKey(lx, name.value as string, name.pos);
      object = { type: 'member', object, key: name.value as string };
    } else if (isPunct(t, '[')) {
      lx.next();
      const key = parseConditional(lx);
      expect(lx, ']');
      if (key.type === 'literal') {
        if (typeof key.value !== 'string' && typeof key.value !== 'number') lx.fail(t.pos, 'a [key] must be a string or a number');
        if (typeof key.value === 'string') checkKey(lx, key.value, t.pos + 1);
        object = { type: 'member', object, key: key.value as string | number };
      } else object = { type: 'index', object, key };
    } else if (isPunct(t, '(')) {
      return lx.fail(t.pos, 'calling a value is not allowed (only json, lower, upper, length, trim, string, number)');
    } else return object;
  }
}
