import { useState } from 'react';
import { navigate } from '../route.js';
import type { ExecutionStatus, WorkflowSummary } from '../types.js';
import { ExecutionTable, StatusFilter } from './ExecutionList.js';
import { ExecutionView } from './ExecutionView.js';
import { useExecutionList } from './listing.js';

/** A flow's executions, live (new ones appear as they start), beside the one opened. */
export function ExecutionsTab({ flow, executionId }: { flow: WorkflowSummary; executionId?: string }) {
  const [status, setStatus] = useState<ExecutionStatus>();
  const list = useExecutionList({ workflowId: flow.id, status, live: true });
  return (
    <div className="executions">
      <div className="exec-side">
        <div className="exec-tools">
          <StatusFilter value={status} onChange={setStatus} />
        </div>
        <ExecutionTable list={list} openId={executionId} onOpen={(r) => navigate(['flows', flow.id, 'executions', r.id])} />
      </div>
      {executionId ? (
        <ExecutionView id={executionId} onOpen={(r) => navigate(['flows', r.workflowId, 'executions', r.id])} />
      ) : (
        <p className="empty exec-none">Choose an execution to see it on the graph.</p>
      )}
    </div>
  );
}
