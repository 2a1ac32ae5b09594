import { sha256 } from '../util/ids.js';
import type { NodeContext } from './define.js';

/** What a side-effect key is made of: the execution's id and the node's. */
type SideEffectOf = { execution: Pick<NodeContext['execution'], 'id'>; node: Pick<NodeContext['node'], 'id'> };

/**
 * The key of a node's side effect in one execution, `<executionId>:<nodeId>`: the same each time the node
 * runs in that execution (a retry, a resume after a crash that came after the call but before its
 * checkpoint), so the receiver can tell a repeat from a new call.
 * @example
 * headers['idempotency-key'] ??= sideEffectKey(ctx)
 */
export const sideEffectKey = (ctx: SideEffectOf): string => `${ctx.execution.id}:${ctx.node.id}`;

/** A row key derived from {@link sideEffectKey}, shaped like a UUID (what a row without one gets otherwise). */
export function derivedRowId(ctx: SideEffectOf): string {
  const h = sha256(sideEffectKey(ctx));
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
