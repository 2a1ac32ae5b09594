import { useEffect, useState } from 'react';
import { api, ApiError, seg } from '../api.js';
import { href, navigate } from '../route.js';
import type { ExecutionPage, ExecutionRecord, WorkflowConfig } from '../types.js';
import { asApiError } from '../ui/hooks.js';
import { ErrorNote, Modal, Status, when } from '../ui/parts.js';
import { asText, InputEditor, parseInput } from './InputEditor.js';
import { isCut, MAX_VALUE_BYTES } from './record.js';

interface Captured {
  state: 'idle' | 'listening' | 'captured' | 'expired';
  request?: { method: string; headers: Record<string, unknown>; query: Record<string, unknown>; body: unknown };
}

/** The input a webhook flow's trigger receives; other triggers take any JSON. */
const WEBHOOK_INPUT = { body: {}, headers: {}, query: {}, method: 'POST' };

/** The flow's trigger type: the type of its node that no edge leads to. */
const triggerOf = (config: WorkflowConfig) => config.nodes.find((n) => !config.edges.some((e) => e.target === n.id))?.type;

/** "Try it" in a flow's header: runs the draft with an input and shows the execution on the graph. */
export function TryItButton({ flowId }: { flowId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button className="primary" onClick={() => setOpen(true)} title="Run the draft with an input you choose">
        Try it
      </button>
      {open && <TryItDialog flowId={flowId} onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * The input comes typed, from the request the webhook capture caught, or from a past execution; it is
 * editable before the run either way. The run's record opens in the flow's executions.
 */
function TryItDialog({ flowId, onClose }: { flowId: string; onClose(): void }) {
  const [text, setText] = useState('{}');
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [running, setRunning] = useState(false);
  const [past, setPast] = useState<ExecutionPage['items']>();
  const path = `/workflows/${seg(flowId)}`;

  // The first text: the shape the trigger takes (unless something was typed meanwhile).
  useEffect(() => {
    const ctl = new AbortController();
    api.get<{ config: WorkflowConfig }>(path, ctl.signal).then(
      (d) => triggerOf(d.config) === 'webhook_trigger' && setText((t) => (t === '{}' ? asText(WEBHOOK_INPUT) : t)),
      (err) => !ctl.signal.aborted && setError(asApiError(err)),
    );
    return () => ctl.abort();
  }, [path]);
  const guard = async (fn: () => Promise<void>) => {
    setError(undefined);
    setNote(undefined);
    try {
      await fn();
    } catch (err) {
      setError(asApiError(err));
    }
  };
  const fromCapture = () =>
    guard(async () => {
      const c = await api.post<Captured>(`${path}/capture/poll`);
      if (c.request) {
        const { body, headers, query, method } = c.request;
        setText(asText({ body, headers, query, method }));
        setNote('The captured request.');
      } else setNote(c.state === 'listening' ? 'Listening, nothing captured yet: send a request to the webhook URL.' : 'Nothing captured: listen for a request in the Webhook tab.');
    });
  const fromPast = () => guard(async () => setPast((await api.get<ExecutionPage>(`/executions?workflow=${seg(flowId)}&limit=20&maxValueBytes=${MAX_VALUE_BYTES}`)).items));
  const takePast = (e: ExecutionRecord) =>
    guard(async () => {
      // An input too large to come with the list is fetched whole.
      const input = isCut(e.input) ? await api.get<unknown>(`/executions/${seg(e.id)}/nodes/$input/data`) : e.input;
      setText(asText(input));
      setPast(undefined);
      setNote(`The input of ${e.id}.`);
    });
  const parsed = parseInput(text);
  const run = () =>
    guard(async () => {
      setRunning(true);
      try {
        const record = await api.post<{ id: string }>(`${path}/run`, { input: parsed.value });
        onClose();
        navigate(['flows', flowId, 'executions', record.id]);
      } finally {
        setRunning(false);
      }
    });
  return (
    <Modal title="Try the draft" onClose={onClose}>
      <div className="tryit">
        <div className="tryit-sources" role="group" aria-label="Input from">
          <button onClick={fromCapture}>Captured request</button>
          <button onClick={fromPast}>A past execution…</button>
          <a href={href(['flows', flowId, 'webhook'])} onClick={onClose}>
            Webhook capture
          </a>
        </div>
        {note && <p className="muted" role="status">{note}</p>}
        {past && (
          <ul className="tryit-past" aria-label="Past executions">
            {past.length === 0 && <li className="muted">No executions yet.</li>}
            {past.map((e) => (
              <li key={e.id}>
                <button className="link" onClick={() => takePast(e)}>
                  <code>{e.id}</code>
                </button>{' '}
                <Status value={e.status} /> <span className="muted">{when(e.startedAt)}</span>
              </li>
            ))}
          </ul>
        )}
        <InputEditor text={text} onChange={setText} />
        <ErrorNote error={error} title="Could not run" />
        <footer className="modal-actions">
          <button onClick={onClose}>Close</button>
          <button className="primary" disabled={running || !!parsed.problem} onClick={run}>
            {running ? 'Running…' : 'Run the draft'}
          </button>
        </footer>
      </div>
    </Modal>
  );
}
