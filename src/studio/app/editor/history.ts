// The undo history of the editor: the configs before and after the present one. Typing in one field within a
// moment is one step, so an undo takes back a word or a value, not a keystroke.
import type { WorkflowConfig } from '../types.js';

export interface History {
  past: WorkflowConfig[];
  present: WorkflowConfig;
  future: WorkflowConfig[];
  /** What the last edit changed (`config:set-1.url`), and when: a same-place edit soon after joins it. */
  last?: { key: string; at: number };
}

/** Edits of one place this close together are one undo step. */
export const COALESCE_MS = 1000;
/** How many steps back an undo can go. */
export const MAX_STEPS = 200;

export const startHistory = (config: WorkflowConfig): History => ({ past: [], present: config, future: [] });

/** The history after an edit: `key` names the place edited, for joining keystrokes (none: a step of its own). */
export function record(h: History, next: WorkflowConfig, key?: string, now = Date.now()): History {
  if (next === h.present) return h;
  const join = key !== undefined && h.last?.key === key && now - h.last.at < COALESCE_MS;
  const past = join ? h.past : [...h.past, h.present].slice(-MAX_STEPS);
  return { past, present: next, future: [], last: key === undefined ? undefined : { key, at: now } };
}

export function undo(h: History): History {
  if (!h.past.length) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
}

export function redo(h: History): History {
  if (!h.future.length) return h;
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
}
