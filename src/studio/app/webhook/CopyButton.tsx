import { useEffect, useState } from 'react';

/**
 * Copies `text` to the clipboard and says "Copied" for two seconds. Where the browser refuses (a page served
 * over plain HTTP from another machine is not a secure context), `onRefused` selects the text for Ctrl+C instead.
 */
export function CopyButton({ text, label, onRefused }: { text: string; label: string; onRefused(): void }) {
  const [state, setState] = useState<'idle' | 'copied' | 'refused'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard in this page');
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('refused');
      onRefused();
    }
  }
  return (
    <>
      <button onClick={copy} aria-label={label}>
        {state === 'copied' ? 'Copied' : 'Copy'}
      </button>
      {/* "Copied" is said to screen readers only: the button shows it, and the URL field keeps its width. */}
      <span role="status" className={state === 'refused' ? 'muted' : 'sr-only'}>
        {state === 'copied' ? 'Copied to the clipboard' : state === 'refused' ? 'The browser refused the clipboard: the URL is selected, press Ctrl+C' : ''}
      </span>
    </>
  );
}
