import { useState } from 'react';
import { api, ApiError, seg } from '../api.js';
import { asApiError } from '../ui/hooks.js';
import { ErrorNote } from '../ui/parts.js';
import type { Inspected } from './record.js';

/** The tool call a waiting execution waits to have approved (a node's `wait` of kind `approval`), if any. */
export function waitingApproval(record: Pick<Inspected, 'status' | 'nodes'>): { nodeId: string; tool: string; input: unknown; since: string | null } | undefined {
  if (record.status !== 'waiting') return undefined;
  for (const [nodeId, node] of Object.entries(record.nodes)) {
    if (node.status === 'waiting' && node.wait?.kind === 'approval') return { nodeId, tool: String(node.wait.tool), input: node.wait.input, since: node.startedAt };
  }
  return undefined;
}

/**
 * Above an execution waiting for an approval: the tool and the input it would run with, a reason field, and
 * Approve and Deny buttons (`POST /executions/{id}/approve`); once decided, `onDecided` follows the execution
 * on as it runs again.
 */
export function ApprovalNote({ record, onDecided }: { record: Inspected; onDecided(): void }) {
  const asked = waitingApproval(record);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<'approve' | 'deny'>();
  const [error, setError] = useState<ApiError>();
  // The wait decided here (by the node's start): its buttons go while the record still says it waits.
  const [decided, setDecided] = useState<{ at: string; approved: boolean }>();
  if (!asked) return null;
  const key = `${record.id}:${asked.nodeId}:${asked.since}`;
  const done = decided?.at === key ? decided : undefined;
  const decide = async (approve: boolean) => {
    setBusy(approve ? 'approve' : 'deny');
    setError(undefined);
    try {
      await api.post(`/executions/${seg(record.id)}/approve`, { approve, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      setDecided({ at: key, approved: approve });
      onDecided();
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section className="exec-approval" aria-label="Approval">
      <p>
        <strong>Waiting for approval of</strong> <code>{asked.tool}</code> <span className="muted">(node {asked.nodeId})</span>
      </p>
      <pre className="exec-approval-input" aria-label="Tool input">
        {JSON.stringify(asked.input, null, 2)}
      </pre>
      {done ? (
        <p role="status">{done.approved ? 'Approved' : 'Denied'}: the execution goes on.</p>
      ) : (
        <form
          className="exec-approval-form"
          onSubmit={(e) => {
            e.preventDefault();
            void decide(true);
          }}
        >
          <input aria-label="Reason" placeholder="Reason (optional; reported with a denial)" value={reason} onChange={(e) => setReason(e.target.value)} />
          <button className="primary" type="submit" disabled={!!busy}>
            {busy === 'approve' ? 'Approving…' : 'Approve'}
          </button>
          <button className="danger" type="button" disabled={!!busy} onClick={() => void decide(false)}>
            {busy === 'deny' ? 'Denying…' : 'Deny'}
          </button>
        </form>
      )}
      <ErrorNote error={error} title="Could not decide" />
    </section>
  );
}
