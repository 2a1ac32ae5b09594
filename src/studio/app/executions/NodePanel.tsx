import type { FlowNode, NodeRecord, WorkflowConfig } from '../types.js';
import { duration, Status, when } from '../ui/parts.js';
import { ChildRuns } from './ChildRuns.js';
import { inputOf, spanMs, type Inspected } from './record.js';
import { ValueView } from './JsonView.js';

/** One node of the run: status, timing, attempts, error, logs, and its input and output data. */
export function NodePanel({ record, config, nodeId, onClose }: { record: Inspected; config?: WorkflowConfig; nodeId: string; onClose(): void }) {
  const node: FlowNode | undefined = config?.nodes.find((n) => n.id === nodeId);
  const run: NodeRecord | undefined = record.nodes[nodeId];
  const input = inputOf(record, config, nodeId);
  const children = (record.children ?? []).filter((c) => c.nodeId === nodeId);
  return (
    <aside className="exec-panel" aria-label={`Node ${nodeId}`}>
      <header className="exec-panel-head">
        <h2>
          {nodeId} {node?.type && <span className="muted">{node.type}</span>}
        </h2>
        <button className="icon" aria-label="Close node" onClick={onClose}>
          ×
        </button>
      </header>
      {!run ? (
        <p className="muted">This node did not run in this execution.</p>
      ) : (
        <>
          <dl className="exec-facts">
            <dt>Status</dt>
            <dd>
              <Status value={run.status} />
              {run.handle !== undefined && <span className="muted"> took {([] as string[]).concat(run.handle).map((h) => `“${h}”`).join(', ') || 'no branch'}</span>}
            </dd>
            <dt>Started</dt>
            <dd>{when(run.startedAt)}</dd>
            <dt>Took</dt>
            <dd>{duration(spanMs(run.startedAt, run.finishedAt))}</dd>
            <dt>Attempts</dt>
            <dd>{run.attempts ?? 1}</dd>
            {run.wait && (
              <>
                <dt>Waits for</dt>
                <dd>
                  <code>{JSON.stringify(run.wait)}</code>
                </dd>
              </>
            )}
          </dl>
          {children.length > 0 && <ChildRuns record={record} nodeId={nodeId} />}
          {run.error && (
            <section className="exec-error" role="alert" aria-label="Node error">
              <h3>Error</h3>
              <code>{run.error.code}</code> {run.error.message}
            </section>
          )}
          <section>
            <h3>Input</h3>
            {input.trigger ? <p className="muted">The execution's input.</p> : input.from.length ? <p className="muted">From {input.from.join(', ')}.</p> : null}
            <ValueView value={input.value} label="Input" download={input.trigger ? { executionId: record.id, nodeId: '$input' } : input.from.length === 1 ? { executionId: record.id, nodeId: input.from[0] } : undefined} />
          </section>
          <section>
            <h3>Output</h3>
            <ValueView value={run.data} label="Output" download={{ executionId: record.id, nodeId }} />
          </section>
          <section>
            <h3>Logs</h3>
            {run.logs?.length ? (
              <ol className="exec-logs" aria-label="Logs">
                {run.logs.map((l, i) => (
                  <li key={i} className={`log-${l.level}`}>
                    <span className="muted">{when(l.at)}</span> <strong>{l.level}</strong> {l.message}
                    {l.data !== undefined && <pre className="value-text">{JSON.stringify(l.data, null, 2)}</pre>}
                  </li>
                ))}
              </ol>
            ) : (
              <p className="muted">none</p>
            )}
          </section>
        </>
      )}
    </aside>
  );
}
