import { href } from '../route.js';
import type { Inspected } from './record.js';

/** A link to an execution: within its flow when the flow is known, else on the executions page. */
export const executionHref = (id: string, workflowId?: string) => href(workflowId ? ['flows', workflowId, 'executions', id] : ['executions', id]);

/** Children named here one by one; more are only counted (the run summary pages through them). */
const INLINE = 3;

/**
 * How the execution relates to others: the one that started it (a `call_flow` node's run) and the ones it
 * started, the one it retries or reruns. Each is a link, so parent and child lead to each other.
 */
export function Lineage({ record }: { record: Inspected }) {
  const children = record.children ?? [];
  if (!record.parentExecutionId && !children.length && !record.retryOf && !record.rerunOf) return null;
  return (
    <nav className="exec-lineage" aria-label="Related executions">
      {record.parentExecutionId && (
        <span>
          Started by <a href={executionHref(record.parentExecutionId)}>{record.parentExecutionId}</a>
          {record.parentNodeId && <span className="muted"> (node {record.parentNodeId})</span>}
        </span>
      )}
      {children.length > 0 && children.length <= INLINE && (
        <span>
          Started{' '}
          {children.map((c, i) => (
            <span key={c.executionId}>
              {i > 0 && ', '}
              <a href={executionHref(c.executionId, c.workflowId)}>{c.executionId}</a>
              <span className="muted"> (node {c.nodeId})</span>
            </span>
          ))}
        </span>
      )}
      {children.length > INLINE && <span>Started {children.length} executions (listed beside the graph)</span>}
      {record.retryOf && (
        <span>
          Retries <a href={executionHref(record.retryOf, record.workflowId)}>{record.retryOf}</a>
        </span>
      )}
      {record.rerunOf && (
        <span>
          Reruns <a href={executionHref(record.rerunOf, record.workflowId)}>{record.rerunOf}</a>
        </span>
      )}
    </nav>
  );
}
