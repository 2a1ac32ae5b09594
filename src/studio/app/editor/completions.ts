// What a `{{ }}` field offers as the user types: the trigger input's paths, the data of the nodes that run
// before the node, and the other roots of the expression language.
import type { WorkflowConfig } from '../types.js';
import { ancestorsOf } from './flowEdit.js';

export interface Completion {
  /** The text inserted (`$input.body.amount`). */
  value: string;
  /** Where it comes from, shown beside it. */
  detail: string;
}

export interface CompletionSources {
  /** The accepted webhook format's variable paths (`body.amount`), if the flow has one. */
  webhookVariables?: string[];
  /** The node types that are triggers (their node's `inputParams` name the input's keys). */
  triggerTypes: ReadonlySet<string>;
}

/** The completions of a field of node `nodeId`, in the order offered. */
export function completionsFor(config: WorkflowConfig, nodeId: string, sources: CompletionSources): Completion[] {
  const out: Completion[] = [{ value: '$input', detail: 'the trigger input' }];
  for (const v of sources.webhookVariables ?? []) out.push({ value: `$input.${v}`, detail: 'accepted webhook format' });
  const trigger = config.nodes.find((n) => sources.triggerTypes.has(n.type));
  const params = trigger?.config?.inputParams;
  if (Array.isArray(params)) {
    for (const p of params) {
      const name = (p as { name?: unknown })?.name;
      if (typeof name === 'string' && name) out.push({ value: `$input.${name}`, detail: `input parameter of ${trigger!.id}` });
    }
  }
  for (const id of ancestorsOf(config, nodeId)) out.push({ value: `$node.${id}.data`, detail: `output of ${id}` });
  out.push({ value: '$now', detail: 'the current time' }, { value: '$env', detail: 'environment variables' }, { value: '$execution.id', detail: 'this execution' });
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.value) && seen.add(c.value));
}

/** The expression being typed at `caret`: inside an open `{{`, the partial token before the caret and where it starts. */
export function tokenAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const open = before.lastIndexOf('{{');
  if (open < 0 || before.indexOf('}}', open) >= 0) return null;
  const m = /[$\w.\-[\]]*$/.exec(before);
  const query = m ? m[0] : '';
  return { start: caret - query.length, query };
}

/** The completions that start with (or, after those, contain) the typed token. */
export function matching(all: Completion[], query: string): Completion[] {
  const q = query.toLowerCase();
  const starts = all.filter((c) => c.value.toLowerCase().startsWith(q));
  const contains = all.filter((c) => !c.value.toLowerCase().startsWith(q) && c.value.toLowerCase().includes(q));
  return [...starts, ...contains];
}

/** `text` with the token at `start..caret` replaced by `value`, the `}}` added when none follows; and the new caret. */
export function insertCompletion(text: string, start: number, caret: number, value: string): { text: string; caret: number } {
  const after = text.slice(caret);
  const closes = /^\s*}}/.test(after) || (after.indexOf('}}') >= 0 && after.indexOf('}}') < (after.indexOf('{{') >= 0 ? after.indexOf('{{') : Infinity));
  const before = text.slice(0, start);
  const pad = before.endsWith('{{') ? ' ' : '';
  const insert = `${pad}${value}${closes ? '' : ' }}'}`;
  return { text: before + insert + after, caret: before.length + pad.length + value.length + (closes ? 0 : 3) };
}
