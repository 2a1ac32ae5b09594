// Generators of flow configs for property 2 of issue #34: valid flows built from the node registry (each
// type's `config` JSON schema and its `docs.example`), wild documents, and valid flows broken at one place.
import fc from 'fast-check';
import { handlesOf } from '../../src/nodes/define.js';
import type { NodeDefinition, NodeRegistry } from '../../src/nodes/index.js';
import type { JsonSchema } from '../../src/util/json-schema.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A string that holds no `{{ }}`: free text must not read as an expression by accident. */
const text = fc.string({ maxLength: 12 }).map((s) => s.replace(/[{}]/g, '_'));
const template = fc.constantFrom('{{ $input.a }}', 'hi {{ $input.name }}', '{{ $node.set-1.data }}', '{{ $now }}', '{{ $input.n > 2 ? "big" : "small" }}');
/** Any JSON whose strings are text or whole valid expressions. */
export const safeJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    text,
    template,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Values that break configs at their seams: wrong types, edges of ranges, broken and hostile expressions. */
export const wild: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom<unknown>(null, 0, -1, 0.5, 1e308, -1e308, '', ' ', true, false, [], {}, [null], { __proto__: null }, 'x'.repeat(5000)),
  fc.constantFrom('{{', '}}', '{{ }}', '{{ $input.a', '{{ constructor }}', '{{ $input.__proto__ }}', '{{ a( }}', '{{ 1 + }}', '{{ $node.nope.data }}', '{{{{ x }}}}', '\u0000', '\ud800'),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
);

const inputParams = fc.array(fc.record({ name: fc.constantFrom('a', 'b', 'name'), type: fc.constantFrom('string', 'number', 'boolean', 'object', 'array'), required: fc.boolean() }, { requiredKeys: ['name', 'type'] }), { maxLength: 3 });

/** Valid values of the config keys that a schema does not pin down (a URL, a table name, a duration). */
const CONSTRAINED: Record<string, Record<string, fc.Arbitrary<unknown>>> = {
  schedule_trigger: {},
  inbound_call_trigger: { phoneNumberId: fc.constantFrom('+15551234567', 'PN123'), agentId: fc.constantFrom('agent_1') },
  sms_received_trigger: { phoneNumber: fc.constantFrom('+15551234567', '+447700900123') },
  webhook_trigger: { idempotencyHeader: fc.constantFrom('Idempotency-Key', 'X-GitHub-Delivery'), responseTimeoutMs: fc.integer({ min: 1, max: 60_000 }), dedupeWindowMs: fc.integer({ min: 1, max: 86_400_000 }) },
  manual_trigger: { inputParams },
  interface_event_trigger: { inputParams },
  code: { code: fc.constantFrom('return 1', 'return { seen: $input }', 'const n = 2;\nreturn n * 3') },
  switch: {
    // Each case a handle of its own, the default another.
    cases: fc.uniqueArray(fc.constantFrom('a', 'b', 'order', 'refund'), { minLength: 1, maxLength: 4 }).chain((handles) =>
      fc.tuple(...handles.map((handle) => fc.constantFrom("{{ $input.type == 'order' }}", '{{ $input.amount > 100 }}', true, false).map((when) => ({ when, handle })))),
    ),
    default: fc.constantFrom('other', 'rest'),
  },
  condition: { rules: fc.constantFrom({ '==': [{ var: 'input.a' }, 1] }, { '>': [{ var: 'input.amount' }, 100] }, true, { and: [{ var: 'input.x' }, { '!': { var: 'input.y' } }] }) },
  respond: { status: fc.integer({ min: 100, max: 599 }) },
  http_request: { url: fc.constantFrom('https://api.example.com/x', 'http://127.0.0.1:9/y?q=1', '{{ $input.url }}'), method: fc.constantFrom('GET', 'post', 'DELETE', 'options'), secretHeaders: fc.array(fc.constantFrom('x-api-key', 'x-token'), { maxLength: 2 }) },
  wait: {},
  call_flow: { flow: fc.constantFrom('other-flow', 'wf_abc', '{{ $input.flow }}') },
  kv_get: { namespace: fc.constantFrom('sessions', 'ns'), key: fc.constantFrom('k', '{{ $input.id }}') },
  kv_set: { namespace: fc.constantFrom('sessions', 'ns'), key: fc.constantFrom('k', '{{ $input.id }}') },
  kv_delete: { namespace: fc.constantFrom('sessions', 'ns'), key: fc.constantFrom('k', '{{ $input.id }}') },
  table_query: { table: fc.constantFrom('user.orders'), sql: fc.constantFrom('SELECT * FROM "user.orders"', 'SELECT id FROM "user.orders" WHERE total > ?') },
  table_insert: { table: fc.constantFrom('user.orders', 'user.events') },
  storage_get: { key: fc.constantFrom('a.txt', 'invoices/2026/a.pdf', 'reports/{{ $execution.id }}.json') },
  storage_put: { key: fc.constantFrom('a.txt', 'invoices/2026/a.pdf'), contentType: fc.constantFrom('text/plain', 'application/pdf') },
  knowledge_search: { query: fc.constantFrom('refund policy', '{{ $input.q }}'), limit: fc.integer({ min: 1, max: 1000 }), folder: fc.constantFrom('docs') },
};

