import { useRef, type KeyboardEvent } from 'react';
import type { ExecutionStatus } from '../types.js';
import { duration, ErrorNote, Status, when } from '../ui/parts.js';
import { queuedRule } from './QueuedNote.js';
import { useQueuedSettings } from './queuedSettings.js';
import { spanMs } from './record.js';
import type { ExecutionList as List, ExecutionRow } from './listing.js';

const STATUSES: ExecutionStatus[] = ['running', 'waiting', 'queued', 'success', 'error', 'cancelled', 'debounced'];

/** The status filter of an executions list: any, or one status. */
export function StatusFilter({ value, onChange }: { value?: ExecutionStatus; onChange(status?: ExecutionStatus): void }) {
  return (
    <label className="exec-filter">
      Status{' '}
      <select aria-label="Status" value={value ?? ''} onChange={(e) => onChange((e.target.value || undefined) as ExecutionStatus | undefined)}>
        <option value="">any</option>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A page of executions as a table: arrow keys move between rows (one tab stop for the list), Enter or a click
 * opens one; "Load more" fetches the next page. A queued row says why it waits, with the numbers of its flow's
 * rule (its flow's settings are read once it shows one).
 */
export function ExecutionTable({ list, openId, onOpen, showFlow }: { list: List; openId?: string; onOpen(row: ExecutionRow): void; showFlow?: boolean }) {
  const settingsOf = useQueuedSettings(list.rows);
  const body = useRef<HTMLTableSectionElement>(null);
  const focusRow = (index: number) => {
    const rows = body.current?.querySelectorAll<HTMLTableRowElement>('tr');
    if (!rows?.length) return;
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    for (const r of rows) r.tabIndex = r === row ? 0 : -1;
    row.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: list.rows.length - 1, PageDown: index + 10, PageUp: index - 10 };
    if (e.key in moves) {
      e.preventDefault();
      focusRow(moves[e.key]);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onOpen(list.rows[index]);
    }
  };
  const openIndex = list.rows.findIndex((r) => r.id === openId);
  const stop = openIndex >= 0 ? openIndex : 0;
  return (
    <div className="exec-list">
      <ErrorNote error={list.error} title="Could not load the executions" />
      <table className="list exec-table" aria-label="Executions" aria-busy={list.loading}>
        <thead>
          <tr>
            <th>Status</th>
            {showFlow && <th>Flow</th>}
            <th>Started</th>
            <th>Took</th>
          </tr>
        </thead>
        <tbody ref={body}>
          {list.rows.map((r, i) => (
            <tr
              key={r.id}
              className="exec-row"
              data-execution-id={r.id}
              tabIndex={i === stop ? 0 : -1}
              aria-current={r.id === openId ? 'true' : undefined}
              onClick={() => onOpen(r)}
              onKeyDown={(e) => onKey(e, i)}
            >
              <td>
                <Status value={r.status} />
              </td>
              {showFlow && <td>{r.workflowName}</td>}
              <td className="exec-id">
                {when(r.startedAt)}
                {r.draft && <span className="muted"> · draft</span>}
                <br />
                <code>{r.id}</code>
                {r.error && <div className="exec-row-error">{r.error.message}</div>}
                {r.status === 'queued' && r.queuedFor && <div className="muted exec-row-queued">{queuedRule(r.queuedFor, settingsOf(r))}</div>}
                {r.debouncedInto && <div className="muted exec-row-queued">Collapsed into {r.debouncedInto}</div>}
                {r.status === 'waiting' && r.approvalOf && <div className="muted exec-row-queued">Waiting for approval of {r.approvalOf}</div>}
              </td>
              <td className="exec-took">{duration(spanMs(r.startedAt, r.finishedAt))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!list.loading && !list.error && list.rows.length === 0 && <p className="empty">No executions{list.more ? '' : ' yet'}.</p>}
      <div className="exec-more">
        {list.more && (
          <button onClick={list.loadMore} disabled={list.loading}>
            Load more
          </button>
        )}
        {list.loading && <span className="muted">Loading…</span>}
      </div>
    </div>
  );
}

