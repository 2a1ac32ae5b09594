import { useCallback, useEffect, useState } from 'react';
import type { ApiError } from '../api.js';
import { asApiError } from '../ui/hooks.js';

/**
 * `fn()` now and every `ms` after its last answer while `deps` stay the same, and at once on `reload()`; keeps
 * the last value through a failed round (the error is reported until the next success).
 */
export function usePolled<T>(fn: (signal: AbortSignal) => Promise<T>, ms: number, deps: unknown[]): { value?: T; error?: ApiError; reload(): void } {
  const [state, setState] = useState<{ value?: T; error?: ApiError }>({});
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const round = () =>
      fn(ctl.signal)
        .then(
          (value) => !ctl.signal.aborted && setState({ value }),
          (error) => !ctl.signal.aborted && setState((s) => ({ value: s.value, error: asApiError(error) })),
        )
        .finally(() => {
          if (!ctl.signal.aborted) timer = setTimeout(round, ms);
        });
    round();
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { ...state, reload };
}
