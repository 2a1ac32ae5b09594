import { useState, type FormEvent } from 'react';
import { api, seg, type ApiError } from '../api.js';
import type { WorkflowOverview, WorkflowSummary } from '../types.js';
import { asApiError, useLoad } from '../ui/hooks.js';
import { ErrorNote, Modal } from '../ui/parts.js';

/** A template `POST /workflows` can start from (`GET /templates`). */
interface Template {
  name: string;
  description: string;
  trigger: string;
}

/** A form's submit state: the call in flight, and the error it answered. */
function useSubmit<T>(call: () => Promise<T>, done: (value: T) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      done(await call());
    } catch (err) {
      setError(asApiError(err));
      setBusy(false);
    }
  };
  return { busy, error, submit, clear: () => setError(undefined) };
}

/** A template or the empty flow as one radio choice: its name and trigger type, what it does below. */
function Choice({ title, trigger, text, checked, onChoose }: { title: string; trigger: string; text: string; checked: boolean; onChoose(): void }) {
  return (
    <label className="choice">
      <input type="radio" name="template" checked={checked} onChange={onChoose} />
      <span>
        <span className="choice-title">
          <strong>{title}</strong> <code>{trigger}</code>
        </span>
        <span className="muted">{text}</span>
      </span>
    </label>
  );
}

/** New flow: a name, a description, and an empty draft (a manual trigger) or one of the templates. */
export function CreateFlowDialog({ onClose, onCreated }: { onClose(): void; onCreated(flow: WorkflowSummary): void }) {
  const templates = useLoad((signal) => api.get<Template[]>('/templates', signal), []);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [template, setTemplate] = useState('');
  const body = { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}), ...(template ? { template } : {}) };
  const { busy, error, submit, clear } = useSubmit(() => api.post<WorkflowSummary>('/workflows', body), onCreated);
  return (
    <Modal title="New flow" onClose={onClose}>
      <form className="form" onSubmit={submit} onChange={clear}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus placeholder="orders-to-slack" />
        </label>
        <label>
          <span>
            Description <span className="muted">(optional)</span>
          </span>
          <input value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <fieldset className="choices">
          <legend>Start from</legend>
          <Choice title="Empty flow" trigger="manual_trigger" text="A trigger to run it by hand; add the nodes in the editor." checked={template === ''} onChoose={() => setTemplate('')} />
          {templates.value?.map((t) => (
            <Choice key={t.name} title={t.name} trigger={t.trigger} text={t.description} checked={template === t.name} onChoose={() => setTemplate(t.name)} />
          ))}
          {templates.loading && <span className="muted">Loading the templates…</span>}
        </fieldset>
        <ErrorNote error={templates.error} title="Could not load the templates" />
        <ErrorNote error={error} title="Could not create the flow" />
        <div className="form-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button className="primary" disabled={busy || !body.name}>
            {busy ? 'Creating…' : 'Create and open'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Rename a flow or change its description; the published copy takes them at the next publish. */
export function RenameFlowDialog({ flow, onClose, onRenamed }: { flow: WorkflowOverview; onClose(): void; onRenamed(flow: WorkflowSummary): void }) {
  const [name, setName] = useState(flow.name);
  const [description, setDescription] = useState(flow.description ?? '');
  const { busy, error, submit, clear } = useSubmit(() => api.patch<WorkflowSummary>(`/workflows/${seg(flow.id)}`, { name: name.trim(), description: description.trim() }), onRenamed);
  return (
    <Modal title={`Rename ${flow.name}`} onClose={onClose}>
      <form className="form" onSubmit={submit} onChange={clear}>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required autoFocus onFocus={(e) => e.target.select()} />
        </label>
        <label>
          Description
          <input value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        {flow.publishedVersion !== null && <p className="muted">The published copy keeps its name until the next publish.</p>}
        <ErrorNote error={error} title="Could not rename the flow" />
        <div className="form-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button className="primary" disabled={busy || !name.trim()}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * Delete a flow, after saying what goes. A published flow's copy goes too unless unticked: left alone it keeps
 * answering its webhook and schedule, with no draft in this list to show it.
 */
export function DeleteFlowDialog({ flow, onClose, onDeleted }: { flow: WorkflowOverview; onClose(): void; onDeleted(): void }) {
  const published = flow.publishedVersion !== null;
  const [unpublish, setUnpublish] = useState(published);
  const { busy, error, submit } = useSubmit(() => api.del(`/workflows/${seg(flow.id)}${unpublish ? '?unpublish=true' : ''}`), onDeleted);
  return (
    <Modal title={`Delete ${flow.name}?`} onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <p>
          The draft of <strong>{flow.name}</strong> is deleted. Its executions stay in the history.
        </p>
        {published && (
          <label className="choice">
            <input type="checkbox" checked={unpublish} onChange={(e) => setUnpublish(e.target.checked)} />
            <span>
              Also remove the published copy (version {flow.publishedVersion})
              <span className="muted">{unpublish ? 'Its trigger stops: the webhook URL then answers 404.' : 'It keeps running on its trigger, and no longer shows in this list.'}</span>
            </span>
          </label>
        )}
        <ErrorNote error={error} title="Could not delete the flow" />
        <div className="form-actions">
          <button type="button" onClick={onClose} autoFocus>
            Cancel
          </button>
          <button className="primary danger-fill" disabled={busy}>
            {busy ? 'Deleting…' : 'Delete'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
