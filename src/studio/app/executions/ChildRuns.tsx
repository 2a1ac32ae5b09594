import { useMemo, useState } from 'react';
import type { ExecutionStatus } from '../types.js';
import { duration, ErrorNote, Status } from '../ui/parts.js';
import { useChildRuns, type ChildRun } from './children.js';
import { executionHref } from './Lineage.js';
import { spanMs, type Inspected } from './record.js';

/** Rows per page: a foreach of 10,000 runs stays a short table. */
const PER_PAGE = 20;

const WORDS: Partial<Record<ExecutionStatus, string>> = { success: 'succeeded', error: 'failed' };

/** "200 started: 196 succeeded, 4 failed" (statuses in order of how many). */
function tally(runs: ChildRun[] | undefined, total: number): string {
  if (!runs) return `${total} started`;
  const counts = new Map<string, number>();
  for (const r of runs) counts.set(r.status ?? 'gone', (counts.get(r.status ?? 'gone') ?? 0) + 1);
  const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([s, n]) => `${n} ${WORDS[s as ExecutionStatus] ?? s}`);
  return `${total} started: ${parts.join(', ')}`;
}

/**
 * The executions this one started (all, or node `nodeId`'s): how many and how they ended, then a page of them
 * at a time, each with its status, item index, duration and error, linking to it (its page links back).
 */
export function ChildRuns({ record, nodeId }: { record: Inspected; nodeId?: string }) {
  const { runs, error } = useChildRuns(record);
  const [status, setStatus] = useState<string>('');
  const [page, setPage] = useState(0);
  const mine = useMemo(() => (runs ?? []).filter((r) => !nodeId || r.nodeId === nodeId), [runs, nodeId]);
  // The loaded list may know children the record does not yet (a running foreach starts more).
  const total = runs ? mine.length : (record.children ?? []).filter((c) => !nodeId || c.nodeId === nodeId).length;
  if (!total) return null;
  const shown = status ? mine.filter((r) => (r.status ?? 'gone') === status) : mine;
  const pages = Math.max(1, Math.ceil(shown.length / PER_PAGE));
  const at = Math.min(page, pages - 1);
  const rows = shown.slice(at * PER_PAGE, (at + 1) * PER_PAGE);
  const statuses = [...new Set(mine.map((r) => r.status ?? 'gone'))];
  return (
    <section className="exec-children" aria-label="Started executions">
      <h3>Started executions</h3>
      <p className="exec-children-count">{tally(runs && mine, total)}</p>
      <ErrorNote error={error} title="Could not load their statuses" />
      <div className="exec-children-tools">
        {runs && total > 1 && (
          <label className="exec-filter">
            Status{' '}
            <select
              aria-label="Status of started executions"
              value={status}
              onChange={(e) => {
                setStatus(e.target.value);
                setPage(0);
              }}
            >
              <option value="">any</option>
              {statuses.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
        )}
        {pages > 1 && (
          <nav className="exec-pager" aria-label="Pages of started executions">
            <button aria-label="Previous" onClick={() => setPage(at - 1)} disabled={at === 0}>
              ‹
            </button>
            <span>
              {at * PER_PAGE + 1}–{at * PER_PAGE + rows.length} of {shown.length}
            </span>
            <button aria-label="Next" onClick={() => setPage(at + 1)} disabled={at === pages - 1}>
              ›
            </button>
          </nav>
        )}
      </div>
      <table className="list exec-children-table" aria-label="Started executions">
        <tbody>
          {(runs ? rows : []).map((r) => (
            <tr key={r.id}>
              <td className="muted exec-item">{r.index !== undefined ? `item ${r.index}` : ''}</td>
              <td>{r.status ? <Status value={r.status} /> : <span className="muted">gone</span>}</td>
              <td className="exec-took">{duration(spanMs(r.startedAt, r.finishedAt))}</td>
              <td className="exec-id">
                <a href={executionHref(r.id, r.workflowId)} title={r.id}>
                  {r.id}
                </a>
                {r.error && (
                  <div className="exec-row-error" title={r.error.message}>
                    {r.error.message}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!runs && !error && <p className="muted">Loading…</p>}
    </section>
  );
}