/** Configs of node types whose keys depend on each other (exactly one way to wait; the fields of a schedule kind). */
const WHOLE: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  wait: fc.oneof(
    fc.record({ for: fc.constantFrom('500ms', '30s', '5m', '2h', '7d') }),
    fc.record({ until: fc.constantFrom('2026-12-01T09:00:00Z', '{{ $input.when }}') }),
    fc.record({ webhook: fc.constant(true), timeout: fc.constantFrom('30s', '2d') }, { requiredKeys: ['webhook'] }),
  ),
  // A map, or a sub-flow with its options (those go with `flow` only).
  foreach: fc.oneof(
    fc.record({ items: fc.constantFrom('{{ $input.orders }}', '{{ $input.items }}'), map: fc.constantFrom({ id: '{{ $item.id }}' }, '{{ $index }}'), maxItems: fc.integer({ min: 1, max: 100_000 }) }, { requiredKeys: ['items', 'map'] }),
    fc.record(
      { items: fc.constantFrom('{{ $input.orders }}'), flow: fc.constantFrom('check-stock', 'wf_abc'), parallelism: fc.integer({ min: 1, max: 256 }), onItemError: fc.constantFrom('stop', 'continue'), batchSize: fc.integer({ min: 1, max: 100 }) },
      { requiredKeys: ['items', 'flow'] },
    ),
  ),
  // Tools listed once each, approvals of listed tools only, an output with its schema.
  agent: fc.uniqueArray(fc.constantFrom('order-status', 'refund-order', 'wf_abc'), { maxLength: 3 }).chain((tools) =>
    fc.record(
      {
        agent: fc.constantFrom('assistant', 'support'),
        prompt: fc.constantFrom('Where is order {{ $input.orderId }}?', '{{ $input.body.message }}'),
        tools: fc.constant(tools),
        knowledge: fc.boolean(),
        maxSteps: fc.integer({ min: 1, max: 100 }),
        model: fc.constantFrom('gpt-4o-mini', 'claude-sonnet-4-5'),
        output: fc.constantFrom({ schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] } }),
        approve: fc.oneof(fc.boolean(), fc.subarray(tools)),
      },
      // `tools` always: an `approve` list names some of them.
      { requiredKeys: ['agent', 'prompt', 'tools'] },
    ),
  ),
  schedule_trigger: fc.oneof(
    fc.record({ scheduleType: fc.constant('interval'), intervalValue: fc.integer({ min: 1, max: 100 }), intervalUnit: fc.constantFrom('minutes', 'hours', 'days') }),
    fc.record({ scheduleType: fc.constant('cron'), cronExpression: fc.constantFrom('*/5 * * * *', '0,30 9-17 * * mon-fri', '0 0 1 1 *') }),
    fc.record({ scheduleType: fc.constant('daily'), dailyTime: fc.constantFrom('00:00', '09:30', '23:59'), timezone: fc.constantFrom('UTC', 'Europe/Paris') }, { requiredKeys: ['scheduleType', 'dailyTime'] }),
    fc.record({ scheduleType: fc.constant('weekly'), weeklyDay: fc.integer({ min: 0, max: 6 }), dailyTime: fc.constantFrom('08:00') }, { requiredKeys: ['scheduleType', 'weeklyDay'] }),
  ),
};

