import { useEffect, useRef, useState } from 'react';

interface Props {
  value: unknown;
  /** Called with each text that parses (`undefined` for an empty text when `allowEmpty`). */
  onChange(value: unknown): void;
  label: string;
  rows?: number;
  /** An empty text removes the value instead of being an error. */
  allowEmpty?: boolean;
  /** Only objects are accepted (a node's whole config). */
  objectOnly?: boolean;
  /** Tells the parent whether the text parses, so it can warn that a text it cannot use is shown here. */
  onValidity?(ok: boolean): void;
}

const format = (v: unknown) => (v === undefined ? '' : JSON.stringify(v, null, 2));

/** Why a JSON text cannot be used, or null. */
function parseText(text: string, allowEmpty: boolean, objectOnly: boolean): { value?: unknown; error: string | null } {
  if (!text.trim()) return allowEmpty ? { value: undefined, error: null } : { error: 'empty: JSON is needed here' };
  try {
    const value = JSON.parse(text);
    if (objectOnly && (value === null || typeof value !== 'object' || Array.isArray(value))) return { error: 'must be a JSON object ({...})' };
    return { value, error: null };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/**
 * A value edited as JSON text. A text that does not parse stays as typed, with the parse error shown, and the
 * value keeps its last good state; a change of the value from elsewhere (an undo) replaces the text.
 */
export function JsonText({ value, onChange, label, rows = 4, allowEmpty = true, objectOnly = false, onValidity }: Props) {
  const [text, setText] = useState(() => format(value));
  const emitted = useRef<unknown>(value);
  useEffect(() => {
    if (value !== emitted.current) {
      emitted.current = value;
      setText(format(value));
      onValidity?.(true);
    }
  }, [value, onValidity]);
  const { error } = parseText(text, allowEmpty, objectOnly);
  return (
    <div className="json-text">
      <textarea
        aria-label={label}
        aria-invalid={error ? true : undefined}
        rows={rows}
        spellCheck={false}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const parsed = parseText(e.target.value, allowEmpty, objectOnly);
          onValidity?.(!parsed.error);
          if (!parsed.error) {
            emitted.current = parsed.value;
            onChange(parsed.value);
          }
        }}
      />
      {error && (
        <div className="field-problem" role="alert">
          Invalid JSON, not applied: {error}
        </div>
      )}
    </div>
  );
}
