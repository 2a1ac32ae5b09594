import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, follow, seg } from '../api.js';
import type { ErrorInfo, ExecutionPage, ExecutionRecord, ExecutionStatus } from '../types.js';
import { asApiError } from '../ui/hooks.js';
import { waitingApproval } from './ApprovalNote.js';

/** One row of an executions list: what the list shows, without the record's data. */
export interface ExecutionRow {
  id: string;
  workflowId: string;
  workflowName: string;
  status: ExecutionStatus;
  trigger: string;
  startedAt: string;
  finishedAt: string | null;
  error?: ErrorInfo;
  draft?: true;
  queuedFor?: ExecutionRecord['queuedFor'];
  debouncedInto?: string;
  /** Of one waiting for an approval: the tool whose call waits. */
  approvalOf?: string;
}

const rowOf = (r: ExecutionRecord): ExecutionRow => ({
  id: r.id,
  workflowId: r.workflowId,
  workflowName: r.workflowName,
  status: r.status,
  trigger: r.trigger,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
  error: r.error,
  draft: r.draft,
  queuedFor: r.queuedFor,
  debouncedInto: r.debouncedInto,
  approvalOf: waitingApproval(r)?.tool,
});

/** Values larger than this are cut in a listed record (the list shows none; the inspector loads its own). */
const LIST_VALUE_BYTES = 1024;

/** Rows per page: one screen, and one cheap page of the API even at 100,000 executions. */
export const PAGE_SIZE = 50;

export interface ExecutionList {
  rows: ExecutionRow[];
  /** Whether a next page exists. */
  more: boolean;
  loading: boolean;
  error?: ApiError;
  loadMore(): void;
  reload(): void;
}

/**
 * The executions of one flow (or of all), newest first, of one status (or any), one page at a time (cursor
 * pagination: nothing counts them all). With `live`, the flow's event stream adds and updates rows as
 * executions start and end.
 */
export function useExecutionList({ workflowId, status, live }: { workflowId?: string; status?: ExecutionStatus; live?: boolean }): ExecutionList {
  const [rows, setRows] = useState<ExecutionRow[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError>();
  const [generation, setGeneration] = useState(0);
  const pending = useRef<AbortController | null>(null);
  // While a first page is being read: the stream's events since it was asked for (it may have been read before them).
  const streamed = useRef<Array<{ name: string; data: unknown }> | null>(null);

  const query = useCallback(
    (after: string | null) => {
      // The list shows no values: large ones stay on the host, so a page stays small whatever the flows carry.
      const q = new URLSearchParams({ limit: String(PAGE_SIZE), maxValueBytes: String(LIST_VALUE_BYTES) });
      if (workflowId) q.set('workflow', workflowId);
      if (status) q.set('status', status);
      if (after) q.set('cursor', after);
      return `/executions?${q}`;
    },
    [workflowId, status],
  );

  const load = useCallback(
    (after: string | null) => {
      pending.current?.abort();
      const ctl = new AbortController();
      pending.current = ctl;
      setLoading(true);
      if (!after) streamed.current = [];
      const events = streamed.current;
      api.get<ExecutionPage>(query(after), ctl.signal).then(
        (page) => {
          if (ctl.signal.aborted) return;
          const got = page.items.map(rowOf);
          // A first page takes the events that came while it was read on top (each event's row as it left it).
          const first = after ? got : events!.reduce((rows, e) => applyListEvent(rows, e.name, e.data, status), got);
          if (!after) streamed.current = null;
          setRows((before) => (after ? [...before, ...got.filter((r) => !before.some((b) => b.id === r.id))] : first));
          setCursor(page.nextCursor);
          setError(undefined);
          setLoading(false);
        },
        (err) => {
          if (ctl.signal.aborted) return;
          if (!after) streamed.current = null;
          setError(asApiError(err));
          setLoading(false);
        },
      );
    },
    [query, status],
  );

  useEffect(() => {
    setRows([]);
    setCursor(null);
    load(null);
    return () => pending.current?.abort();
  }, [load, generation]);

  // A new stream carries what happens from when it opens: the first page is read again then, so a run that
  // started and ended between the first read and the stream's opening is listed too.
  useEffect(() => {
    if (!live || !workflowId) return;
    const onEvent = (name: string, data: unknown) => {
      streamed.current?.push({ name, data });
      setRows((before) => applyListEvent(before, name, data, status));
    };
    return follow(`/workflows/${seg(workflowId)}/events`, onEvent, () => load(null));
  }, [live, workflowId, status, load]);

  return {
    rows,
    more: cursor !== null,
    loading,
    error,
    loadMore: () => cursor && !loading && load(cursor),
    reload: () => setGeneration((g) => g + 1),
  };
}

/**
 * The rows after an event of the flow's stream: a start adds a running row on top, an end updates its row
 * (or adds it, when it started before the page opened); only rows of the shown status are added.
 */
export function applyListEvent(rows: ExecutionRow[], name: string, data: any, status?: ExecutionStatus): ExecutionRow[] {
  if (name === 'snapshot') return (data.items as ExecutionRecord[]).reduceRight((acc, r) => upsert(acc, rowOf(r), status), rows);
  if (name !== 'execution:start' && name !== 'execution:end') return rows;
  const row: ExecutionRow = {
    id: data.executionId,
    workflowId: data.workflowId,
    workflowName: data.workflowName,
    status: name === 'execution:start' ? 'running' : data.status,
    trigger: data.trigger,
    startedAt: data.startedAt,
    finishedAt: data.finishedAt ?? null,
    error: data.error,
    // An event does not say what an execution waits for: a tool read before is not shown for a later wait.
    approvalOf: undefined,
  };
  return upsert(rows, row, status);
}

function upsert(rows: ExecutionRow[], row: ExecutionRow, status?: ExecutionStatus): ExecutionRow[] {
  const at = rows.findIndex((r) => r.id === row.id);
  if (at >= 0) return rows.map((r, i) => (i === at ? { ...r, ...row, draft: r.draft } : r));
  if (status && row.status !== status) return rows;
  // Newest first: a row goes above the first one that started before it.
  const before = rows.findIndex((r) => r.startedAt < row.startedAt);
  return before < 0 ? [...rows, row] : [...rows.slice(0, before), row, ...rows.slice(before)];
}
