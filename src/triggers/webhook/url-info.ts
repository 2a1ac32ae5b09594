import type { NodeRegistry } from '../../nodes/index.js';
import type { LocalWorkflow, PublishedWorkflow } from '../../resources/workflows/types.js';
import type { Capture } from './capture.js';
import { notLive, triggerType } from './not-live.js';

/** A flow as found by id or name: its draft and its published copy (either may be missing, not both). */
export interface FoundFlow {
  flow: Pick<LocalWorkflow, 'id' | 'name' | 'webhookToken'>;
  local: LocalWorkflow | null;
  published: PublishedWorkflow | null;
}

/** A flow's webhook URL and its status flags: what `weir workflows webhook-url --json` prints, and the token. */
export interface WebhookUrlInfo {
  id: string;
  name: string;
  url: string;
  /** The token in the URL (`/trigger/<token>`); it never changes. */
  token: string;
  /** A webhook format was accepted (`webhook-accept`). */
  formatConfirmed: boolean;
  /** The published copy's trigger is `webhook_trigger`: the URL runs the flow (else it answers 404). */
  webhookTriggerEnabled: boolean;
  /** The accepted format's variable paths. */
  variables: string[];
  publishedTrigger: string | null;
  /** Why the URL is not live and what makes it so; null once it is. */
  notLive: string | null;
}

/**
 * The webhook URL of a flow under `base` (the host's public URL) with its status flags, for
 * `weir workflows webhook-url` and `GET /api/v1/workflows/{id}/webhook`.
 * @example
 * const info = await webhookUrlInfo(weir, await findFlow(weir.workflows, 'orders'), 'https://hooks.example.com')
 * info.url // 'https://hooks.example.com/trigger/<token>'
 */
export async function webhookUrlInfo(
  { capture, nodes }: { capture: Pick<Capture, 'format'>; nodes: Pick<NodeRegistry, 'get'> },
  { flow, local, published }: FoundFlow,
  base: string,
): Promise<WebhookUrlInfo> {
  const format = await capture.format(flow.id);
  const publishedTrigger = published ? triggerType(nodes, published.config) : null;
  const enabled = !!published?.config.nodes.some((n) => n.type === 'webhook_trigger');
  // Until then the URL answers 404 (capture sessions aside): say why and what makes it live.
  const why = enabled ? null : notLive({ id: flow.id, name: flow.name, publishedTrigger, draftTrigger: local ? triggerType(nodes, local.config) : undefined });
  return {
    id: flow.id,
    name: flow.name,
    url: `${base}/trigger/${flow.webhookToken}`,
    token: flow.webhookToken,
    formatConfirmed: !!format,
    webhookTriggerEnabled: enabled,
    variables: format?.variables ?? [],
    publishedTrigger,
    notLive: why && `${why.reason}; ${why.next}`,
  };
}
