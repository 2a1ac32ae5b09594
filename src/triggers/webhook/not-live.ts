import type { WeirBus } from '../../events.js';
import type { NodeRegistry } from '../../nodes/index.js';
import type { WorkflowConfig, PublishedWorkflow, Workflows } from '../../resources/workflows/index.js';

/** The type of a config's trigger node (the node whose definition is a trigger), or null. */
export const triggerType = (nodes: Pick<NodeRegistry, 'get'>, config: WorkflowConfig | undefined): string | null =>
  config?.nodes.find((n) => nodes.get(n.type)?.trigger)?.type ?? null;

/** What tells why a flow's webhook answers 404: its name and id, and the triggers of its two copies. */
export interface NotLiveFlow {
  id: string;
  name: string;
  /** The trigger of the published copy; null when nothing is published. */
  publishedTrigger: string | null;
  /** The trigger of the local draft; undefined when there is no local copy. */
  draftTrigger?: string | null;
}

/** Names that read as one word on a command line stand for the flow; others are given by id. */
const refOf = (flow: Pick<NotLiveFlow, 'id' | 'name'>) => (/^[\w.-]+$/.test(flow.name) ? flow.name : flow.id);

/**
 * Why a flow's webhook is not live and the next step, as one clause each, for `workflows webhook-url` and
 * the host's 404 warning. The step never names a command that would refuse: `publish` only once the draft's
 * trigger is `webhook_trigger`, `save` only when there is a draft, else `sync` first.
 * @example
 * notLive({ id: 'wf_1', name: 'greeter', publishedTrigger: 'manual_trigger', draftTrigger: 'webhook_trigger' })
 * // { reason: 'its published trigger is manual_trigger', next: 'run weir workflows publish greeter' }
 */
export function notLive(flow: NotLiveFlow): { reason: string; next: string } {
  const ref = refOf(flow);
  const reason = flow.publishedTrigger ? `its published trigger is ${flow.publishedTrigger}` : 'it is not published with a webhook trigger';
  if (flow.draftTrigger === 'webhook_trigger') return { reason, next: `run weir workflows publish ${ref}` };
  if (flow.draftTrigger === undefined) return { reason, next: 'run weir workflows sync, then save a config whose trigger is webhook_trigger and publish it' };
  return { reason, next: `publish a config whose trigger is webhook_trigger first (weir workflows save ${ref} <file>, then weir workflows publish ${ref})` };
}

/** Options of {@link notLiveNotice}. */
export interface NotLiveNoticeOptions {
  bus: WeirBus;
  workflows: Pick<Workflows, 'getLocal'>;
  nodes: Pick<NodeRegistry, 'get'>;
}

/**
 * Tells the bus (`webhook:not-live`) the first time a known flow's token got a 404 because no webhook trigger
 * is published, once per flow for the life of the instance, with what {@link notLive} needs. The draft is
 * read only here, on that miss path; the answer stays the 404 of an unknown token.
 * @example
 * const tell = notLiveNotice({ bus, workflows, nodes })
 * if (!webhookNode(hit.published)) { tell(hit); throw notFound() }
 */
export function notLiveNotice({ bus, workflows, nodes }: NotLiveNoticeOptions): (hit: { id: string; published: PublishedWorkflow | null }) => void {
  const told = new Set<string>();
  return (hit) => {
    if (told.has(hit.id)) return;
    told.add(hit.id);
    void workflows
      .getLocal(hit.id)
      .catch(() => null)
      .then((local) =>
        bus.emit('webhook:not-live', {
          workflowId: hit.id,
          workflowName: local?.name ?? hit.published?.name ?? hit.id,
          publishedTrigger: triggerType(nodes, hit.published?.config),
          draftTrigger: local ? triggerType(nodes, local.config) : undefined,
        }),
      );
  };
}
