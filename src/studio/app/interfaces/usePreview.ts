import { useCallback, useEffect, useState } from 'react';
import { api, seg, type ApiError } from '../api.js';
import { asApiError } from '../ui/hooks.js';
import type { Preview } from './types.js';

/** The preview of an interface as the page drives it: starting, running (with its URL), or failed to start. */
export interface PreviewState {
  preview: Preview | null;
  starting: boolean;
  error?: ApiError;
  /** Starts it again (after it stopped), or answers the one that runs. */
  start(): void;
}

/**
 * Starts the preview of interface `id` when the page opens it: the same detached process `weir preview <id>`
 * starts (a dev server and a headless Chromium page), or the one already running, which the CLI's webview
 * commands drive. It outlives the page: `weir preview <id> --stop` ends it.
 */
export function usePreview(id: string): PreviewState {
  const [state, setState] = useState<{ preview: Preview | null; starting: boolean; error?: ApiError }>({ preview: null, starting: true });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    setState({ preview: null, starting: true });
    api.post<Preview>(`/interfaces/${seg(id)}/preview`, {}).then(
      (preview) => current && setState({ preview, starting: false }),
      (error) => current && setState({ preview: null, starting: false, error: asApiError(error) }),
    );
    return () => void (current = false);
  }, [id, attempt]);
  const start = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, start };
}