/** A valid value of a schema property no table above constrains: from its type, enum, minimum and maximum. */
function fromSchema(schema: JsonSchema): fc.Arbitrary<unknown> | null {
  const s = schema as { type?: string | string[]; enum?: unknown[]; minimum?: number; maximum?: number; items?: JsonSchema; pattern?: string };
  if (s.enum) return fc.constantFrom(...s.enum);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === undefined) return safeJson;
  if (type === 'boolean') return fc.boolean();
  if (type === 'object') return fc.dictionary(text, safeJson, { maxKeys: 4 });
  if (type === 'array') return s.items && (s.items as { type?: string }).type === 'string' ? fc.array(text.filter(Boolean), { maxLength: 3 }) : fc.array(safeJson, { maxLength: 3 });
  if (type === 'integer' || type === 'number') return fc.integer({ min: Math.max(1, s.minimum ?? 1), max: s.maximum ?? 100_000 });
  return null; // a free string: only the example's or a constrained value is known to be valid
}

/** The options every node takes, valid. */
const policy = fc.record({ retry: fc.record({ max: fc.nat(5), backoffMs: fc.nat(2000) }, { requiredKeys: ['max'] }), timeoutMs: fc.integer({ min: 1, max: 60_000 }), onError: fc.constantFrom('stop', 'continue') }, { requiredKeys: [] });

/**
 * A valid config of a node type: its whole-config generator, or its example with each other key of its schema
 * present or not, valued from its schema or the constrained table; plus, at times, the options every node takes.
 */
export function validConfig(def: NodeDefinition<any>): fc.Arbitrary<Record<string, unknown>> {
  const props = ((def.config as { properties?: Record<string, JsonSchema> } | undefined)?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(((def.config as { required?: string[] } | undefined)?.required ?? []) as string[]);
  const example = (def.docs?.example ?? {}) as Record<string, unknown>;
  const own = WHOLE[def.type] ?? fc.tuple(...Object.entries(props).map(([key, schema]) => {
    const valued = CONSTRAINED[def.type]?.[key] ?? fromSchema(schema);
    const known = key in example ? fc.constant(example[key]) : null;
    const options = [known, valued].filter((a): a is fc.Arbitrary<unknown> => a !== null);
    if (!options.length) return fc.constant([key, undefined] as const);
    const value = fc.oneof(...options);
    return (required.has(key) || key in example ? value : fc.option(value, { nil: undefined })).map((v) => [key, v] as const);
  })).map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined)));
  const withPolicy = def.trigger || def.ownsTimeout || 'timeoutMs' in props ? fc.record({ onError: fc.constantFrom('stop', 'continue') }, { requiredKeys: [] }) : policy;
  return fc.tuple(own, fc.option(withPolicy, { nil: undefined })).map(([c, p]) => ({ ...c, ...p }));
}

/** A generated valid flow: one trigger, then nodes whose edges come only from earlier nodes (a DAG). */
export function validFlow(nodes: NodeRegistry, { maxNodes = 8 } = {}): fc.Arbitrary<{ nodes: unknown[]; edges: unknown[]; variables: Record<string, unknown>; metadata: Record<string, unknown> }> {
  const all = [...nodes.values()];
  const triggers = all.filter((d) => d.trigger);
  const others = all.filter((d) => !d.trigger);
  const trigger = fc.constantFrom(...triggers).chain((def) => validConfig(def).map((config) => ({ def, config })));
  const node = fc.constantFrom(...others).chain((def) => validConfig(def).map((config) => ({ def, config })));
  const links = fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 });
  return fc
    .tuple(trigger, fc.array(fc.tuple(node, links, fc.option(fc.record({ x: fc.integer(), y: fc.integer() }), { nil: undefined })), { minLength: 1, maxLength: maxNodes }), fc.dictionary(text, safeJson, { maxKeys: 2 }))
    .map(([first, rest, variables]) => {
      const list = [first, ...rest.map(([n]) => n)];
      const ids = list.map((n, i) => `${n.def.type}-${i + 1}`);
      const edges: Array<Record<string, string>> = [];
      const seen = new Set<string>();
      rest.forEach(([, sources], k) => {
        const target = k + 1;
        // Every node but the trigger has at least one edge in, from an earlier node, by each handle it may take.
        for (const [s, h] of sources.length ? sources : [[0, 0]]) {
          const source = s % target;
          const handles = handlesOf(list[source].def, list[source].config);
          const handle = handles?.length ? handles[h % handles.length] : undefined;
          const key = `${source} ${target} ${handle}`;
          if (seen.has(key)) continue;
          seen.add(key);
          edges.push({ id: `e${edges.length + 1}`, source: ids[source], target: ids[target], ...(handle ? { sourceHandle: handle } : {}) });
        }
      });
      const flowNodes = list.map((n, i) => ({ id: ids[i], type: n.def.type, config: n.config, ...(i > 0 && rest[i - 1][2] ? { position: rest[i - 1][2] } : {}) }));
      return { nodes: flowNodes, edges, variables, metadata: {} };
    });
}

