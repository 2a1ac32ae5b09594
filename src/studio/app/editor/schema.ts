// The JSON schemas of node configs (GET /node-types), read to draw a form: which control each key gets.

/** The part of JSON Schema the config forms read. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  [key: string]: unknown;
}

/**
 * The control a value of this schema is edited with: text, number, a checkbox, a choice, a group of fields, a map
 * of free keys, a list; `json` for anything else (a value of any type, a union), edited as JSON text.
 */
export type FieldKind = 'string' | 'number' | 'boolean' | 'enum' | 'object' | 'map' | 'array' | 'json';

export function kindOf(schema: JsonSchema | undefined): FieldKind {
  if (!schema) return 'json';
  if (schema.enum && schema.enum.every((v) => typeof v === 'string' || typeof v === 'number')) return 'enum';
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length !== 1) return 'json';
  switch (types[0]) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'array';
    case 'object':
      return schema.properties && Object.keys(schema.properties).length ? 'object' : 'map';
    default:
      return 'json';
  }
}

/** The schema of a map's values: its `additionalProperties`, else any value. */
export const mapValueSchema = (schema: JsonSchema): JsonSchema | undefined =>
  typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;

/** An empty value of a kind, for a new list item or map entry. */
export function emptyOf(schema: JsonSchema | undefined): unknown {
  switch (kindOf(schema)) {
    case 'string':
      return '';
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'enum':
      return schema!.enum![0];
    case 'object':
    case 'map':
      return {};
    case 'array':
      return [];
    default:
      return null;
  }
}
