import { WeirError } from '../errors.js';
import { isObject } from './json.js';
import { nearest } from './nearest.js';

/**
 * The part of JSON Schema (draft 2020-12) weir's own schemas use: `type`, `properties`,
 * `additionalProperties`, `required`, `enum`, `items`, `minimum`, `pattern` and `$ref` to `#/$defs/<name>`.
 * Other keywords (`description`, `title`, ...) are annotations and change nothing.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  minimum?: number;
  pattern?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
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
  const problems: SchemaProblem[] = [];
  const visit = (v: unknown, s: JsonSchema, path: string): void => {
    if (s.$ref) return visit(v, resolveRef(schema, s.$ref), path);
    if (deferred?.(v)) return;
    const add = (message: string): void => void problems.push({ path, message });
    const types = s.type === undefined ? [] : [s.type].flat();
    if (types.length && !types.some((t) => matches(v, t))) return add(`must be ${types.map(article).join(' or ')}, got ${describe(v)}`);
    if (s.enum && !s.enum.some((e) => e === v)) return add(`must be one of ${s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join(', ')}, got ${describe(v)}`);
    if (typeof v === 'number' && s.minimum !== undefined && v < s.minimum) add(`must be ${s.minimum} or more, got ${v}`);
    if (typeof v === 'string' && s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(v)) add(`${JSON.stringify(v)} does not match ${s.pattern}`);
    if (Array.isArray(v) && s.items) v.forEach((item, i) => visit(item, s.items!, `${path}[${i}]`));
    if (!isObject(v)) return;
    for (const key of s.required ?? []) if (!(key in v)) problems.push({ path: join(path, key), message: 'is required' });
    const known = s.properties ?? {};
    for (const [key, item] of Object.entries(v)) {
      if (Object.hasOwn(known, key)) visit(item, known[key], join(path, key));
      else if (s.additionalProperties === false) problems.push({ path: join(path, key), message: unknownKey(key, Object.keys(known)) });
      else if (isObject(s.additionalProperties)) visit(item, s.additionalProperties, join(path, key));
    }
  };
  visit(value, schema, '');
  return problems;
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
