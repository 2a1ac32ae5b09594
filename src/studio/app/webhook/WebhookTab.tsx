import { useState } from 'react';
import { api, seg } from '../api.js';
import type { WorkflowConfig, WorkflowSummary } from '../types.js';
import { useLoad } from '../ui/hooks.js';
import { ErrorNote, when } from '../ui/parts.js';
import { CapturePanel } from './CapturePanel.js';
import type { WebhookFormat, WebhookInfo } from './types.js';
import { UrlPanel } from './UrlPanel.js';
import { VariableList } from './VariableList.js';

/** What the tab reads of `GET /workflows/:id`: the draft's trigger, the sync status and the accepted format. */
interface FlowDetails {
  id: string;
  status: WorkflowSummary['status'];
  config: WorkflowConfig;
  webhookFormat: WebhookFormat | null;
}

/** The trigger node type every webhook URL belongs to (CONTRACT 6: `enabled` means the published trigger is one). */
const WEBHOOK_TRIGGER = 'webhook_trigger';

interface WebhookTabProps {
  flow: WorkflowSummary;
  /** Tells the flow page that a publish changed the flow. */
  onChanged?(): void;
}

/**
 * The flow's webhook: its URL (copy, live or why not, Publish), the accepted format, and the capture session
 * that records one. Another flow gets a fresh tab: nothing of one flow's session shows on another's.
 */
export function WebhookTab(props: WebhookTabProps) {
  return <WebhookView key={props.flow.id} {...props} />;
}

function WebhookView({ flow, onChanged }: WebhookTabProps) {
  const info = useLoad((signal) => api.get<WebhookInfo>(`/workflows/${seg(flow.id)}/webhook`, signal), [flow.id]);
  const details = useLoad((signal) => api.get<FlowDetails>(`/workflows/${seg(flow.id)}`, signal), [flow.id]);
  const [accepted, setAccepted] = useState<WebhookFormat | null>(null);
  const format = accepted ?? details.value?.webhookFormat ?? null;
  const reload = () => {
    info.reload();
    details.reload();
  };
  return (
    <div className="webhook">
      <ErrorNote error={info.error} title="Could not load the webhook" />
      <ErrorNote error={details.error} title="Could not load the flow" />
      {info.value && details.value && (
        <UrlPanel
          info={info.value}
          flow={{ id: flow.id, draftHasWebhook: details.value.config.nodes.some((n) => n.type === WEBHOOK_TRIGGER), dirty: details.value.status === 'dirty' }}
          onPublished={() => {
            reload();
            onChanged?.();
          }}
        />
      )}
      <section className="panel" aria-label="Accepted format">
        <h3>Accepted format</h3>
        {format ? (
          <>
            <p>
              <span className="status status-success">format confirmed</span> <span className="muted">accepted {when(format.confirmedAt)}</span>
            </p>
            <p className="muted">
              The flow's expressions read these as <code>{'{{ $input.<path> }}'}</code>:
            </p>
            <VariableList label="Accepted variables" variables={format.variables} />
          </>
        ) : (
          <p className="muted">None yet: capture a request and accept it.</p>
        )}
      </section>
      <CapturePanel
        flowId={flow.id}
        onAccepted={(f) => {
          setAccepted(f);
          reload();
        }}
      />
    </div>
  );
}
