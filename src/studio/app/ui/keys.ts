import { useEffect } from 'react';
import { useLatest } from './hooks.js';

/**
 * True when a key press belongs to what has the focus — a text field, a select, an open dialog — or carries a
 * modifier, so single-key page shortcuts (`/`, `n`) leave typing and the browser's own shortcuts alone.
 */
export function belongsToFocus(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return true;
  const el = e.target as HTMLElement | null;
  if (!el?.closest) return false;
  return !!el.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="dialog"]') || !!document.querySelector('[role="dialog"]');
}

/**
 * Single-key shortcuts of a page while it is shown: `usePageKeys({ '/': focusSearch, n: create })`. A key
 * typed into a field or a dialog is not a shortcut.
 */
export function usePageKeys(keys: Record<string, () => void>): void {
  const latest = useLatest(keys);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const run = latest.current[e.key];
      if (!run || belongsToFocus(e)) return;
      e.preventDefault();
      run();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [latest]);
}
