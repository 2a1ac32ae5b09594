import { useRef, useState } from 'react';
import { api, seg, type ApiError } from '../api.js';
import { href } from '../route.js';
import { asApiError } from '../ui/hooks.js';
import { ErrorNote } from '../ui/parts.js';
import { CopyButton } from './CopyButton.js';
import type { WebhookInfo } from './types.js';

/** What the panel knows of the flow besides its webhook: whether publishing the draft would make the URL live. */
export interface DraftState {
  id: string;
  /** The draft's trigger is a webhook trigger, so Publish makes the URL live. */
  draftHasWebhook: boolean;
  /** The draft differs from the published copy (the URL runs the published one). */
  dirty: boolean;
}

/** The webhook URL with a copy button, and whether it is live: if not, why, and the Publish that makes it so. */
export function UrlPanel({ info, flow, onPublished }: { info: WebhookInfo; flow: DraftState; onPublished(): void }) {
  const field = useRef<HTMLInputElement>(null);
  const [publishing, setPublishing] = useState(false);
  const [error, setError] = useState<ApiError>();
  async function publish() {
    setPublishing(true);
    setError(undefined);
    try {
      await api.post(`/workflows/${seg(flow.id)}/publish`, {});
      onPublished();
    } catch (e) {
      setError(asApiError(e));
    } finally {
      setPublishing(false);
    }
  }
  return (
    <section className="panel" aria-label="Webhook URL">
      <h3>URL</h3>
      <div className="row">
        <input ref={field} className="url-field" readOnly value={info.url} aria-label="Webhook URL" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={info.url} label="Copy the webhook URL" onRefused={() => field.current?.select()} />
      </div>
      {info.live ? (
        <p className="live">
          <span className="status status-success">live</span> A request to this URL runs the published flow.
          {flow.dirty && <span className="muted"> The draft has changes that are not published yet.</span>}
        </p>
      ) : (
        <div className="not-live" role="note">
          <p>
            <span className="status status-waiting">not live</span> <strong>The flow must be published first.</strong>{' '}
            <span className="muted">{info.reason ?? 'it is not published with a webhook trigger'}</span>
          </p>
          {flow.draftHasWebhook ? (
            <button className="primary" onClick={publish} disabled={publishing}>
              {publishing ? 'Publishing…' : 'Publish'}
            </button>
          ) : (
            <p className="muted">
              Its draft has no webhook trigger: add one in the <a href={href(['flows', flow.id, 'editor'])}>editor</a>, save, then publish.
            </p>
          )}
        </div>
      )}
      <ErrorNote error={error} title="Could not publish" />
      <dl className="facts">
        <dt>Webhook trigger enabled</dt>
        <dd>{info.enabled ? 'yes' : 'no'}</dd>
        <dt>Format confirmed</dt>
        <dd>{info.formatConfirmed ? 'yes' : 'no'}</dd>
      </dl>
    </section>
  );
}
