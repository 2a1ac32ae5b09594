import { useCallback, useEffect, useState } from 'react';
import { api, seg, type ApiError } from '../api.js';
import { asApiError, useLatest } from '../ui/hooks.js';
import type { CaptureStatus, WebhookFormat } from './types.js';

/** How often the page asks the host whether a request arrived while listening. */
const POLL_MS = 1000;

/** The capture session of a flow as the panel drives it: its state, the listening deadline, and the actions. */
export interface Capture {
  /** The session as the host last told it; null before its first answer. */
  status: CaptureStatus | null;
  /** When the listening window closes, on this page's clock (null unless listening). */
  deadline: number | null;
  error?: ApiError;
  /** An action is under way (its buttons are disabled). */
  busy: boolean;
  listen(): void;
  accept(): void;
  decline(): void;
}

/**
 * Follows the capture session of `flowId` (CONTRACT 6): asks its state once, then every second while it listens,
 * until a request is captured or the window closes. `onAccepted` gets the format an accept saved.
 */
export function useCapture(flowId: string, onAccepted: (format: WebhookFormat) => void): Capture {
  const [status, setStatus] = useState<CaptureStatus | null>(null);
  const [deadline, setDeadline] = useState<number | null>(null);
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  // Bumped after a failed poll, so a passing network hiccup does not end the polling.
  const [retry, setRetry] = useState(0);
  const accepted = useLatest(onAccepted);
  const path = `/workflows/${seg(flowId)}/capture`;

  const apply = useCallback((s: CaptureStatus) => {
    setStatus(s);
    // The deadline is counted from the host's `secondsLeft` on this page's clock (the two clocks may differ); a
    // poll's rounded seconds only move it when the host started another window (a listen from the CLI).
    const next = s.state === 'listening' && s.secondsLeft != null ? Date.now() + s.secondsLeft * 1000 : null;
    setDeadline((d) => (d !== null && next !== null && Math.abs(d - next) < 1500 ? d : next));
  }, []);

  useEffect(() => {
    let stopped = false;
    const poll = () =>
      api.post<CaptureStatus>(`${path}/poll`).then(
        (s) => {
          if (stopped) return;
          setError(undefined);
          apply(s);
        },
        (e) => {
          if (stopped) return;
          setError(asApiError(e));
          // Only a listening session is asked again: a first answer that failed (an unknown flow) stays shown.
          if (status?.state === 'listening') setRetry((n) => n + 1);
        },
      );
    // The first answer at once; later ones a second apart while the session listens.
    if (!status) {
      poll();
      return () => void (stopped = true);
    }
    if (status.state !== 'listening') return;
    const timer = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [path, status, retry, apply]);

  const act = useCallback(
    async (name: 'listen' | 'accept' | 'decline') => {
      setBusy(true);
      setError(undefined);
      try {
        if (name === 'accept') {
          const format = await api.post<WebhookFormat & { state: 'idle' }>(`${path}/accept`);
          apply({ id: flowId, state: 'idle' });
          accepted.current(format);
        } else {
          apply(await api.post<CaptureStatus>(`${path}/${name}`));
        }
      } catch (e) {
        setError(asApiError(e));
      } finally {
        setBusy(false);
      }
    },
    [path, flowId, apply, accepted],
  );

  return { status, deadline, error, busy, listen: () => act('listen'), accept: () => act('accept'), decline: () => act('decline') };
}
