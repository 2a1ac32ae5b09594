import type { ScheduleConfig } from '../triggers/schedule/node.js';
import type { NodeRegistry } from '../nodes/index.js';
import { triggerType } from '../triggers/webhook/not-live.js';
import type { WeirLogger } from '../logging/logger.js';
import { coalesce } from '../util/coalesce.js';
import type { PublishedWorkflow, Workflows } from '../resources/workflows/index.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * A schedule trigger's timing in words.
 * @example
 * scheduleWords({ scheduleType: 'daily', dailyTime: '02:00' }) // 'every day at 02:00 UTC'
 */
export function scheduleWords(c: Partial<ScheduleConfig>): string {
  const zone = c.timezone ?? 'UTC';
  switch (c.scheduleType) {
    case 'interval':
      return `every ${c.intervalValue} ${c.intervalValue === 1 ? c.intervalUnit?.replace(/s$/, '') : c.intervalUnit}`;
    case 'daily':
      return `every day at ${c.dailyTime} ${zone}`;
    case 'weekly':
      return `every ${WEEKDAYS[c.weeklyDay ?? 0]} at ${c.dailyTime ?? '00:00'} ${zone}`;
    case 'cron':
      return `cron "${c.cronExpression}" ${zone}`;
    default:
      return '';
  }
}

/** What `weir serve` says of a published flow: its trigger and where it is reached (or when it runs). */
export interface FlowEntry {
  flow: string;
  flowId: string;
  trigger: string | null;
  /** The webhook URL (any method), the interface event URL or the schedule in words; none for the others. */
  target?: string;
}

/**
 * A published flow as `weir serve` shows it; `base` is the URL callers reach the host at.
 * @example
 * describeFlow(nodes, published, 'http://127.0.0.1:8787') // { flow: 'greeter', trigger: 'webhook_trigger', target: 'http://127.0.0.1:8787/trigger/…', … }
 */
export function describeFlow(nodes: Pick<NodeRegistry, 'get'>, flow: PublishedWorkflow, base: string): FlowEntry {
  const trigger = triggerType(nodes, flow.config);
  const config = (flow.config.nodes.find((n) => n.type === trigger)?.config ?? {}) as Partial<ScheduleConfig>;
  const target =
    trigger === 'webhook_trigger'
      ? `${base}/trigger/${flow.webhookToken}`
      : trigger === 'interface_event_trigger'
        ? `POST ${base}/api/flows/${encodeURIComponent(flow.name)}`
        : trigger === 'schedule_trigger'
          ? scheduleWords(config) || undefined
          : undefined;
  return { flow: flow.name, flowId: flow.id, trigger, target };
}

/** `greeter (wf_1): webhook_trigger  http://127.0.0.1:8787/trigger/…` */
export const flowLine = (e: FlowEntry): string => `${e.flow} (${e.flowId}): ${e.trigger ?? 'no trigger'}${e.target ? `  ${e.target}` : ''}`;

/** The line `weir serve` prints when nothing is published, saying how to publish. */
export const NOTHING_PUBLISHED = 'no published flows: webhooks answer 404 until a flow is published (weir workflows publish <name>)';

/** Options of {@link followPublished}. */
export interface FollowOptions {
  workflows: Pick<Workflows, 'listPublished'>;
  nodes: Pick<NodeRegistry, 'get'>;
  /** The URL callers reach the host at (the public URL when set, else the one it listens on). */
  base: string;
  logger: WeirLogger;
  onError(err: unknown): void;
}

/**
 * The published flows of a running `weir serve`: `start()` returns one entry per flow (by name) and
 * remembers their versions; each `changed()` (the host's watch calls it on every publish, unpublish or
 * storage change it sees) compares again and logs at `info` a `flow published` line per new or newer version
 * and a `flow unpublished` line per flow gone. Comparisons run one at a time; calls meanwhile make one more.
 * @example
 * const flows = followPublished({ workflows, nodes, base: 'http://127.0.0.1:8787', logger, onError })
 * for (const e of await flows.start()) console.log(`  ${flowLine(e)}`)
 * createHost(weir, { onFlowsChanged: flows.changed })
 */
export function followPublished(options: FollowOptions): { start(): Promise<FlowEntry[]>; changed(): void } {
  const { workflows, nodes, base, logger } = options;
  let shown: Map<string, { name: string; version: number }> | null = null;

  async function read(): Promise<PublishedWorkflow[]> {
    const flows = await workflows.listPublished();
    shown = new Map(flows.map((f) => [f.id, { name: f.name, version: f.version }]));
    return flows.sort((a, b) => a.name.localeCompare(b.name));
  }

  async function compare(): Promise<void> {
    const before = shown!;
    const flows = await read();
    for (const f of flows) {
      if (before.get(f.id)?.version !== f.version) logger.info({ ...describeFlow(nodes, f, base), version: f.version }, 'flow published');
    }
    for (const [flowId, { name }] of before) if (!shown!.has(flowId)) logger.info({ flow: name, flowId }, 'flow unpublished');
  }

  const comparing = coalesce(compare, options.onError);
  const changed = (): void => {
    // Before start() there is nothing to compare with: start() reads the flows as they are then.
    if (!shown) return;
    comparing.request();
  };

  return {
    start: async () => (await read()).map((f) => describeFlow(nodes, f, base)),
    changed,
  };
}
