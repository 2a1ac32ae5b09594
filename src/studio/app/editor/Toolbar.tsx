interface Props {
  dirty: boolean;
  saving: boolean;
  problemCount: number | null;
  /** Why the last check of the draft could not be made (the host did not answer). */
  checkError?: string;
  canUndo: boolean;
  canRedo: boolean;
  canDelete: boolean;
  /** What the last save or publish did, shown beside the buttons. */
  note?: string;
  onUndo(): void;
  onRedo(): void;
  onDelete(): void;
  onSave(): void;
  onDiff(): void;
  onPublish(): void;
}

const mod = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform) ? '⌘' : 'Ctrl+';

/** The editor's actions with their shortcuts, the save status and the problem count. */
export function Toolbar(p: Props) {
  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Editor">
      <button onClick={p.onUndo} disabled={!p.canUndo} title={`Undo (${mod}Z)`}>
        Undo
      </button>
      <button onClick={p.onRedo} disabled={!p.canRedo} title={`Redo (${mod}Shift+Z)`}>
        Redo
      </button>
      <button onClick={p.onDelete} disabled={!p.canDelete} title="Delete the selection (Delete)">
        Delete
      </button>
      <span className="toolbar-gap" />
      <span className={`save-state${p.dirty ? ' save-dirty' : ''}`} role="status" aria-label="Save status">
        {p.saving ? 'Saving…' : p.dirty ? '● Unsaved changes' : 'All changes saved'}
      </span>
      <span className={p.problemCount || p.checkError ? 'errors' : 'muted'} aria-label="Problems" title={p.checkError}>
        {p.checkError ? 'Could not check the draft' : p.problemCount === null ? 'Checking…' : p.problemCount ? `⚠ ${p.problemCount} problem${p.problemCount > 1 ? 's' : ''}` : '✓ No problems'}
      </span>
      {p.note && <span className="muted" role="status">{p.note}</span>}
      <button className="primary" onClick={p.onSave} disabled={p.saving} title={`Save the draft (${mod}S)`}>
        Save
      </button>
      <button onClick={p.onDiff}>Diff</button>
      <button onClick={p.onPublish} disabled={p.saving}>
        Publish
      </button>
    </div>
  );
}
