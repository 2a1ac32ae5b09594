import { WeirError } from '../errors.js';
import { isObject } from './json.js';
import { didYouMean, nearest } from './nearest.js';

/**
 * The part of JSON Schema (draft 2020-12) weir's own schemas use: `type`, `properties`,
 * `additionalProperties`, `required`, `enum`, `const`, `items`, `minimum`, `maximum`, `pattern`, `anyOf`, `oneOf` and `$ref`
 * to `#/$defs/<name>`.
 * Other keywords (`description`, `title`, ...) are annotations and change nothing.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  /** Exactly one branch must match; a branch whose `const` fails is not the one meant (a node of another `type`). */
  oneOf?: JsonSchema[];
  /** What the value means, for people (editors, `weir nodes <type>`); never checked. */
  description?: string;
  [annotation: string]: unknown;
}

/** Options of {@link validateSchema} for documents checked before all their values are known (flow node configs). */
export interface SchemaOptions {
  /**
   * True for a value known only later (in a flow node's config, a `{{ }}` template string, resolved when the
   * node runs): it may stand for a value of any type, so it passes every check at its place. This is the one
   * place where a template is let through a schema.
   */
  deferred?: (value: unknown) => boolean;
  /** The message of an unknown key, given the keys allowed beside it (default: `unknown key (did you mean "x"?)`). */
  unknownKey?: (key: string, known: string[]) => string;
}

/** One mismatch: where (`storage.cloud.driver`, `network.deny[0]`; empty for the document itself) and what. */
export interface SchemaProblem {
  path: string;
  message: string;
}

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;

const matches = (value: unknown, type: string): boolean => {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
};

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Every way `value` departs from `schema` (empty when it conforms), all of them rather than the first, so one
 * round of fixes is enough. Unknown keys get a "did you mean" when a known key is one typo away.
 * @example
 * validateSchema({ publicURL: 'x' }, configSchema) // [{ path: 'publicURL', message: 'unknown key (did you mean "publicUrl"?)' }]
 * validateSchema({ ms: '{{ $input.ms }}' }, delaySchema, { deferred: isTemplate }) // []
 */
export function validateSchema(value: unknown, schema: JsonSchema, { deferred, unknownKey = typoHint }: SchemaOptions = {}): SchemaProblem[] {
  // A failed `const` tells a oneOf that its branch is not the one meant.
  const constFailures = new WeakSet<SchemaProblem>();
  const visit = (v: unknown, s: JsonSchema, path: string, out: SchemaProblem[]): void => {
    if (s.$ref) return visit(v, resolveRef(schema, s.$ref), path, out);
    if (deferred?.(v)) return;
    const add = (message: string): void => void out.push({ path, message });
    const types = s.type === undefined ? [] : [s.type].flat();
    if (types.length && !types.some((t) => matches(v, t))) return add(`must be ${types.map(article).join(' or ')}, got ${describe(v)}`);
    if (s.enum && !s.enum.some((e) => e === v)) return add(`must be one of ${s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join(', ')}, got ${describe(v)}`);
    if (s.const !== undefined && v !== s.const) {
      const problem = { path, message: `must be ${JSON.stringify(s.const)}, got ${describe(v)}` };
      constFailures.add(problem);
      return void out.push(problem);
    }
    if (s.anyOf) {
      const tried = s.anyOf.map((branch) => branchProblems(v, branch, path));
      if (!tried.some((p) => !p.length)) out.push(...tried[0]);
    }
    if (s.oneOf) oneOfProblems(v, s.oneOf, path, out);
    if (typeof v === 'number' && s.minimum !== undefined && v < s.minimum) add(`must be ${s.minimum} or more, got ${v}`);
    if (typeof v === 'number' && s.maximum !== undefined && v > s.maximum) add(`must be ${s.maximum} or less, got ${v}`);
    if (typeof v === 'string' && s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(v)) add(`${JSON.stringify(v)} does not match ${s.pattern}`);
    if (Array.isArray(v) && s.items) v.forEach((item, i) => visit(item, s.items!, `${path}[${i}]`, out));
    if (!isObject(v)) return;
    for (const key of s.required ?? []) if (!(key in v)) out.push({ path: join(path, key), message: 'is required' });
    const known = s.properties ?? {};
    for (const [key, item] of Object.entries(v)) {
      if (Object.hasOwn(known, key)) visit(item, known[key], join(path, key), out);
      else if (s.additionalProperties === false) out.push({ path: join(path, key), message: unknownKey(key, Object.keys(known)) });
      else if (isObject(s.additionalProperties)) visit(item, s.additionalProperties, join(path, key), out);
    }
  };
  const branchProblems = (v: unknown, branch: JsonSchema, path: string): SchemaProblem[] => {
    const out: SchemaProblem[] = [];
    visit(v, branch, path, out);
    return out;
  };
  const oneOfProblems = (v: unknown, branches: JsonSchema[], path: string, out: SchemaProblem[]): void => {
    const tried = branches.map((branch) => branchProblems(v, branch, path));
    const passing = tried.filter((p) => !p.length).length;
    if (passing === 1) return;
    if (passing > 1) return void out.push({ path, message: `matches ${passing} of its allowed shapes, not exactly one` });
    // The branches whose constants hold are the ones meant: with one left, its problems are the value's.
    const meant = tried.filter((p) => !p.some((problem) => constFailures.has(problem)));
    if (meant.length === 1) return void out.push(...meant[0]);
    // No branch meant, each for a constant of the same key (a node's unknown `type`): name the nearest constant.
    const misses = tried.flatMap((p) => p.filter((problem) => constFailures.has(problem)));
    const key = misses[0]?.path.slice(path ? path.length + 1 : 0);
    if (!meant.length && isObject(v) && key && misses.every((m) => m.path === join(path, key))) {
      const allowed = branches.map((branch) => (branch.$ref ? resolveRef(schema, branch.$ref) : branch).properties?.[key]?.const).filter((c): c is string => typeof c === 'string');
      return void out.push({ path: join(path, key), message: `unknown value ${describe(v[key])}${didYouMean(String(v[key]), allowed)}` });
    }
    out.push({ path, message: `matches none of its ${branches.length} allowed shapes` });
  };
  return branchProblems(value, schema, '');
}

function typoHint(key: string, known: string[]): string {
  const guess = nearest(key, known);
  return `unknown key${guess ? ` (did you mean "${guess}"?)` : ''}`;
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema {
  const name = /^#\/\$defs\/([^/]+)$/.exec(ref)?.[1];
  const target = name === undefined ? undefined : root.$defs?.[name];
  // The schemas ship with weir, so a dangling reference is a bug in them, not in the user's file.
  if (!target) throw new WeirError('INTERNAL', `schema reference ${ref} is not a #/$defs entry`);
  return target;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function describe(v: unknown): string {
  const type = typeOf(v);
  if (type === 'array' || type === 'object') return article(type);
  const text = JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
