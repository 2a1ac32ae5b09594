import { useEffect, useImperativeHandle, useRef, useState, type KeyboardEvent, type MouseEvent, type Ref } from 'react';
import { href } from '../route.js';
import type { SyncStatus, WorkflowOverview } from '../types.js';
import { Status, ago, when } from '../ui/parts.js';

/** What each sync status means, shown on hover over its pill. */
const SYNC_HELP: Record<SyncStatus, string> = {
  draft: 'never published',
  synced: 'the published copy is this draft',
  dirty: 'the draft has changes that are not published',
  conflict: 'changed here while a newer version was published elsewhere',
};

export interface FlowListProps {
  flows: WorkflowOverview[];
  onOpen(flow: WorkflowOverview): void;
  onRename(flow: WorkflowOverview): void;
  onDelete(flow: WorkflowOverview): void;
  ref?: Ref<FlowListHandle>;
}

/** What the page may ask of the list: focus its current row (the search box's ArrowDown does). */
export interface FlowListHandle {
  focus(): void;
}

/**
 * The flows as a table whose rows are one Tab stop: arrows, Home and End move between rows, Enter opens, F2
 * renames, Delete deletes; the current row's buttons follow it in the Tab order. A click on a row opens it.
 */
export function FlowList({ flows, onOpen, onRename, onDelete, ref }: FlowListProps) {
  // The current row is a flow, not a place: a rename that re-sorts the list keeps it. When it goes (deleted,
  // filtered out), the row now at its place is current.
  const [activeId, setActiveId] = useState<string | null>(null);
  const lastIndex = useRef(0);
  const found = flows.findIndex((f) => f.id === activeId);
  const current = found >= 0 ? found : Math.min(lastIndex.current, Math.max(0, flows.length - 1));
  lastIndex.current = current;
  const body = useRef<HTMLTableSectionElement>(null);
  const focusRow = (i: number) => {
    setActiveId(flows[i]?.id ?? null);
    body.current?.querySelectorAll<HTMLElement>('tr')[i]?.focus();
  };
  useImperativeHandle(ref, () => ({ focus: () => focusRow(current) }), [current]);
  // A row that goes (deleted, or filtered out) while it has the focus leaves the focus nowhere: the list takes
  // it back on its current row, so a keyboard user keeps their place.
  const hadFocus = useRef(false);
  useEffect(() => {
    if (hadFocus.current && document.activeElement === document.body) focusRow(current);
  }, [flows]);

  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, i: number, flow: WorkflowOverview) => {
    // Keys typed on a row's own button or link act on that control.
    if (e.target !== e.currentTarget) return;
    const move: Record<string, number> = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: flows.length - 1, PageDown: i + 10, PageUp: i - 10 };
    if (e.key in move) focusRow(Math.max(0, Math.min(flows.length - 1, move[e.key])));
    else if (e.key === 'Enter') onOpen(flow);
    else if (e.key === 'F2') onRename(flow);
    else if (e.key === 'Delete') onDelete(flow);
    else return;
    e.preventDefault();
  };
  const onClick = (e: MouseEvent, flow: WorkflowOverview) => {
    setActiveId(flow.id);
    if (!(e.target as HTMLElement).closest('a, button')) onOpen(flow);
  };

  return (
    <table className="list flows" aria-label="Flows">
      <thead>
        <tr>
          <th>Name</th>
          <th>Trigger</th>
          <th>Status</th>
          <th>Last execution</th>
          <th title="executions that failed in the last 24 hours">Errors (24 h)</th>
          <th>
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody
        ref={body}
        onFocus={() => (hadFocus.current = true)}
        onBlur={(e) => {
          if (e.relatedTarget && !body.current!.contains(e.relatedTarget)) hadFocus.current = false;
        }}
      >
        {flows.map((f, i) => {
          const tab = i === current ? 0 : -1;
          return (
            <tr key={f.id} tabIndex={tab} className={i === current ? 'current' : undefined} onKeyDown={(e) => onKeyDown(e, i, f)} onClick={(e) => onClick(e, f)} onFocus={() => setActiveId(f.id)}>
              <td>
                <a href={href(['flows', f.id])} tabIndex={-1} className="flow-name">
                  {f.name}
                </a>
                {f.description && <div className="muted">{f.description}</div>}
              </td>
              <td>{f.trigger ? <code>{f.trigger}</code> : '—'}</td>
              <td title={SYNC_HELP[f.status]}>
                <Status value={f.status} />
              </td>
              <td>
                {f.lastExecution ? (
                  <a href={href(['flows', f.id, 'executions', f.lastExecution.id])} tabIndex={tab} title={`started ${when(f.lastExecution.startedAt)}`} aria-label={`last execution: ${f.lastExecution.status}, ${ago(f.lastExecution.startedAt)}`}>
                    <Status value={f.lastExecution.status} /> <span className="muted">{ago(f.lastExecution.startedAt)}</span>
                  </a>
                ) : (
                  <span className="muted">never run</span>
                )}
              </td>
              <td className={f.errors24h ? 'errors' : 'muted'}>{f.errors24h}</td>
              <td className="row-actions">
                <button tabIndex={tab} aria-label={`Rename ${f.name}`} title="Rename (F2)" onClick={() => onRename(f)}>
                  Rename
                </button>
                <button tabIndex={tab} className="danger" aria-label={`Delete ${f.name}`} title="Delete (Del)" onClick={() => onDelete(f)}>
                  Delete
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
