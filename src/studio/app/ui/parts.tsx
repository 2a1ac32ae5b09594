import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import { useLatest } from './hooks.js';
import type { ApiError } from '../api.js';

/** A status word drawn as a colored pill (`success`, `error`, `running`, `dirty`...). */
export function Status({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="status status-none">—</span>;
  return <span className={`status status-${value}`}>{value}</span>;
}

/** An API error with its hints, where the failed action was. */
export function ErrorNote({ error, title }: { error: ApiError | undefined; title?: string }) {
  if (!error) return null;
  return (
    <div className="error-note" role="alert">
      <strong>{title ?? 'Error'}</strong> <code>{error.code}</code> {error.message}
      {error.hints?.length ? (
        <ul>
          {error.hints.map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/**
 * A dialog over the page; Escape or the backdrop closes it. It takes the focus (its first field, unless a child
 * took it with `autoFocus`), keeps Tab inside, and gives the focus back to where it was when it closes.
 */
export function Modal({ title, onClose, children }: { title: string; onClose(): void; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const close = useLatest(onClose);
  // Read while rendering: by the time effects run, a field's `autoFocus` has already moved the focus.
  const [before] = useState(() => document.activeElement as HTMLElement | null);
  useEffect(() => {
    const dialog = box.current!;
    if (!dialog.contains(document.activeElement)) (dialog.querySelector<HTMLElement>(`.modal-body :is(${FOCUSABLE})`) ?? dialog).focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close.current();
    addEventListener('keydown', onKey);
    return () => {
      removeEventListener('keydown', onKey);
      if (before?.isConnected) before.focus();
    };
  }, [close, before]);
  const trapTab = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Tab') return;
    const all = [...box.current!.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const wrapTo = e.shiftKey ? (document.activeElement === all[0] ? all.at(-1) : null) : document.activeElement === all.at(-1) ? all[0] : null;
    if (!wrapTo) return;
    e.preventDefault();
    wrapTo.focus();
  };
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-label={title} ref={box} tabIndex={-1} onKeyDown={trapTab}>
        <header>
          <h2>{title}</h2>
          <button className="icon" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        <div className="modal-body">{children}</div>
      </div>
    </div>
  );
}

/** Milliseconds as people read them: `42 ms`, `1.3 s`, `2 min 5 s`. */
export function duration(ms: number | null | undefined): string {
  if (ms == null || Number.isNaN(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A time as `14:03:22` today, else with its date. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString() : d.toLocaleString();
}

/** How long ago a time was, as people say it: `just now`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const s = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}
