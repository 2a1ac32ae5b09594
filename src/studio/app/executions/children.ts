import { useEffect, useState } from 'react';
import { api, ApiError, seg } from '../api.js';
import type { ErrorInfo, ExecutionPage, ExecutionRecord, ExecutionStatus } from '../types.js';
import { asApiError } from '../ui/hooks.js';
import { isGoing, type Inspected } from './record.js';

// The executions one execution started (a foreach's sub-flow runs, a call_flow's child), each with its status.
// The record lists only their ids, so their statuses come from the listing of their flow's executions: pages
// of 500, newest first, read back to this execution's start (a child starts after its parent), so a foreach of
// 200 costs one request rather than 200.

/** One child as its list shows it. */
export interface ChildRun {
  id: string;
  workflowId: string;
  nodeId: string;
  /** Null when its record is gone (pruned). */
  status: ExecutionStatus | null;
  startedAt: string | null;
  finishedAt: string | null;
  error?: ErrorInfo;
  /** The item index of a foreach run (its input's `index`), when its input came whole. */
  index?: number;
}

/** What the listing reads of each child: the input small enough to hold `{item, index}` whole most times. */
const VALUE_BYTES = 1024;
const LISTED = 500;
/** Children fetched one by one (those the listing did not reach) at once. */
const ONE_BY_ONE = 8;
/** How often the list is read again while the parent runs (its children start and end without its events). */
const POLL_MS = 2000;
/** The same while it waits (a sub-flow's `wait` node may hold it for days). */
const WAITING_POLL_MS = 10_000;

function indexOf(input: unknown): number | undefined {
  const index = (input as { index?: unknown } | null)?.index;
  return typeof index === 'number' ? index : undefined;
}

const statusOf = (r: ExecutionRecord) => ({ status: r.status, startedAt: r.startedAt, finishedAt: r.finishedAt, error: r.error, index: indexOf(r.input) });

type Found = Map<string, ReturnType<typeof statusOf> | null>;

/** Reads the listing of one flow's executions back to `since` or until every id is found. */
async function scan(workflowId: string, ids: Set<string>, since: string, found: Found, signal: AbortSignal): Promise<void> {
  let cursor: string | null = null;
  let missing = ids.size;
  do {
    const page: ExecutionPage = await api.get(`/executions?workflow=${seg(workflowId)}&limit=${LISTED}&maxValueBytes=${VALUE_BYTES}${cursor ? `&cursor=${seg(cursor)}` : ''}`, signal);
    for (const r of page.items) {
      if (!ids.has(r.id) || found.has(r.id)) continue;
      found.set(r.id, statusOf(r));
      missing--;
    }
    const oldest = page.items.at(-1);
    if (!oldest || oldest.startedAt < since) break;
    cursor = page.nextCursor;
  } while (cursor && missing > 0);
}

/** Gets each of `ids` by itself, a few at a time; a gone record (404) is null. */
async function getEach(ids: string[], found: Found, signal: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      try {
        found.set(id, statusOf(await api.get<ExecutionRecord>(`/executions/${seg(id)}?maxValueBytes=${VALUE_BYTES}`, signal)));
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
        found.set(id, null);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ONE_BY_ONE, ids.length) }, worker));
}

/** The children of `record` with their statuses, in the order they started. */
export async function loadChildRuns(record: Inspected, signal: AbortSignal): Promise<ChildRun[]> {
  const children = record.children ?? [];
  const byFlow = new Map<string, Set<string>>();
  for (const c of children) (byFlow.get(c.workflowId) ?? byFlow.set(c.workflowId, new Set()).get(c.workflowId)!).add(c.executionId);
  const found: Found = new Map();
  await Promise.all([...byFlow].map(([workflowId, ids]) => scan(workflowId, ids, record.startedAt, found, signal)));
  // Children that started before this execution did (a retry lists the ones of the run it retries).
  await getEach(children.filter((c) => !found.has(c.executionId)).map((c) => c.executionId), found, signal);
  return children.map((c) => ({ id: c.executionId, workflowId: c.workflowId, nodeId: c.nodeId, ...(found.get(c.executionId) ?? { status: null, startedAt: null, finishedAt: null }) }));
}

/** The children of the execution `id`, its record read again first (a running one lists more as they start). */
async function loadFresh(id: string, signal: AbortSignal): Promise<ChildRun[]> {
  return loadChildRuns(await api.get<Inspected>(`/executions/${seg(id)}?maxValueBytes=0`, signal), signal);
}

/**
 * The children of `record` with their statuses, read again when it lists more or its status changes, and
 * every 2 s while it runs, 10 s while it waits (with its record, for the children started meanwhile).
 */
export function useChildRuns(record: Inspected): { runs?: ChildRun[]; error?: ApiError } {
  const [state, setState] = useState<{ of: string; runs?: ChildRun[]; error?: ApiError }>({ of: record.id });
  const count = record.children?.length ?? 0;
  const every = !isGoing(record.status) ? null : record.status === 'waiting' ? WAITING_POLL_MS : POLL_MS;
  useEffect(() => {
    if (!count) return;
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let first = true;
    const read = () =>
      (first ? loadChildRuns(record, ctl.signal) : loadFresh(record.id, ctl.signal)).then(
        (runs) => !ctl.signal.aborted && setState({ of: record.id, runs }),
        (err) => !ctl.signal.aborted && setState((s) => ({ ...s, of: record.id, error: asApiError(err) })),
      ).finally(() => {
        first = false;
        if (every && !ctl.signal.aborted) timer = setTimeout(read, every);
      });
    void read();
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [record.id, count, record.status]);
  return state.of === record.id ? state : {};
}
