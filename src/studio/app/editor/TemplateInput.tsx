import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { insertCompletion, matching, tokenAt, type Completion } from './completions.js';

interface Props {
  value: string;
  onChange(value: string): void;
  /** What `{{ ` offers here. */
  completions: Completion[];
  label: string;
  id?: string;
  multiline?: boolean;
  invalid?: boolean;
}

/** Most completions shown at once: the list filters as the user types. */
const SHOWN = 12;

/**
 * A text field whose `{{ }}` expressions are completed: typing inside `{{` lists the paths that fit what is typed
 * (arrows choose, Enter or Tab inserts, Escape closes), a click inserts too.
 */
export function TemplateInput({ value, onChange, completions, label, id, multiline, invalid }: Props) {
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [open, setOpen] = useState<{ start: number; items: Completion[]; active: number } | null>(null);
  const caretAfter = useRef<number | null>(null);

  useLayoutEffect(() => {
    if (caretAfter.current !== null && ref.current) {
      ref.current.setSelectionRange(caretAfter.current, caretAfter.current);
      caretAfter.current = null;
    }
  });

  const look = (text: string) => {
    const caret = ref.current?.selectionStart ?? text.length;
    const token = tokenAt(text, caret);
    const items = token ? matching(completions, token.query).slice(0, SHOWN) : [];
    setOpen(token && items.length ? { start: token.start, items, active: 0 } : null);
  };

  const insert = (c: Completion) => {
    if (!open || !ref.current) return;
    const caret = ref.current.selectionStart ?? value.length;
    const next = insertCompletion(value, open.start, caret, c.value);
    caretAfter.current = next.caret;
    setOpen(null);
    onChange(next.text);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (!open) return;
    const move = (by: number) => setOpen({ ...open, active: (open.active + by + open.items.length) % open.items.length });
    if (e.key === 'ArrowDown') move(1);
    else if (e.key === 'ArrowUp') move(-1);
    else if (e.key === 'Enter' || e.key === 'Tab') insert(open.items[open.active]);
    else if (e.key === 'Escape') setOpen(null);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  const listId = `${id ?? label}-completions`;
  const common = {
    ref,
    id,
    value,
    'aria-label': label,
    'aria-invalid': invalid || undefined,
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-expanded': Boolean(open),
    spellCheck: false,
    onChange: (e: { target: { value: string } }) => {
      onChange(e.target.value);
      look(e.target.value);
    },
    onKeyDown,
    onClick: () => look(value),
    onBlur: () => setOpen(null),
  };
  return (
    <div className="tinput">
      {multiline ? <textarea rows={3} {...common} /> : <input type="text" {...common} />}
      {open && (
        <ul className="completions" role="listbox" id={listId} aria-label="Completions">
          {open.items.map((c, i) => (
            <li
              key={c.value}
              role="option"
              aria-selected={i === open.active}
              onMouseDown={(e) => {
                e.preventDefault();
                insert(c);
              }}
            >
              <code>{c.value}</code> <span className="muted">{c.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
