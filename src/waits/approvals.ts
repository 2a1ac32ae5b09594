import { WeirError } from '../errors.js';
import type { ExecutionRecord, RunState } from '../flow/types.js';
import type { Executions } from '../resources/executions/index.js';
import type { ApprovalAnswer, ResumeCall } from '../types/waits.js';
import type { Decision, Due, WaitStore } from './store.js';

/** Options of {@link createApprovals}. */
export interface ApprovalsOptions {
  store: Pick<WaitStore, 'putDecision' | 'decision'>;
  executions: Pick<Executions, 'get' | 'open'>;
  /** Stores a wake key for now and hands it to a host's timer (this one's, or the others' through an announcement). */
  wake(executionId: string, nodeId: string): Promise<void>;
  now(): number;
}

/** The node of a waiting execution that waits for an approval, if one does. */
export const waitingApproval = (record: ExecutionRecord | null | undefined): string | undefined =>
  record?.status === 'waiting' ? Object.keys(record.nodes).find((id) => record.nodes[id].status === 'waiting' && record.nodes[id].wait?.kind === 'approval') : undefined;

/** A call to an approval URL approves unless its JSON body or its query says `approve: false`; `reason` from either. */
export function decisionOfCall(call: ResumeCall): { approve: boolean; reason?: string } {
  const body = call.body !== null && typeof call.body === 'object' && !Array.isArray(call.body) ? (call.body as Record<string, unknown>) : {};
  const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
  const approve = first(body.approve ?? call.query.approve);
  const reason = first(body.reason ?? call.query.reason);
  return { approve: approve !== false && approve !== 'false', ...(typeof reason === 'string' && reason ? { reason } : {}) };
}

/**
 * Approval waits (a node returned `new Suspend({ kind: 'approval', tool, input })`): a decision is stored as
 * the execution's `decision:` entry before its node is woken, so a crash in between still applies it, and a
 * wake uses it up only once its run is stored (see the waker). `approve` (CLI, API, Studio) decides the wait an
 * execution is in; `byUrl` (`$execution.approvalUrl`) also keeps a decision for a wait not reached yet.
 * @example
 * const approvals = createApprovals({ store, executions, wake, now: Date.now })
 * await approvals.approve('exec_1', { approve: false, reason: 'not today' })
 */
export function createApprovals(options: ApprovalsOptions) {
  const { store, executions, now } = options;

  const answer = (executionId: string, decision: Decision, tool: string | undefined): ApprovalAnswer => ({
    executionId,
    approved: decision.approved,
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    ...(tool === undefined ? {} : { tool }),
    applied: tool !== undefined,
  });
  const decisionOf = (d: { approve?: boolean; reason?: string }): Decision => ({ approved: d.approve !== false, ...(d.reason ? { reason: d.reason } : {}), at: now() });
  const toolOf = (record: ExecutionRecord, nodeId: string) => (record.nodes[nodeId].wait as { tool: string }).tool;

  return {
    async approve(executionId: string, d: { approve?: boolean; reason?: string }): Promise<ApprovalAnswer> {
      // An unknown id is the records' NOT_FOUND, naming the nearest ids.
      const record = await executions.get(executionId);
      const nodeId = waitingApproval(record);
      if (!nodeId) {
        throw new WeirError('CONFLICT', `execution ${executionId} is ${record.status} and waits for no approval`, {
          hints: [`\`weir workflows execution ${executionId}\` shows what it does`],
        });
      }
      if (await store.decision(executionId)) {
        throw new WeirError('CONFLICT', `the approval execution ${executionId} waits for was already decided; the execution is about to go on`);
      }
      const decision = decisionOf(d);
      await store.putDecision(executionId, decision);
      await options.wake(executionId, nodeId);
      return answer(executionId, decision, toolOf(record, nodeId));
    },

    /**
     * A call to an approval URL (its token known, unused, of an execution not ended): decides, or is kept.
     * `spend` marks the token used, once the decision is stored (a crash in between leaves the URL usable).
     */
    async byUrl(executionId: string, call: ResumeCall, spend: () => Promise<void>): Promise<ApprovalAnswer> {
      const decision = decisionOf(decisionOfCall(call));
      await store.putDecision(executionId, decision);
      await spend();
      // Read after the decision is kept: an execution that reached its wait meanwhile finds it either way.
      const entry = await executions.open.get(executionId);
      const nodeId = waitingApproval(entry?.record);
      if (!nodeId) return answer(executionId, decision, undefined);
      await options.wake(executionId, nodeId);
      return answer(executionId, decision, toolOf(entry!.record, nodeId));
    },

    /**
     * The wake of a run that ended waiting for an approval decided already (kept before it got there), or
     * null; a decision this very run was woken with is being used up, not applied again.
     */
    async pending(run: RunState): Promise<Due | null> {
      const nodeId = waitingApproval(run.record);
      if (!nodeId) return null;
      const decision = await store.decision(run.record.id);
      if (!decision || decision.at === run.options.wake?.approval?.at) return null;
      return { at: now(), executionId: run.record.id, nodeId };
    },
  };
}
