import type { NodeRegistry, Problem } from '../../nodes/index.js';
import { isObject } from '../../util/json.js';
import type { FlowConfig } from './types.js';

const NODE_ID = /^([a-z][a-z0-9_]*)-(\d+)$/;

/** Extra save-time checks a subsystem adds (e.g. the expression parser): return problems for a config. */
export type ConfigCheck = (config: FlowConfig) => Problem[];

/**
 * Every problem of a flow config at once (CONTRACT section 4): shape, exactly one trigger, node id pattern
 * `<type>-<number>`, duplicate ids, dangling edges, unknown types, and each node type's own checks.
 */
export function validateConfig(config: unknown, nodes: NodeRegistry, extraChecks: ConfigCheck[] = []): Problem[] {
  if (!isObject(config)) return [{ path: '', message: 'the configuration must be a JSON object with "nodes" and "edges"' }];
  const problems: Problem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (!Array.isArray(config.nodes)) add('nodes', '"nodes" must be an array');
  if (config.edges !== undefined && !Array.isArray(config.edges)) add('edges', '"edges" must be an array');
  if (config.variables !== undefined && !isObject(config.variables)) add('variables', '"variables" must be an object');
  if (config.metadata !== undefined && !isObject(config.metadata)) add('metadata', '"metadata" must be an object');
  if (!Array.isArray(config.nodes)) return problems;

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
    if (node.config !== undefined && !isObject(node.config)) add(`${at}.config`, 'config must be an object');
    const def = nodes.get(type);
    if (!def) return add(`${at}.type`, `unknown node type "${type}"`);
    if (def.trigger) triggers++;
    for (const p of def.validate?.((node.config ?? {}) as Record<string, unknown>) ?? []) {
      add(`${at}.config${p.path ? `.${p.path}` : ''}`, `${id}: ${p.message}`);
    }
  });
  if (triggers !== 1) add('nodes', `a flow needs exactly one trigger node, found ${triggers}`);

  (Array.isArray(config.edges) ? config.edges : []).forEach((edge: unknown, i: number) => {
    const at = `edges[${i}]`;
    if (!isObject(edge)) return add(at, 'an edge must be an object');
    for (const end of ['source', 'target'] as const) {
      const ref = edge[end];
      if (typeof ref !== 'string') add(`${at}.${end}`, `edge ${end} is required`);
      else if (!seen.has(ref)) add(`${at}.${end}`, `edge ${edge.id ?? i} names a missing node "${ref}"`);
    }
  });
  if (problems.length === 0) for (const checkConfig of extraChecks) problems.push(...checkConfig(config as unknown as FlowConfig));
  return problems;
}
