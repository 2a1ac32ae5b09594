import { useLayoutEffect, useRef, useState } from 'react';
import { api, seg } from '../api.js';
import { ErrorNote } from '../ui/parts.js';
import type { PreviewLogs } from './types.js';
import { usePolled } from './usePolled.js';

/** How often the logs are read again, and how many of their last lines are shown. */
const LOGS_MS = 2000;
const LINES = 200;

const SOURCES = [
  { id: 'server', title: 'Dev server', label: 'Dev-server log' },
  { id: 'console', title: 'Page console', label: 'Page console' },
] as const;
type Source = (typeof SOURCES)[number];

/** The preview's dev-server log or its page's console: the last lines, read again every two seconds. */
export function LogsPanel({ id }: { id: string }) {
  const [source, setSource] = useState<Source>(SOURCES[0]);
  return (
    <section className="panel logs" aria-label="Logs">
      <header className="row">
        <h3>Logs</h3>
        <div className="toggle" role="group" aria-label="Log source">
          {SOURCES.map((s) => (
            <button key={s.id} aria-pressed={source.id === s.id} onClick={() => setSource(s)}>
              {s.title}
            </button>
          ))}
        </div>
      </header>
      {/* Keyed: the other source's lines never show under this one's name. */}
      <LogLines key={`${id}/${source.id}`} id={id} source={source} />
    </section>
  );
}

function LogLines({ id, source }: { id: string; source: Source }) {
  const logs = usePolled(
    (signal) => api.get<PreviewLogs>(`/interfaces/${seg(id)}/logs?lines=${LINES}${source.id === 'console' ? '&console=true' : ''}`, signal),
    LOGS_MS,
    [],
  );
  const box = useRef<HTMLPreElement>(null);
  const lines = logs.value?.lines ?? [];
  // New lines scroll into view unless the reader scrolled up to read older ones.
  const pinned = useRef(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [lines.length, lines[lines.length - 1]]);
  return (
    <>
      {logs.value && !logs.value.running && <p className="muted">The preview is not running: its last lines.</p>}
      <ErrorNote error={logs.error} title="Could not read the logs" />
      <pre
        ref={box}
        className="log-lines"
        aria-label={source.label}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {lines.length ? lines.join('\n') : logs.value ? 'No lines yet.' : 'Reading…'}
      </pre>
    </>
  );
}
