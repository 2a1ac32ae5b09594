import { useCallback, useEffect, useState } from 'react';
import { api, ApiError, follow, seg } from '../api.js';
import { asApiError } from '../ui/hooks.js';
import { applyEvent, isGoing, MAX_VALUE_BYTES, type Inspected } from './record.js';

export interface LiveExecution {
  record?: Inspected;
  error?: ApiError;
  /** Replaces the record (an action's answer). */
  set(record: Inspected): void;
  reload(): void;
}

const load = (id: string, signal?: AbortSignal) => api.get<Inspected>(`/executions/${seg(id)}?maxValueBytes=${MAX_VALUE_BYTES}`, signal);

/**
 * One execution, its large values cut, kept live while it can change: node and execution events of its stream
 * update statuses as they come, and each `execution:end` (a wait, or the end) reloads the record for the data.
 */
export function useExecution(id: string): LiveExecution {
  const [record, setRecord] = useState<Inspected>();
  const [error, setError] = useState<ApiError>();
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const ctl = new AbortController();
    let stop: (() => void) | undefined;
    const refetch = () =>
      load(id, ctl.signal).then(
        (r) => !ctl.signal.aborted && setRecord(r),
        (err) => !ctl.signal.aborted && setError(asApiError(err)),
      );
    setError(undefined);
    load(id, ctl.signal).then(
      (first) => {
        if (ctl.signal.aborted) return;
        setRecord(first);
        if (!isGoing(first.status)) return;
        stop = follow(`/executions/${seg(id)}/events`, (name, data) => {
          setRecord((r) => (r ? applyEvent(r, name, data) : r));
          const ended = (name === 'execution:end' || name === 'snapshot') && !isGoing(data.status);
          if (name === 'execution:end' || ended) void refetch();
          // The host ends the stream with the execution; stopping here keeps the browser from reconnecting.
          if (ended) stop?.();
        });
      },
      (err) => !ctl.signal.aborted && setError(asApiError(err)),
    );
    return () => {
      ctl.abort();
      stop?.();
    };
  }, [id, tick]);

  return { record: record?.id === id ? record : undefined, error, set: setRecord, reload: useCallback(() => setTick((t) => t + 1), []) };
}