/** Every path into a JSON document (as key lists), the document itself first. */
function pathsOf(doc: unknown, at: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  out.push(at);
  if (Array.isArray(doc)) doc.forEach((v, i) => pathsOf(v, [...at, i], out));
  else if (doc && typeof doc === 'object') for (const [k, v] of Object.entries(doc)) pathsOf(v, [...at, k], out);
  return out;
}

/** A copy of `doc` with one place replaced by `value`, removed, or given an extra key. */
function mutate(doc: unknown, pick: number, action: 'set' | 'delete' | 'add', value: unknown, key: string): unknown {
  const copy = JSON.parse(JSON.stringify(doc));
  const paths = pathsOf(copy);
  const path = paths[pick % paths.length];
  if (path.length === 0) return action === 'set' ? value : copy;
  const parent = path.slice(0, -1).reduce((o: any, k) => o[k], copy);
  const last = path[path.length - 1];
  // Keys are defined, not assigned: `__proto__` is then an own key, as JSON.parse makes it.
  const put = (o: any, k: string | number, v: unknown) => (Array.isArray(o) ? (o[Number(k)] = v) : Object.defineProperty(o, k, { value: v, enumerable: true, configurable: true, writable: true }));
  if (action === 'delete') Array.isArray(parent) ? parent.splice(Number(last), 1) : delete parent[last];
  else if (action === 'add' && parent[last] && typeof parent[last] === 'object' && !Array.isArray(parent[last])) put(parent[last], key, value);
  else put(parent, last, value);
  return copy;
}

/** Any JSON document: wild values, shapes of a flow with wild parts, and valid flows broken in one to three places. */
export function anyDocument(nodes: NodeRegistry): fc.Arbitrary<unknown> {
  const types = [...nodes.keys()];
  const typeName = fc.oneof(fc.constantFrom(...types), text, wild);
  const wildNode = fc.record({ id: fc.oneof(fc.tuple(fc.constantFrom(...types), fc.nat(3)).map(([t, n]) => `${t}-${n}`), wild), type: typeName, config: fc.oneof(fc.dictionary(fc.oneof(text, fc.constantFrom('retry', 'timeoutMs', 'onError', 'values', 'rules', 'url', 'key', 'status', 'for', 'until', 'webhook', '__proto__')), wild, { maxKeys: 4 }), wild) }, { requiredKeys: [] });
  const wildEdge = fc.record({ id: wild, source: fc.oneof(fc.constantFrom('manual_trigger-1', 'set-1', 'condition-2'), wild), target: fc.oneof(fc.constantFrom('set-1', 'condition-2', 'manual_trigger-1'), wild), sourceHandle: fc.oneof(fc.constantFrom('true', 'false'), wild) }, { requiredKeys: [] });
  const shaped = fc.record({ nodes: fc.oneof(fc.array(wildNode, { maxLength: 5 }), wild), edges: fc.oneof(fc.array(wildEdge, { maxLength: 5 }), wild), variables: wild, metadata: wild, settings: wild }, { requiredKeys: [] });
  const change = fc.tuple(fc.nat(), fc.constantFrom<'set' | 'delete' | 'add'>('set', 'set', 'delete', 'add'), wild, fc.oneof(text, fc.constantFrom('__proto__', 'constructor', 'retry')));
  const broken = fc.tuple(validFlow(nodes, { maxNodes: 5 }), fc.array(change, { minLength: 1, maxLength: 3 })).map(([doc, changes]) => changes.reduce((d, [pick, action, value, key]) => mutate(d, pick, action, value, key), doc as unknown));
  return fc.oneof({ arbitrary: wild, weight: 1 }, { arbitrary: shaped, weight: 3 }, { arbitrary: broken, weight: 6 });
}
