import { useState, type ReactNode } from 'react';
import { API, seg } from '../api.js';
import { isCut, type CutValue } from './record.js';

/** Entries of an object or array drawn at once; more come on demand, so a wide value draws fast. */
const SHOWN = 100;
/** Characters of a string drawn at once. */
const STRING_SHOWN = 500;

/** Bytes as people read them: `812 B`, `64.0 KB`, `10.0 MB`. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Where the whole of a value is downloaded: a node's data, or the execution's `$input` / `$result`. */
export const downloadHref = (executionId: string, nodeId: string) => `${API}/executions/${seg(executionId)}/nodes/${seg(nodeId)}/data`;

/**
 * A value of a record: a JSON tree (folded below the first level, children drawn when unfolded) or its
 * pretty text; a value the API cut shows its size, the start of its JSON and a download of the whole.
 */
export function ValueView({ value, label, download }: { value: unknown; label: string; download?: { executionId: string; nodeId: string } }) {
  const [asText, setAsText] = useState(false);
  if (value === undefined) return <p className="muted">none</p>;
  if (isCut(value)) return <CutView cut={value} label={label} download={download} />;
  return (
    <div className="value" aria-label={label}>
      <div className="value-tools">
        <button className="link" aria-pressed={asText} onClick={() => setAsText(!asText)}>
          {asText ? 'Tree' : 'Text'}
        </button>
      </div>
      {asText ? <pre className="value-text">{JSON.stringify(value, null, 2)}</pre> : <JsonNode value={value} depth={0} />}
    </div>
  );
}

function CutView({ cut, label, download }: { cut: CutValue; label: string; download?: { executionId: string; nodeId: string } }) {
  return (
    <div className="value value-cut" aria-label={label}>
      <p>
        <strong>{bytes(cut.bytes)}</strong> — too large to show here; its first {bytes(cut.preview.length)}:
      </p>
      <pre className="value-text">{cut.preview}…</pre>
      {download && (
        <a className="button" href={downloadHref(download.executionId, download.nodeId)} download>
          Download whole ({bytes(cut.bytes)})
        </a>
      )}
    </div>
  );
}

function JsonNode({ value, depth, name }: { value: unknown; depth: number; name?: string }) {
  const key = name !== undefined ? <span className="json-key">{name}: </span> : null;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="json-leaf">
        {key}
        <Scalar value={value} />
      </div>
    );
  }
  if (isCut(value)) return <div className="json-leaf">{key}<span className="muted">(cut: {bytes(value.bytes)})</span></div>;
  return <JsonBranch value={value as Record<string, unknown>} depth={depth} keyEl={key} />;
}

function JsonBranch({ value, depth, keyEl }: { value: Record<string, unknown> | unknown[]; depth: number; keyEl: ReactNode }) {
  const [open, setOpen] = useState(depth < 1);
  const [limit, setLimit] = useState(SHOWN);
  const array = Array.isArray(value);
  const keys = array ? null : Object.keys(value);
  const size = array ? value.length : keys!.length;
  const brackets = array ? ['[', ']'] : ['{', '}'];
  if (size === 0) return <div className="json-leaf">{keyEl}{brackets.join('')}</div>;
  return (
    <div className="json-branch">
      <button className="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'}
      </button>
      {keyEl}
      <span className="muted">
        {brackets[0]}
        {open ? '' : ` ${size} ${array ? (size === 1 ? 'item' : 'items') : size === 1 ? 'key' : 'keys'} ${brackets[1]}`}
      </span>
      {open && (
        <div className="json-children">
          {Array.from({ length: Math.min(size, limit) }, (_, i) => {
            const k = array ? String(i) : keys![i];
            return <JsonNode key={k} name={k} value={(value as Record<string, unknown>)[k]} depth={depth + 1} />;
          })}
          {size > limit && (
            <button className="link" onClick={() => setLimit(limit + SHOWN * 10)}>
              {size - limit} more…
            </button>
          )}
          <span className="muted">{brackets[1]}</span>
        </div>
      )}
    </div>
  );
}

function Scalar({ value }: { value: unknown }) {
  const [whole, setWhole] = useState(false);
  if (typeof value !== 'string') return <span className={`json-${value === null ? 'null' : typeof value}`}>{String(value)}</span>;
  const long = value.length > STRING_SHOWN && !whole;
  return (
    <span className="json-string">
      "{long ? value.slice(0, STRING_SHOWN) : value}"
      {long && (
        <button className="link" onClick={() => setWhole(true)}>
          … {value.length - STRING_SHOWN} more characters
        </button>
      )}
    </span>
  );
}
