import type { NodeOverlay } from '../graph/FlowGraph.js';
import type { WorkflowConfig } from '../types.js';
import { duration, Status } from '../ui/parts.js';
import { ChildRuns } from './ChildRuns.js';
import { ValueView } from './JsonView.js';
import { spanMs, type Inspected } from './record.js';

/**
 * Beside the graph when no node is open: every node's result in run order (each opens the node), the executions
 * the run started, the input and the result.
 */
export function RunSummary({ record, config, overlays, onSelect }: { record: Inspected; config?: WorkflowConfig; overlays: Record<string, NodeOverlay>; onSelect(nodeId: string): void }) {
  const ran = Object.entries(record.nodes).sort(([, a], [, b]) => (a.startedAt ?? '\uffff').localeCompare(b.startedAt ?? '\uffff'));
  const notRun = (config?.nodes ?? []).filter((n) => !record.nodes[n.id]);
  return (
    <aside className="exec-panel" aria-label="Run summary">
      <section>
        <h3>Nodes</h3>
        <table className="list exec-nodes" aria-label="Nodes">
          <tbody>
            {ran.map(([id, n]) => (
              <tr key={id}>
                <td>
                  <button className="link" onClick={() => onSelect(id)}>
                    {id}
                  </button>
                </td>
                <td>
                  <Status value={n.status} />
                </td>
                <td>{duration(spanMs(n.startedAt, n.finishedAt))}</td>
                <td className="muted">{n.attempts && n.attempts > 1 ? `${n.attempts} attempts` : ''}</td>
              </tr>
            ))}
            {notRun.map((n) => (
              <tr key={n.id}>
                <td>
                  <button className="link" onClick={() => onSelect(n.id)}>
                    {n.id}
                  </button>
                </td>
                <td colSpan={3} className="muted">
                  {overlays[n.id]?.status === 'running' ? <Status value="running" /> : 'not run'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {record.children?.length ? <ChildRuns record={record} /> : null}
      <section>
        <h3>Input</h3>
        <ValueView value={record.input} label="Execution input" download={{ executionId: record.id, nodeId: '$input' }} />
      </section>
      <section>
        <h3>Result</h3>
        <ValueView value={record.result} label="Execution result" download={{ executionId: record.id, nodeId: '$result' }} />
      </section>
    </aside>
  );
}
