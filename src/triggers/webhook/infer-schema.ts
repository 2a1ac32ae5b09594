type Schema = Record<string, unknown>;

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;

/**
 * A JSON Schema (draft 2020-12) describing one sample value: object properties (all present ones
 * required), array items merged over every element, and the primitive types.
 * @example
 * inferSchema({ a: 1, list: [{ name: 'x' }] })
 * // { type: 'object', properties: { a: { type: 'integer' }, list: { type: 'array', items: {...} } }, required: ['a', 'list'] }
 */
export function inferSchema(value: unknown, root = true): Schema {
  const head = root ? { $schema: 'https://json-schema.org/draft/2020-12/schema' } : {};
  const type = typeOf(value);
  if (type === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    return { ...head, type, properties: Object.fromEntries(keys.map((k) => [k, inferSchema(obj[k], false)])), required: keys };
  }
  if (type === 'array') {
    const items = (value as unknown[]).map((v) => inferSchema(v, false));
    return { ...head, type, ...(items.length ? { items: items.reduce(merge) } : {}) };
  }
  return { ...head, type };
}

/** The schema of values of either shape (array elements of different shapes). */
function merge(a: Schema, b: Schema): Schema {
  if (a.type !== b.type) {
    const types = [...new Set([a.type, b.type].flat())];
    return types.length === 2 && types.includes('integer') && types.includes('number') ? { type: 'number' } : { type: types };
  }
  if (a.type === 'object') {
    const pa = a.properties as Record<string, Schema>;
    const pb = b.properties as Record<string, Schema>;
    const properties: Record<string, Schema> = { ...pa };
    for (const [k, s] of Object.entries(pb)) properties[k] = pa[k] ? merge(pa[k], s) : s;
    const required = (a.required as string[]).filter((k) => (b.required as string[]).includes(k));
    return { type: 'object', properties, required };
  }
  if (a.type === 'array' && a.items && b.items) return { type: 'array', items: merge(a.items as Schema, b.items as Schema) };
  return a.type === 'array' ? { type: 'array', ...((a.items ?? b.items) ? { items: a.items ?? b.items } : {}) } : a;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const step = (key: string) => (IDENT.test(key) ? `.${key}` : `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`);

/**
 * The expression paths of every leaf of a sample, as a flow writes them: `body.a.b`,
 * `body.list[0].name`, `headers['x-custom']`, `method`. An empty object or array is a leaf itself.
 * @example
 * variablePaths({ body: { list: [{ name: 'x' }] }, method: 'POST' }) // ['body.list[0].name', 'method']
 */
export function variablePaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) {
    if (!value.length) return prefix ? [prefix] : [];
    return variablePaths(value[0], `${prefix}[0]`);
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (!keys.length) return prefix ? [prefix] : [];
    return keys.flatMap((k) => variablePaths((value as Record<string, unknown>)[k], prefix ? `${prefix}${step(k)}` : k));
  }
  return prefix ? [prefix] : [];
}
