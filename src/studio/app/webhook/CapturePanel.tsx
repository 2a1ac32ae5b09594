import { useMemo } from 'react';
import { variablePaths } from '../../../triggers/webhook/infer-schema.js';
import { ErrorNote } from '../ui/parts.js';
import { CapturedRequestView } from './CapturedRequestView.js';
import { clock, useTimeLeft } from './countdown.js';
import type { CapturedRequest, WebhookFormat } from './types.js';
import { useCapture } from './useCapture.js';
import { VariableList } from './VariableList.js';

/**
 * The variables an accept would save: the host's own inference (src/triggers/webhook/infer-schema.ts) over
 * the captured request without its capture time, so what the panel shows before Accept is what Accept saves.
 */
function inferredVariables(request: CapturedRequest): string[] {
  const { capturedAt: _, ...payload } = request;
  return variablePaths(payload);
}

/**
 * The capture session (CONTRACT 6): Listen opens a 5-minute window with a live countdown, the page asks each
 * second whether a request arrived, then shows it with the variables it yields; Accept saves that format on the
 * flow, Decline discards it.
 */
export function CapturePanel({ flowId, onAccepted }: { flowId: string; onAccepted(format: WebhookFormat): void }) {
  const capture = useCapture(flowId, onAccepted);
  const left = useTimeLeft(capture.deadline);
  const { status, busy } = capture;
  const request = status?.state === 'captured' ? status.request : undefined;
  const variables = useMemo(() => (request ? inferredVariables(request) : []), [request]);
  return (
    <section className="panel capture" aria-label="Capture session">
      <h3>Capture a request</h3>
      <p className="muted">Send a sample request to the URL while listening: its shape becomes the flow's accepted format, with the variables its expressions can use.</p>
      <ErrorNote error={capture.error} title="The capture session failed" />
      {!status && <p className="muted">Reading the session…</p>}
      {(status?.state === 'idle' || status?.state === 'expired') && (
        <div className="row">
          <button className="primary" onClick={capture.listen} disabled={busy}>
            Listen
          </button>
          <span className="muted">{status.state === 'expired' ? 'The last window closed without a request.' : 'Listens for 5 minutes.'}</span>
        </div>
      )}
      {status?.state === 'listening' && (
        <div className="row listening">
          <span className="pulse" aria-hidden="true" />
          <span>Listening for a request…</span>
          <span className="countdown" role="timer" aria-label="Time left">
            {left === null ? '' : clock(left)}
          </span>
          <button onClick={capture.decline} disabled={busy}>
            Stop listening
          </button>
        </div>
      )}
      {request && (
        <div className="capture-result">
          <CapturedRequestView request={request} />
          <div className="capture-side">
            <div className="row">
              <button className="primary" onClick={capture.accept} disabled={busy}>
                Accept
              </button>
              <button onClick={capture.decline} disabled={busy}>
                Decline
              </button>
            </div>
            <p className="muted">Accept saves this format on the flow with its variables; Decline discards the request.</p>
            <h4>Inferred variables</h4>
            <VariableList label="Inferred variables" variables={variables} />
          </div>
        </div>
      )}
    </section>
  );
}
