import { useEffect, useState } from 'react';
import { api, ApiError, seg } from '../api.js';
import { asApiError } from '../ui/hooks.js';
import { ErrorNote, Modal } from '../ui/parts.js';
import { asText, InputEditor, parseInput } from './InputEditor.js';
import { isCut, isGoing, type Inspected } from './record.js';

/**
 * What can be done to an execution: cancel one that runs or waits, retry a failed or cancelled one from its
 * failed node, rerun any with its input (edited). Retry and rerun make a new execution, which `onOpen` shows.
 */
export function ExecutionActions({ record, onChanged, onOpen }: { record: Inspected; onChanged(r: Inspected): void; onOpen(r: Inspected): void }) {
  const [busy, setBusy] = useState<string>();
  const [failed, setFailed] = useState<{ action: string; error: ApiError }>();
  const [rerunning, setRerunning] = useState(false);
  const act = async (name: string, call: () => Promise<Inspected>, then: (r: Inspected) => void) => {
    setBusy(name);
    setFailed(undefined);
    try {
      then(await call());
    } catch (err) {
      setFailed({ action: name, error: asApiError(err) });
    } finally {
      setBusy(undefined);
    }
  };
  const path = `/executions/${seg(record.id)}`;
  return (
    <div className="exec-actions">
      {isGoing(record.status) && (
        <button className="danger" disabled={!!busy} onClick={() => act('cancel', () => api.post<Inspected>(`${path}/cancel`), onChanged)}>
          {busy === 'cancel' ? 'Cancelling…' : 'Cancel'}
        </button>
      )}
      {(record.status === 'error' || record.status === 'cancelled') && (
        <button disabled={!!busy} onClick={() => act('retry', () => api.post<Inspected>(`${path}/retry`), onOpen)} title="Run again from the failed node, as a new execution">
          {busy === 'retry' ? 'Retrying…' : 'Retry'}
        </button>
      )}
      <button disabled={!!busy} onClick={() => setRerunning(true)} title="Run again with its input, edited if you like, as a new execution">
        Rerun…
      </button>
      {failed?.action !== 'rerun' && <ErrorNote error={failed?.error} title={`Could not ${failed?.action}`} />}
      {rerunning && (
        <RerunDialog
          record={record}
          onClose={() => setRerunning(false)}
          onRun={(input, draft) =>
            act('rerun', () => api.post<Inspected>(`${path}/rerun`, { input, draft }), (r) => {
              setRerunning(false);
              onOpen(r);
            })
          }
          busy={busy === 'rerun'}
          error={failed?.action === 'rerun' ? failed.error : undefined}
        />
      )}
    </div>
  );
}

function RerunDialog(props: { record: Inspected; onClose(): void; onRun(input: unknown, draft: boolean): void; busy: boolean; error?: ApiError }) {
  const { record, onClose, onRun, busy, error } = props;
  const [text, setText] = useState(() => (isCut(record.input) ? '' : asText(record.input)));
  const [loadError, setLoadError] = useState<ApiError>();
  const [draft, setDraft] = useState(record.draft === true);
  useEffect(() => {
    // A cut input is fetched whole, to be edited.
    if (isCut(record.input)) api.get<unknown>(`/executions/${seg(record.id)}/nodes/$input/data`).then((v) => setText(asText(v)), (err) => setLoadError(asApiError(err)));
  }, [record.id, record.input]);
  const parsed = parseInput(text);
  return (
    <Modal title={`Rerun ${record.id}`} onClose={onClose}>
      <form
        className="rerun"
        onSubmit={(e) => {
          e.preventDefault();
          if (!parsed.problem) onRun(parsed.value, draft);
        }}
      >
        <ErrorNote error={loadError} title="Could not load the whole input" />
        <ErrorNote error={error} title="Could not rerun" />
        <InputEditor text={text} onChange={setText} />
        <label>
          <input type="checkbox" checked={draft} onChange={(e) => setDraft(e.target.checked)} /> Run the draft (else the published copy)
        </label>
        <footer className="modal-actions">
          <button type="button" onClick={onClose}>
            Close
          </button>
          <button className="primary" type="submit" disabled={busy || !!parsed.problem}>
            {busy ? 'Running…' : 'Run'}
          </button>
        </footer>
      </form>
    </Modal>
  );
}
