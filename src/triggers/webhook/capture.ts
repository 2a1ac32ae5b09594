import { WeirError } from '../../errors.js';
import type { WeirBus, WeirEvents } from '../../events.js';
import type { Storages } from '../../storage/index.js';
import type { Workflows } from '../../resources/workflows/index.js';
import { inferSchema, variablePaths } from './infer-schema.js';

/** The capture window of a webhook capture session: five minutes from `webhook-listen`. */
export const LISTEN_MS = 5 * 60 * 1000;

/** A captured request: what the flow would have received, and when. */
export interface CapturedRequest {
  method: string;
  headers: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
  capturedAt: string;
}

/** The stored session of one flow; no record means idle. */
export type CaptureSession =
  | { state: 'listening'; startedAt: string; expiresAt: string }
  | { state: 'captured'; startedAt: string; request: CapturedRequest };

/** The accepted format, saved on the flow (`Format Confirmed: yes`). */
export interface WebhookFormat {
  schema: Record<string, unknown>;
  variables: string[];
  sample: CapturedRequest;
  confirmedAt: string;
}

/** What `webhook-poll` reports. */
export interface CaptureStatus {
  id: string;
  state: 'idle' | 'listening' | 'captured' | 'expired';
  expiresAt?: string;
  secondsLeft?: number;
  request?: CapturedRequest;
}

export type Capture = ReturnType<typeof createCapture>;

/**
 * The webhook capture session: idle -> listening (5 minutes) -> captured -> accepted (the
 * schema and variable paths are saved, Format Confirmed: yes) or declined. Sessions live in cloud storage,
 * so a running host sees `webhook-listen` from the CLI at once; works on unpublished flows too.
 * @example
 * await weir.capture.listen('orders')
 * // ... a request arrives at the flow's webhook URL ...
 * const { variables } = await weir.capture.accept('orders')
 */
export function createCapture(options: { storage: Storages; workflows: Workflows; bus?: WeirBus; now?: () => number }) {
  const sessions = options.storage.view('cloud', 'webhook-capture');
  const formats = options.storage.view('cloud', 'webhook-format');
  const now = options.now ?? Date.now;
  /** Tells hosts (this one and, through the cluster, the others) to drop what they cached of the session. */
  const changed = (id: string, state: WeirEvents['webhook:capture']['state']) => options.bus?.emit('webhook:capture', { id, state });

  /** The flow's id by id or name: the draft, else the published copy. */
  async function flowId(ref: string): Promise<string> {
    const local = await options.workflows.getLocal(ref).catch(() => null);
    if (local) return local.id;
    const pub = await options.workflows.findPublished(ref);
    if (pub) return pub.id;
    return (await options.workflows.getLocal(ref)).id; // throws the NOT_FOUND with its hints
  }

  function statusOf(id: string, s: CaptureSession | null): CaptureStatus {
    if (!s) return { id, state: 'idle' };
    if (s.state === 'captured') return { id, state: 'captured', request: s.request };
    const left = Date.parse(s.expiresAt) - now();
    if (left <= 0) return { id, state: 'expired', expiresAt: s.expiresAt };
    return { id, state: 'listening', expiresAt: s.expiresAt, secondsLeft: Math.ceil(left / 1000) };
  }

  const api = {
    /** The stored session of a flow id (null when idle). */
    session: (id: string) => sessions.getItem<CaptureSession>(id),

    /** Any state -> listening, with a new five-minute window. */
    async listen(ref: string): Promise<CaptureStatus> {
      const id = await flowId(ref);
      const t = now();
      const s: CaptureSession = { state: 'listening', startedAt: new Date(t).toISOString(), expiresAt: new Date(t + LISTEN_MS).toISOString() };
      await sessions.setItem(id, s);
      changed(id, 'listening');
      return statusOf(id, s);
    },

    /** The state, with the time left or the captured request. */
    async poll(ref: string): Promise<CaptureStatus> {
      const id = await flowId(ref);
      return statusOf(id, await api.session(id));
    },

    /** Stores a request for a listening session; false when the flow is not listening (or the window closed). */
    async capture(id: string, request: Omit<CapturedRequest, 'capturedAt'>): Promise<boolean> {
      const s = await api.session(id);
      if (statusOf(id, s).state !== 'listening') return false;
      const captured: CapturedRequest = { ...request, capturedAt: new Date(now()).toISOString() };
      await sessions.setItem(id, { state: 'captured', startedAt: s!.startedAt, request: captured });
      changed(id, 'captured');
      return true;
    },

    /** Captured -> idle: infers the schema and variable paths and saves them on the flow. */
    async accept(ref: string): Promise<WebhookFormat & { id: string }> {
      const id = await flowId(ref);
      const status = statusOf(id, await api.session(id));
      if (status.state !== 'captured') {
        throw new WeirError('RULE', `nothing captured to accept (session is ${status.state})`, {
          hints: ['run `weir workflows webhook-listen <workflow-id>`, send a request to the webhook URL, then accept'],
        });
      }
      const { capturedAt, ...payload } = status.request!;
      const format: WebhookFormat = { schema: inferSchema(payload), variables: variablePaths(payload), sample: status.request!, confirmedAt: new Date(now()).toISOString() };
      await formats.setItem(id, format);
      await sessions.removeItem(id);
      changed(id, 'idle');
      return { id, ...format };
    },

    /** Captured or listening -> idle, discarding the capture. */
    async decline(ref: string): Promise<CaptureStatus> {
      const id = await flowId(ref);
      const status = statusOf(id, await api.session(id));
      if (status.state !== 'captured' && status.state !== 'listening') {
        throw new WeirError('RULE', `no session to decline (session is ${status.state})`, { hints: ['start one with `weir workflows webhook-listen <workflow-id>`'] });
      }
      await sessions.removeItem(id);
      changed(id, 'idle');
      return { id, state: 'idle' };
    },

    /** The accepted format of a flow, or null. */
    format: async (ref: string) => formats.getItem<WebhookFormat>(await flowId(ref)),
  };
  return api;
}
