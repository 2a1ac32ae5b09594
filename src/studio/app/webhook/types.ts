// The webhook answers of the management API the panel reads (GET /api/v1/openapi.json is their source).

/** `GET /workflows/:id/webhook`, as `weir workflows webhook-url --json`. */
export interface WebhookInfo {
  url: string;
  token: string;
  /** Whether a request to the URL runs the flow now. */
  live: boolean;
  /** Why it does not, when it does not (e.g. "not published with a webhook trigger"). */
  reason?: string;
  formatConfirmed: boolean;
  /** Whether the published copy's trigger is a `webhook_trigger`. */
  enabled: boolean;
}

export type { CapturedRequest } from '../../../triggers/webhook/capture.js';
import type { CapturedRequest } from '../../../triggers/webhook/capture.js';

/** `POST /workflows/:id/capture/{listen,poll,decline}`: the session (CONTRACT 6). */
export interface CaptureStatus {
  id: string;
  state: 'idle' | 'listening' | 'captured' | 'expired';
  expiresAt?: string;
  secondsLeft?: number;
  request?: CapturedRequest;
}

/** The accepted format: the answer of `POST .../capture/accept` and `webhookFormat` of `GET /workflows/:id`. */
export interface WebhookFormat {
  variables: string[];
  schema: Record<string, unknown>;
  confirmedAt: string;
}
