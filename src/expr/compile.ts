import { FUNCTIONS } from './functions.js';
import type { Ast, BinaryOp, RootName } from './parse.js';
import { getDynamicKey, getKey, toNumber, toText } from './values.js';

/** What an expression can see: the trigger input, the output records of nodes that ran, `$env` and `$execution`. */
export interface Scope {
  input: unknown;
  node: Record<string, unknown>;
  env: Record<string, string | undefined>;
  /** `$execution`: `id`, and `resumeUrl` and `approvalUrl` where the executor offers them. */
  execution?: object;
  /** `$item` and `$index`: the item a foreach `map` is at, and its position. */
  item?: unknown;
  index?: number;
}

/** A compiled expression: a plain closure over the tree, built once per template. */
export type Evaluate = (scope: Scope) => unknown;

type Base = 'input' | 'node' | 'env' | 'execution' | 'item' | 'index';
const BASES: Record<RootName, { base: Base | 'now'; key?: string }> = {
  $input: { base: 'input' },
  $node: { base: 'node' },
  $env: { base: 'env' },
  $execution: { base: 'execution' },
  $now: { base: 'now' },
  body: { base: 'input', key: 'body' },
  headers: { base: 'input', key: 'headers' },
  query: { base: 'input', key: 'query' },
  method: { base: 'input', key: 'method' },
  $item: { base: 'item' },
  $index: { base: 'index' },
};

// Each root read by name: a named property load is inline-cached where `s[base]` (a key held in a variable)
// is a keyed load, which costs a foreach `map` over many items about a tenth of its time.
const READ: Record<Base, (s: Scope) => unknown> = {
  input: (s) => s.input,
  node: (s) => s.node,
  env: (s) => s.env,
  execution: (s) => s.execution,
  item: (s) => s.item,
  index: (s) => s.index,
};

/** A root followed by fixed keys (`$input.a.b`, `body.list[0]`) compiles to one closure: the common case. */
function compilePath(base: Base, keys: Array<string | number>): Evaluate {
  const [k0, k1, k2] = keys;
  const root = READ[base];
  switch (keys.length) {
    case 0:
      return root;
    case 1:
      return (s) => getKey(root(s), k0);
    case 2:
      return (s) => getKey(getKey(root(s), k0), k1);
    case 3:
      return (s) => getKey(getKey(getKey(root(s), k0), k1), k2);
    default:
      return (s) => {
        let v: unknown = root(s);
        for (let i = 0; i < keys.length && v !== undefined; i++) v = getKey(v, keys[i]);
        return v;
      };
  }
}

/** `{root}.k1.k2...` with only fixed keys, as the root and the keys; null for anything else. */
function staticPath(ast: Ast): { root: RootName; keys: Array<string | number> } | null {
  const keys: Array<string | number> = [];
  let node = ast;
  while (node.type === 'member') {
    keys.unshift(node.key);
    node = node.object;
  }
  return node.type === 'root' ? { root: node.name, keys } : null;
}

const compare = (op: BinaryOp, a: unknown, b: unknown): boolean => {
  // Strings compare as text, everything else as numbers; objects never compare (no implicit calls).
  const [x, y] = typeof a === 'string' && typeof b === 'string' ? [a, b] : [toNumber(a), toNumber(b)];
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
};

function binary(op: BinaryOp, a: unknown, b: unknown): unknown {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '+':
      if (typeof a === 'number' && typeof b === 'number') return a + b;
      if (typeof a === 'string' || typeof b === 'string') return toText(a) + toText(b);
      return toNumber(a) + toNumber(b);
    case '-':
      return toNumber(a) - toNumber(b);
    case '*':
      return toNumber(a) * toNumber(b);
    case '/':
      return toNumber(a) / toNumber(b);
    case '%':
      return toNumber(a) % toNumber(b);
    default:
      return compare(op, a, b);
  }
}

/**
 * Turns a parsed expression into a closure. No `eval`/`Function`: every operation is one of the fixed
 * closures below, and member access goes through {@link getKey}.
 */
export function compile(ast: Ast): Evaluate {
  const path = staticPath(ast);
  if (path) {
    const { base, key } = BASES[path.root];
    if (base === 'now') return () => path.keys.reduce<unknown>((v, k) => getKey(v, k), new Date().toISOString());
    // `$execution` is the executor's own object, whose resume and approval URLs are made on first read
    // (accessors of its class, so no closure is made per run): the inherited properties an expression may read.
    if (base === 'execution' && (path.keys[0] === 'resumeUrl' || path.keys[0] === 'approvalUrl')) {
      const [name, ...rest] = path.keys as ['resumeUrl' | 'approvalUrl', ...Array<string | number>];
      return (s) => rest.reduce<unknown>((v, k) => getKey(v, k), (s.execution as { resumeUrl?: string; approvalUrl?: string } | undefined)?.[name]);
    }
    // Whole, it is a copy of its own properties (the id): no URL is made, no object of the executor's leaks.
    if (base === 'execution' && !path.keys.length) return (s) => (s.execution === undefined ? undefined : { ...s.execution });
    return compilePath(base, key ? [key, ...path.keys] : path.keys);
  }
  switch (ast.type) {
    case 'literal': {
      const value = ast.value;
      return () => value;
    }
    case 'member': {
      const object = compile(ast.object);
      const key = ast.key;
      return (s) => getKey(object(s), key);
    }
    case 'index': {
      const object = compile(ast.object);
      const key = compile(ast.key);
      return (s) => getDynamicKey(object(s), key(s));
    }
    case 'unary': {
      const arg = compile(ast.arg);
      return ast.op === '!' ? (s) => !arg(s) : (s) => -toNumber(arg(s));
    }
    case 'binary': {
      const [left, right, op] = [compile(ast.left), compile(ast.right), ast.op];
      return (s) => binary(op, left(s), right(s));
    }
    case 'logical': {
      const [left, right] = [compile(ast.left), compile(ast.right)];
      if (ast.op === '&&') return (s) => left(s) && right(s);
      if (ast.op === '||') return (s) => left(s) || right(s);
      return (s) => left(s) ?? right(s);
    }
    case 'conditional': {
      const [test, then, otherwise] = [compile(ast.test), compile(ast.then), compile(ast.else)];
      return (s) => (test(s) ? then(s) : otherwise(s));
    }
    case 'call': {
      const fn = FUNCTIONS[ast.name].fn as (...args: unknown[]) => unknown;
      const args = ast.args.map(compile);
      return (s) => fn(...args.map((a) => a(s)));
    }
    default:
      throw new Error(`unreachable: ${(ast as Ast).type}`);
  }
}
