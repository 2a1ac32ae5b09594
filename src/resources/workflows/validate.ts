import { policyProblems } from '../../flow/policy.js';
import { settingsProblems } from '../../flow/settings.js';
import { isTemplate } from '../../nodes/fields.js';
import { nodeConfigSchema } from '../../nodes/schema.js';
import type { NodeDefinition, NodeRegistry, Problem } from '../../nodes/index.js';
import { validateSchema } from '../../util/json-schema.js';
import { isObject } from '../../util/json.js';
import { didYouMean } from '../../util/nearest.js';
import type { WorkflowConfig, FlowEdge, FlowNode } from './types.js';

const NODE_ID = /^([a-z][a-z0-9_]*)-(\d+)$/;

/** Extra save-time checks a subsystem adds (e.g. the expression parser): return problems for a config. */
export type ConfigCheck = (config: WorkflowConfig) => Problem[];

/** Options of {@link validateConfig}. */
export interface ValidateOptions {
  /**
   * Check each node's config against its type's schema: unknown keys, types (default true). Save and publish
   * check it; a stored config about to run does not, so a flow published before a key was refused keeps running.
   */
  schemas?: boolean;
}

/**
 * How a problem names an edge: its `id` when that is a string or a number, else `fallback` (its index, or its
 * ends). An id of any other JSON value (an object, even one without a prototype) must not break the message.
 */
export const edgeName = (edge: object, fallback: string | number): string => {
  const { id } = edge as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number' ? String(id) : String(fallback);
};

/** The well-formed part of a config, and where each of its nodes and edges sits in the original. */
interface Sound {
  config: WorkflowConfig;
  nodeAt: number[];
  edgeAt: number[];
}

/**
 * Every problem of a flow config at once: shape, exactly one trigger, node id pattern `<type>-<number>`,
 * duplicate ids, dangling edges, unknown types (with the nearest known type), each node's config (its type's
 * own checks, `retry`/`timeoutMs`/`onError`, its type's schema: unknown keys, types), and the extra checks
 * (expressions, handles, edges into the trigger, cycles). The extra checks see the well-formed nodes and
 * edges, so a broken node does not hide the problems of the others.
 * @example
 * validateConfig(config, nodes, [flowChecks({ nodes, expressions })]) // [] when the config is valid
 */
export function validateConfig(config: unknown, nodes: NodeRegistry, extraChecks: ConfigCheck[] = [], { schemas = true }: ValidateOptions = {}): Problem[] {
  if (!isObject(config)) return [{ path: '', message: 'the configuration must be a JSON object with "nodes" and "edges"' }];
  const problems: Problem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (!Array.isArray(config.nodes)) add('nodes', '"nodes" must be an array');
  if (config.edges !== undefined && !Array.isArray(config.edges)) add('edges', '"edges" must be an array');
  if (config.variables !== undefined && !isObject(config.variables)) add('variables', '"variables" must be an object');
  if (config.metadata !== undefined && !isObject(config.metadata)) add('metadata', '"metadata" must be an object');
  if (config.settings !== undefined) problems.push(...settingsProblems(config.settings));
  if (!Array.isArray(config.nodes)) return problems;

  const sound: Sound = { config: { nodes: [], edges: [] }, nodeAt: [], edgeAt: [] };
  const seen = new Set<string>();
  let triggers = 0;
  config.nodes.forEach((node: unknown, i: number) => {
    const at = `nodes[${i}]`;
    if (!isObject(node)) return add(at, 'a node must be an object');
    const { id, type } = node;
    if (typeof id !== 'string') add(`${at}.id`, 'node id is required');
    if (typeof type !== 'string') add(`${at}.type`, 'node type is required');
    if (typeof id !== 'string' || typeof type !== 'string') return;
    const m = NODE_ID.exec(id);
    if (!m) add(`${at}.id`, `node id "${id}" must be of the form <type>-<number>, e.g. ${type}-1`);
    else if (m[1] !== type) add(`${at}.id`, `node id "${id}" must start with its type "${type}" (e.g. ${type}-1)`);
    if (seen.has(id)) add(`${at}.id`, `duplicate node id "${id}"`);
    seen.add(id);
    const configOk = node.config === undefined || isObject(node.config);
    if (!configOk) add(`${at}.config`, `${id}: config must be an object`);
    const def = nodes.get(type);
    if (!def) add(`${at}.type`, `${id}: unknown node type "${type}"${didYouMean(type, nodes.keys())}`);
    else if (def.trigger) triggers++;
    if (configOk) {
      for (const p of configProblems((node.config ?? {}) as Record<string, unknown>, def, schemas)) {
        add(`${at}.config${p.path ? `.${p.path}` : ''}`, `${id}: ${p.message}`);
      }
    }
    if (configOk) {
      sound.config.nodes.push(node as unknown as FlowNode);
      sound.nodeAt.push(i);
    }
  });
  if (triggers !== 1) add('nodes', `a flow needs exactly one trigger node, found ${triggers}`);

  (Array.isArray(config.edges) ? config.edges : []).forEach((edge: unknown, i: number) => {
    const at = `edges[${i}]`;
    if (!isObject(edge)) return add(at, 'an edge must be an object');
    let ok = true;
    for (const end of ['source', 'target'] as const) {
      const ref = edge[end];
      if (typeof ref !== 'string') add(`${at}.${end}`, `edge ${edgeName(edge, i)}: ${end} is required`);
      else if (!seen.has(ref)) add(`${at}.${end}`, `edge ${edgeName(edge, i)} names a missing node "${ref}"`);
      ok &&= typeof ref === 'string' && seen.has(ref);
    }
    if (ok) {
      sound.config.edges.push(edge as unknown as FlowEdge);
      sound.edgeAt.push(i);
    }
  });
  // A place already reported is told once (a `timeoutMs` of "{{ x(" is neither a number nor an expression).
  const reported = new Set(problems.map((p) => p.path));
  for (const check of extraChecks) {
    for (const p of check(sound.config)) {
      const path = originalPath(p.path, sound);
      if (!reported.has(path)) problems.push({ ...p, path });
    }
  }
  return problems;
}

/**
 * The problems of one node's config, a place told once (the first to find it words it): its type's own checks,
 * the options every node takes, then its type's schema with those options added (the unknown keys).
 */
function configProblems(config: Record<string, unknown>, def: NodeDefinition<any> | undefined, schemas: boolean): Problem[] {
  const problems = def?.validate?.(config) ?? [];
  const add = (more: Problem[]) => {
    const told = new Set(problems.map((p) => p.path));
    problems.push(...more.filter((p) => !told.has(p.path)));
  };
  add(policyProblems(config));
  const schema = schemas && def ? nodeConfigSchema(def) : null;
  if (schema) {
    add(
      validateSchema(config, schema, {
        // A trigger's config is read as written; another node's strings are templates resolved when it runs.
        deferred: def?.trigger ? undefined : isTemplate,
        unknownKey: (key, known) => `unknown key "${key}"${didYouMean(key, known) || `; the keys here are ${known.map((k) => `"${k}"`).join(', ')}`}`,
      }),
    );
  }
  return problems;
}

/** `nodes[k]...` / `edges[k]...` of the sound part, pointed back at the same node or edge in the original config. */
function originalPath(path: string, sound: Sound): string {
  return path.replace(/^(nodes|edges)\[(\d+)\]/, (_, list: string, k: string) => `${list}[${(list === 'nodes' ? sound.nodeAt : sound.edgeAt)[Number(k)]}]`);
}
