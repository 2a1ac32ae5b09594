import { SETTINGS_SCHEMA } from '../flow/settings.js';
import { POLICY_PROPERTIES } from '../flow/policy.js';
import type { JsonSchema } from '../util/json-schema.js';
import type { NodeDefinition } from './define.js';
import type { NodeRegistry } from './index.js';

/**
 * The config schema save checks a node of this type against: its own keys, then the options every node
 * takes (`retry`, `timeoutMs`, `onError`) unless the type words one itself; null for a type without a schema.
 * @example
 * nodeConfigSchema(delayNode).properties // { ms, retry, timeoutMs, onError }
 */
export function nodeConfigSchema(def: NodeDefinition<any>): JsonSchema | null {
  if (!def.config) return null;
  const own = def.config.properties ?? {};
  // The type's own keys first: they are what an unknown key is most likely meant to be.
  const policy = Object.entries(POLICY_PROPERTIES).filter(([key]) => !Object.hasOwn(own, key));
  return { ...def.config, properties: { ...own, ...Object.fromEntries(policy) } };
}

/** A `{{ }}` template: in a flow file it may stand for a value of any type, known when the node runs. */
const TEMPLATE: JsonSchema = { type: 'string', pattern: '\\{\\{', description: 'A {{ }} expression, resolved when the node runs' };

/** A non-trigger node's key that is not a string also takes a template (a trigger's config is read as written). */
function templatable(property: JsonSchema): JsonSchema {
  const types = property.type === undefined ? [] : [property.type].flat();
  if (!types.length && !property.enum) return property;
  if (types.length === 1 && types[0] === 'string') return property;
  const { description, ...rest } = property;
  return { ...(description === undefined ? {} : { description }), anyOf: [rest, { $ref: '#/$defs/template' }] };
}

/** One `oneOf` branch of the node schema: the node keys, `type` fixed, `config` that type's schema. */
function nodeBranch(def: NodeDefinition<any>): JsonSchema {
  const schema = nodeConfigSchema(def) ?? { type: 'object' };
  const config = def.trigger ? schema : { ...schema, properties: Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, p]) => [k, templatable(p)])) };
  return {
    type: 'object',
    required: ['id', 'type'],
    properties: {
      id: { $ref: '#/$defs/nodeId' },
      type: { const: def.type, ...(def.docs ? { description: def.docs.summary } : {}) },
      label: { type: 'string', description: 'A name for people; the id stays the reference' },
      position: { $ref: '#/$defs/position' },
      config: def.docs ? { ...config, examples: [def.docs.example] } : config,
    },
    additionalProperties: false,
  };
}

/**
 * The JSON schema of a flow file (schema/workflow.schema.json) made from the node registry: one `oneOf`
 * branch per node type, so an editor checks each node's config against its own type's keys.
 * `npm run generate` writes it; a test fails when the file differs.
 * @example
 * writeFileSync('schema/workflow.schema.json', JSON.stringify(workflowSchema(createNodeRegistry()), null, 2) + '\n')
 */
export function workflowSchema(registry: Pick<NodeRegistry, 'values'>): JsonSchema {
  const defs = [...registry.values()];
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://weir.dev/schema/workflow.schema.json',
    title: 'weir workflow configuration',
    description: 'The file accepted by `weir workflows save <id> <file>`. Exactly one node must be a trigger. Generated from the node registry by `npm run generate`: do not edit.',
    type: 'object',
    required: ['nodes', 'edges'],
    properties: {
      nodes: { type: 'array', items: { $ref: '#/$defs/node' } },
      edges: { type: 'array', items: { $ref: '#/$defs/edge' } },
      variables: { type: 'object' },
      metadata: { type: 'object', properties: { description: { type: 'string' } } },
      settings: SETTINGS_SCHEMA,
    },
    $defs: {
      node: { oneOf: defs.map((def) => ({ $ref: `#/$defs/node-${def.type}` })) },
      ...Object.fromEntries(defs.map((def) => [`node-${def.type}`, nodeBranch(def)])),
      nodeId: { type: 'string', pattern: '^[a-z][a-z0-9_]*-[0-9]+$', description: '<type>-<number>, e.g. set-1' },
      position: {
        type: 'object',
        description: 'Where the Studio draws the node; the runtime ignores it',
        required: ['x', 'y'],
        properties: { x: { type: 'number' }, y: { type: 'number' } },
        additionalProperties: false,
      },
      template: TEMPLATE,
      edge: {
        type: 'object',
        required: ['source', 'target'],
        properties: {
          id: { type: 'string' },
          source: { type: 'string', description: 'The id of the node the edge leaves' },
          target: { type: 'string', description: 'The id of the node the edge enters' },
          sourceHandle: { type: 'string', description: 'On a branching node: the handle the edge leaves by (`weir nodes <type>` lists them)' },
        },
      },
    },
  };
}
