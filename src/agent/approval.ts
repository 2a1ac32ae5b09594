import { Suspend } from '../flow/suspend.js';
import type { Approval } from '../flow/types.js';
import type { NodeContext } from '../nodes/define.js';
import type { PendingCall } from './run-tool.js';

/** Where an agent's progress notes the tool call it waits for a person on. */
export interface AwaitingApproval {
  awaiting?: string;
}

/**
 * The decision on a tool call that needs approval: the one already stored, the one this run was woken with
 * (`ctx.approval`, stored at once so a crash before the call does not lose it), or else a {@link Suspend}: the
 * execution waits (status `waiting`, stored) with the call noted in the progress, until a person decides.
 * @example
 * const decision = await approvalOf(ctx, progress, pending)
 * if (decision instanceof Suspend) return decision
 */
export async function approvalOf(ctx: NodeContext<any>, progress: AwaitingApproval, pending: PendingCall): Promise<Approval | Suspend> {
  if (pending.approval) return pending.approval;
  const decided = ctx.approval;
  if (decided && progress.awaiting === pending.call.id) {
    pending.approval = { approved: decided.approved === true, ...(decided.reason ? { reason: decided.reason } : {}) };
    delete progress.awaiting;
    await ctx.saveProgress(progress);
    return pending.approval;
  }
  progress.awaiting = pending.call.id;
  await ctx.saveProgress(progress);
  return new Suspend({ kind: 'approval', tool: pending.call.name, input: pending.call.input });
}

/**
 * Whether a tool needs a person's approval under the node's `approve` (`true`: every tool; a list: those named
 * as in `tools`, or by the name the model calls them).
 * @example
 * needsApproval(['refund order'], { ref: 'refund order', spec: { name: 'refund_order' } }) // true
 */
export function needsApproval(approve: boolean | string[] | undefined, tool: { ref: string; spec: { name: string } } | undefined): boolean {
  if (!tool) return false;
  return approve === true || (Array.isArray(approve) && (approve.includes(tool.ref) || approve.includes(tool.spec.name)));
}
