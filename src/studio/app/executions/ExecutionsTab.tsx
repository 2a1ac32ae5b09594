import { useState } from 'react';
import { api, seg } from '../api.js';
import { navigate } from '../route.js';
import type { ExecutionStatus, WorkflowSummary } from '../types.js';
import { useLoad } from '../ui/hooks.js';
import { ExecutionTable, StatusFilter } from './ExecutionList.js';
import { ExecutionView, type Details } from './ExecutionView.js';
import { useExecutionList, type ExecutionRow } from './listing.js';

/** A flow's executions, live (new ones appear as they start), beside the one opened. */
export function ExecutionsTab({ flow, executionId }: { flow: WorkflowSummary; executionId?: string }) {
  const [status, setStatus] = useState<ExecutionStatus>();
  const list = useExecutionList({ workflowId: flow.id, status, live: true });
  // A queued row's reason names its rule's numbers: the settings of the copy it runs (the draft, or the published one).
  const details = useLoad((signal) => api.get<Details>(`/workflows/${seg(flow.id)}`, signal), [flow.id]);
  const settingsOf = (row: ExecutionRow) => (row.draft ? details.value?.config : (details.value?.published?.config ?? details.value?.config))?.settings;
  return (
    <div className="executions">
      <div className="exec-side">
        <div className="exec-tools">
          <StatusFilter value={status} onChange={setStatus} />
        </div>
        <ExecutionTable list={list} openId={executionId} settingsOf={settingsOf} onOpen={(r) => navigate(['flows', flow.id, 'executions', r.id])} />
      </div>
      {executionId ? (
        <ExecutionView id={executionId} onOpen={(r) => navigate(['flows', r.workflowId, 'executions', r.id])} />
      ) : (
        <p className="empty exec-none">Choose an execution to see it on the graph.</p>
      )}
    </div>
  );
}
