import { api, seg } from '../api.js';
import { useLoad } from '../ui/hooks.js';
import { ErrorNote, Modal } from '../ui/parts.js';
import { diffRows, type DiffSide } from './diffRows.js';

interface Change {
  kind: string;
  op: 'added' | 'removed' | 'changed';
  key: string;
  fields?: string[];
}

interface Diff {
  changes: Change[];
  patch: string;
}

const SIGN = { added: '+', removed: '−', changed: '~' };

function Cell({ side, kind }: { side?: DiffSide; kind: string }) {
  return (
    <>
      <td className="diff-n">{side?.n ?? ''}</td>
      <td className={`diff-line${side ? ` diff-${kind}` : ' diff-none'}`}>
        <pre>{side?.text ?? ''}</pre>
      </td>
    </>
  );
}

/**
 * The published config and the saved draft side by side (GET /workflows/:id/diff): the list of changes, then the
 * two JSON texts with removed lines on the left, added ones on the right, changed lines paired and highlighted.
 */
export function DiffView({ flowId, publishedVersion, unsaved, onClose }: { flowId: string; publishedVersion: number | null; unsaved: boolean; onClose(): void }) {
  const diff = useLoad((signal) => api.get<Diff>(`/workflows/${seg(flowId)}/diff`, signal), [flowId]);
  const rows = diff.value ? diffRows(diff.value.patch) : [];
  return (
    <Modal title="Diff: published and draft" onClose={onClose}>
      <div className="diff-view">
        <ErrorNote error={diff.error} title="Could not load the diff" />
        {unsaved && <p className="warn">The draft has unsaved changes: this compares the saved draft. Save to include them.</p>}
        {diff.value && (
          <>
            {diff.value.changes.length ? (
              <ul className="diff-changes" aria-label="Changes">
                {diff.value.changes.map((c) => (
                  <li key={`${c.kind}:${c.key}`} className={`diff-${c.op}`}>
                    {SIGN[c.op]} {c.kind} <code>{c.key}</code> {c.op}
                    {c.fields?.length ? `: ${c.fields.join(', ')}` : ''}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="empty">No differences: the draft is what is published.</p>
            )}
            {rows.length > 0 && (
              <table className="diff-table" aria-label="Side by side">
                <colgroup>
                  <col className="diff-n" />
                  <col />
                  <col className="diff-n" />
                  <col />
                </colgroup>
                <thead>
                  <tr>
                    <th colSpan={2}>{publishedVersion === null ? 'Published (nothing yet)' : `Published (version ${publishedVersion})`}</th>
                    <th colSpan={2}>Draft (saved)</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r, i) =>
                    r.kind === 'gap' ? (
                      <tr key={i} className="diff-gap">
                        <td colSpan={4}>⋯ {r.text}</td>
                      </tr>
                    ) : (
                      <tr key={i} data-kind={r.kind}>
                        <Cell side={r.left} kind={r.kind === 'changed' ? 'removed' : r.kind} />
                        <Cell side={r.right} kind={r.kind === 'changed' ? 'added' : r.kind} />
                      </tr>
                    ),
                  )}
                </tbody>
              </table>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
