import { stableStringify } from '../../util/json.js';
import { unifiedDiff } from '../../util/line-diff.js';
import { contentOf } from './sync.js';
import type { WorkflowConfig, FlowEdge } from './types.js';

/** One difference between two configs. */
export interface Change {
  kind: 'node' | 'edge' | 'variable' | 'metadata' | 'setting';
  op: 'added' | 'removed' | 'changed';
  key: string;
  /** For changed nodes: the config keys (or fields) that differ. */
  fields?: string[];
  /** The value in the published config (the node, edge or variable); null for an added one. */
  before: unknown;
  /** The value in the local draft; null for a removed one. */
  after: unknown;
}

const edgeKey = (e: FlowEdge) => `${e.source} -> ${e.target}${e.sourceHandle ? ` [${e.sourceHandle}]` : ''}`;
const same = (a: unknown, b: unknown) => stableStringify(a) === stableStringify(b);

function diffMaps(kind: Change['kind'], before: Record<string, unknown>, after: Record<string, unknown>): Change[] {
  const changes: Change[] = [];
  for (const [key, value] of Object.entries(after)) {
    if (!(key in before)) changes.push({ kind, op: 'added', key, before: null, after: value });
    else if (!same(before[key], value)) changes.push({ kind, op: 'changed', key, before: before[key], after: value });
  }
  for (const key of Object.keys(before)) if (!(key in after)) changes.push({ kind, op: 'removed', key, before: before[key], after: null });
  return changes;
}

/** The node, edge, variable, metadata and settings changes that turn `before` into `after`. */
export function diffConfigs(before: WorkflowConfig | null, after: WorkflowConfig): Change[] {
  const b = before ?? { nodes: [], edges: [] };
  const nodesBefore = new Map(b.nodes.map((n) => [n.id, n]));
  const changes: Change[] = [];
  for (const node of after.nodes) {
    const old = nodesBefore.get(node.id);
    if (!old) {
      changes.push({ kind: 'node', op: 'added', key: node.id, before: null, after: node });
      continue;
    }
    const fields = [
      ...(['type', 'label'] as const).filter((f) => old[f] !== node[f]),
      ...diffMaps('node', old.config ?? {}, node.config ?? {}).map((c) => `config.${c.key}`),
    ];
    if (fields.length) changes.push({ kind: 'node', op: 'changed', key: node.id, fields, before: old, after: node });
  }
  const idsAfter = new Set(after.nodes.map((n) => n.id));
  for (const node of b.nodes) if (!idsAfter.has(node.id)) changes.push({ kind: 'node', op: 'removed', key: node.id, before: node, after: null });

  const edgesBefore = new Map((b.edges ?? []).map((e) => [edgeKey(e), e]));
  const edgesAfter = new Map((after.edges ?? []).map((e) => [edgeKey(e), e]));
  for (const [key, e] of edgesAfter) if (!edgesBefore.has(key)) changes.push({ kind: 'edge', op: 'added', key, before: null, after: e });
  for (const [key, e] of edgesBefore) if (!edgesAfter.has(key)) changes.push({ kind: 'edge', op: 'removed', key, before: e, after: null });

  changes.push(...diffMaps('variable', b.variables ?? {}, after.variables ?? {}));
  changes.push(...diffMaps('metadata', b.metadata ?? {}, after.metadata ?? {}));
  changes.push(...diffMaps('setting', { ...b.settings }, { ...after.settings }));
  return changes;
}

/**
 * The config JSON of the published version (or nothing) against the draft's as a unified diff, positions
 * left out as they are for the sync status; '' when they are the same.
 * @example
 * configPatch(published.config, draft.config, 'published (version 3)') // '--- published (version 3)\n+++ local\n@@ ...'
 */
export function configPatch(before: WorkflowConfig | null, after: WorkflowConfig, from: string): string {
  const text = (config: WorkflowConfig) => `${JSON.stringify(contentOf(config), null, 2)}\n`;
  return unifiedDiff(before ? text(before) : '', text(after), { from, to: 'local' });
}

const SIGN = { added: '+', removed: '-', changed: '~' } as const;

/** Human-readable lines: `+ node http_request-2 (http_request)`, `~ node set-1: config.values`, ... */
export function formatChanges(changes: Change[]): string {
  if (changes.length === 0) return 'no differences';
  return changes
    .map((c) => {
      const head = `${SIGN[c.op]} ${c.kind} ${c.key}`;
      if (c.kind === 'node' && c.op !== 'changed') return `${head} (${(c.after ?? c.before as any).type})`;
      if (c.kind === 'node') return `${head}: ${c.fields!.join(', ')}`;
      if (c.kind === 'variable' || c.kind === 'metadata' || c.kind === 'setting') {
        const show = (v: unknown) => JSON.stringify(v);
        if (c.op === 'changed') return `${head}: ${show(c.before)} -> ${show(c.after)}`;
        return `${head} = ${show(c.op === 'added' ? c.after : c.before)}`;
      }
      return head;
    })
    .join('\n');
}
