import { useId } from 'react';

/** The JSON typed in an input editor, parsed, or why it does not parse. */
export function parseInput(text: string): { value?: unknown; problem?: string } {
  if (!text.trim()) return { value: {} };
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

/** A JSON text area for an execution's input, saying at once when the text is no JSON. */
export function InputEditor({ text, onChange, label = 'Input (JSON)' }: { text: string; onChange(text: string): void; label?: string }) {
  const id = useId();
  const { problem } = parseInput(text);
  return (
    <div className="input-editor">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={12} spellCheck={false} value={text} onChange={(e) => onChange(e.target.value)} aria-invalid={!!problem} />
      {problem && (
        <p className="errors" role="status">
          Not JSON: {problem}
        </p>
      )}
    </div>
  );
}

/** A value as the editor's starting text. */
export const asText = (value: unknown) => JSON.stringify(value ?? {}, null, 2);
