import { useEffect, useRef, useState } from 'react';
import { api, seg } from '../api.js';
import type { WorkflowConfig } from '../types.js';
import type { Details } from './ExecutionView.js';
import type { ExecutionRow } from './listing.js';

type Settings = WorkflowConfig['settings'];

/**
 * The settings each queued row's execution runs under (its flow's draft for a draft run, else the published
 * copy), for its reason to name the rule's numbers. A flow's details are read once, and only for the flows
 * with a queued row among `rows`: a list of a thousand flows' executions reads none of the others. A flow
 * that cannot be read (deleted since) leaves its rows' reasons without numbers.
 * @example
 * const settingsOf = useQueuedSettings(list.rows)
 * queuedRule(row.queuedFor, settingsOf(row)) // 'Queued: concurrency limit 2 for key “t1”'
 */
export function useQueuedSettings(rows: ExecutionRow[]): (row: ExecutionRow) => Settings {
  const [flows, setFlows] = useState<Record<string, Details>>({});
  const asked = useRef(new Set<string>());
  const wanted = [...new Set(rows.filter((r) => r.status === 'queued' && r.queuedFor).map((r) => r.workflowId))].filter((id) => !asked.current.has(id));
  useEffect(() => {
    for (const id of wanted) {
      asked.current.add(id);
      api.get<Details>(`/workflows/${seg(id)}`).then(
        (details) => setFlows((known) => ({ ...known, [id]: details })),
        () => {},
      );
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted.join('\n')]);
  return (row) => {
    const details = flows[row.workflowId];
    return (row.draft ? details?.config : (details?.published?.config ?? details?.config))?.settings;
  };
}
