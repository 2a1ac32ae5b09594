import { useEffect, useRef, useState } from 'react';
import { API, ApiError, seg } from '../api.js';

/** The preview's page as last seen: an object URL of its PNG and the page version it shows. */
export interface Screenshot {
  src: string;
  version: number;
  /** When the page showed this version (this page's clock). */
  at: number;
}

/** How long to wait before asking again after the host did not answer at all. */
const RETRY_MS = 2000;

/** The error document of a failed answer (`{error: {code, message, hints}}`), as api.ts reads it for JSON calls. */
async function answerError(res: Response): Promise<ApiError> {
  const e = (await res.json().catch(() => null))?.error ?? {};
  return new ApiError(res.status, e.code ?? `HTTP_${res.status}`, e.message ?? `the screenshot answered ${res.status}`, e.details, e.hints);
}

const pause = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
});

/**
 * Follows the preview's page of interface `id` while `on`: the first screenshot at once, then a long poll
 * (`?after=<version>`, docs/api.md "Interface previews") that the host answers as soon as the page changes, from
 * this page or from `weir click|type|eval|nav`. Stops with the error when the preview stops (409).
 */
export function useScreenshots(id: string, on: boolean): { shot: Screenshot | null; error?: ApiError } {
  const [shot, setShot] = useState<Screenshot | null>(null);
  const [error, setError] = useState<ApiError>();
  // Object URLs made, oldest first. One is revoked only once a newer one is on screen: revoked while an <img>
  // still shows it, the page's element would point at nothing until React draws the next.
  const made = useRef<string[]>([]);
  useEffect(() => {
    if (!on) return;
    const ctl = new AbortController();
    const { signal } = ctl;
    setError(undefined);
    (async () => {
      let version: number | undefined;
      while (!signal.aborted) {
        let res: Response;
        try {
          res = await fetch(`${API}/interfaces/${seg(id)}/preview/screenshot${version === undefined ? '' : `?after=${version}`}`, { signal, credentials: 'same-origin' });
        } catch (err) {
          if (signal.aborted) return;
          setError(new ApiError(0, 'NETWORK', `the host did not answer (${(err as Error).message})`));
          await pause(RETRY_MS, signal);
          continue;
        }
        if (!res.ok) {
          const failed = await answerError(res);
          if (signal.aborted) return;
          setError(failed);
          // 503: the preview did not answer the host (it was stopping, or busy): asked again, a stopped one
          // answers 409, which ends the following like any other refusal.
          if (res.status !== 503) return;
          await pause(RETRY_MS, signal);
          continue;
        }
        const next = Number(res.headers.get('x-webview-version'));
        // A long poll that waited in vain answers the same version: nothing to redraw.
        if (next === version) {
          await res.body?.cancel();
          continue;
        }
        const blob = await res.blob();
        if (signal.aborted) return;
        version = next;
        const src = URL.createObjectURL(blob);
        made.current.push(src);
        setError(undefined);
        setShot({ src, version: next, at: Date.now() });
      }
    })().catch((err) => !signal.aborted && setError(new ApiError(0, 'CLIENT', (err as Error).message)));
    return () => ctl.abort();
  }, [id, on]);
  useEffect(() => {
    const older = made.current.indexOf(shot?.src ?? '');
    for (const src of made.current.splice(0, Math.max(older, 0))) URL.revokeObjectURL(src);
  }, [shot?.src]);
  // The images' memory goes with the view.
  useEffect(() => () => made.current.forEach((src) => URL.revokeObjectURL(src)), []);
  return { shot, error };
}
