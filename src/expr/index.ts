import { WeirError } from '../errors.js';
import type { Problem } from '../types/problem.js';
import type { Evaluate, Scope } from './compile.js';
import { compileTemplate } from './template.js';

export type { Evaluate, Scope } from './compile.js';
export { toText } from './values.js';

export interface ExpressionsOptions {
  /** Templates kept compiled (oldest dropped first). Default 10,000. */
  cacheSize?: number;
}

export type Expressions = ReturnType<typeof createExpressions>;

/**
 * The `{{ }}` expression engine of one weir instance: templates are parsed once and kept in a bounded cache
 * owned by this instance.
 * @example
 * const expr = createExpressions()
 * expr.evaluate('{{ $input.user.name }}', { input: { user: { name: 'Ada' } }, node: {}, env: {} }) // 'Ada'
 * expr.evaluate('Hello {{ upper(body.name) }}!', { input: { body: { name: 'ada' } }, node: {}, env: {} }) // 'Hello ADA!'
 */
export function createExpressions({ cacheSize = 10_000 }: ExpressionsOptions = {}) {
  const cache = new Map<string, Evaluate | null>();

  function template(text: string): Evaluate | null {
    let fn = cache.get(text);
    if (fn !== undefined) return fn;
    fn = compileTemplate(text);
    if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
    cache.set(text, fn);
    return fn;
  }

  /** A closure producing `value` with every template resolved; null when `value` holds no expression. */
  function compileValue(value: unknown, skipKeys?: readonly string[]): Evaluate | null {
    if (typeof value === 'string') return value.includes('{{') ? template(value) : null;
    if (Array.isArray(value)) {
      const items = value.map((v) => compileValue(v));
      if (items.every((f) => f === null)) return null;
      return (s) => value.map((v, i) => (items[i] ? items[i]!(s) : v));
    }
    if (value && typeof value === 'object') {
      const entries = Object.entries(value).map(([k, v]) => [k, skipKeys?.includes(k) ? null : compileValue(v)] as const);
      const dynamic = entries.filter(([, f]) => f !== null) as Array<readonly [string, Evaluate]>;
      if (dynamic.length === 0) return null;
      const keys = dynamic.map(([k]) => k);
      const fns = dynamic.map(([, f]) => f);
      // Every key dynamic (a foreach `map` mostly): built key by key, in order, so each object takes the same
      // hidden class and none is copied first. Otherwise constant keys are copied as they are.
      if (dynamic.length === entries.length && !keys.includes('__proto__')) return build(keys, fns);
      return (s) => {
        const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
        for (let i = 0; i < keys.length; i++) out[keys[i]] = fns[i](s);
        return out;
      };
    }
    return null;
  }

  /** Every template in `value` that does not parse, as problems under `path` (for save-time checks). */
  function problems(value: unknown, path: string, skipKeys?: readonly string[]): Problem[] {
    if (typeof value === 'string') {
      if (!value.includes('{{')) return [];
      try {
        template(value);
        return [];
      } catch (err) {
        if (err instanceof WeirError) return [{ path, message: err.message }];
        throw err;
      }
    }
    if (Array.isArray(value)) return value.flatMap((v, i) => problems(v, `${path}[${i}]`));
    if (value && typeof value === 'object') {
      return Object.entries(value).flatMap(([k, v]) => (skipKeys?.includes(k) ? [] : problems(v, path ? `${path}.${k}` : k)));
    }
    return [];
  }

  return {
    /** The compiled form of one template string (null when it holds no `{{`); cached. */
    template,
    compileValue,
    problems,
    /** Resolves the templates in a string, or returns it unchanged. */
    evaluate(text: string, scope: Scope): unknown {
      const fn = template(text);
      return fn ? fn(scope) : text;
    },
    /** `value` (any JSON) with every template resolved. */
    render(value: unknown, scope: Scope): unknown {
      const fn = compileValue(value);
      return fn ? fn(scope) : value;
    },
  };
}

/**
 * An object of `keys`, each the value of its closure. Up to four keys get a closure of their own, with one call
 * site and one store per key (each sees one closure and one name), where a loop's would see them all.
 */
function build(keys: string[], fns: Evaluate[]): Evaluate {
  const [k0, k1, k2, k3] = keys;
  const [f0, f1, f2, f3] = fns;
  switch (keys.length) {
    case 1:
      return (s) => {
        const o: Record<string, unknown> = {};
        o[k0] = f0(s);
        return o;
      };
    case 2:
      return (s) => {
        const o: Record<string, unknown> = {};
        o[k0] = f0(s);
        o[k1] = f1(s);
        return o;
      };
    case 3:
      return (s) => {
        const o: Record<string, unknown> = {};
        o[k0] = f0(s);
        o[k1] = f1(s);
        o[k2] = f2(s);
        return o;
      };
    case 4:
      return (s) => {
        const o: Record<string, unknown> = {};
        o[k0] = f0(s);
        o[k1] = f1(s);
        o[k2] = f2(s);
        o[k3] = f3(s);
        return o;
      };
    default:
      return (s) => {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < keys.length; i++) o[keys[i]] = fns[i](s);
        return o;
      };
  }
}
