import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api.js';

/** The state of a load: its value once there, the error if it failed, and a reload. */
export interface Loaded<T> {
  value?: T;
  error?: ApiError;
  loading: boolean;
  reload(): void;
}

/** Loads `fn()` when `deps` change (the older load's answer is dropped) and on `reload()`. */
export function useLoad<T>(fn: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ value?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const ctl = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    fn(ctl.signal).then(
      (value) => !ctl.signal.aborted && setState({ value, loading: false }),
      (error) => !ctl.signal.aborted && setState((s) => ({ value: s.value, error: asApiError(error), loading: false })),
    );
    return () => ctl.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

export const asApiError = (err: unknown): ApiError => (err instanceof ApiError ? err : new ApiError(0, 'CLIENT', (err as Error)?.message ?? String(err)));

/** The latest value of `v` for callbacks that must not re-subscribe when it changes. */
export function useLatest<T>(v: T) {
  const ref = useRef(v);
  ref.current = v;
  return ref;
}
