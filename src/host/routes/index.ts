import { WeirError } from '../../errors.js';
import { didYouMean } from '../../util/nearest.js';
import type { WeirBus } from '../../events.js';
import type { Runtime } from '../../runtime/index.js';
import type { Knowledge } from '../../resources/knowledge/index.js';
import type { Workflows } from '../../resources/workflows/index.js';
import type { VoiceAgents } from '../../resources/voice-agents/index.js';
import { builtinTriggers, type TriggerDefinition, type TriggerRuntime } from '../../triggers/index.js';
import type { WeirConfig } from '../../config.js';
import type { Route } from '../types.js';
import { clientRoutes, healthzRoutes } from './core.js';
import { interfaceRoutes } from './interfaces.js';
import { knowledgeRoutes } from './knowledge.js';
import { resumeRoutes } from './resume.js';
import { metricsRoutes } from './metrics.js';
import { mcpRoutes } from './mcp.js';
import type { Metrics } from '../../observe/metrics.js';
import type { Waits } from '../../types/waits.js';
import { managementRoutes, type ApiDeps, type Authorize } from '../../api/index.js';
import { studioRoutes } from '../../studio/serve.js';

/** What the routes use of a weir instance. */
export interface RouteDeps extends Omit<ApiDeps, 'interfaces'> {
  config: WeirConfig;
  /** The management API's, and the published flows (`/mcp` offers those with `settings.mcp: true`). */
  workflows: ApiDeps['workflows'] & Pick<Workflows, 'listPublished'>;
  bus: WeirBus;
  runtime: ApiDeps['runtime'] & Pick<Runtime, 'webhooks' | 'events' | 'limiter' | 'dispatcher' | 'status'>;
  interfaces: Parameters<typeof interfaceRoutes>[0] & ApiDeps['interfaces'];
  knowledge: Pick<Knowledge, 'byToken' | 'open'>;
  voiceAgents: Pick<VoiceAgents, 'secrets' | 'telephonyFlows' | 'inboundMapping'>;
  waits: Pick<Waits, 'resume'>;
  /** The trigger kinds whose routes the host mounts (built-in and custom). */
  triggers: readonly TriggerDefinition[];
  /** The instance's metrics; none (`metrics.enabled: false`): `/metrics` answers 404. */
  metrics?: Pick<Metrics, 'start' | 'scrape'> | null;
}

/** How the host's guarded routes let requests in (`createHost` options). */
export interface RouteAccess {
  /** Decides in place of the host access token (management API, Studio, `/mcp`). */
  authorize?: Authorize;
}

/** The host's own routes by group; the triggers' groups (webhooks, executions, api, telephony) follow. */
const coreGroups = {
  /** `GET /healthz` */
  healthz: () => healthzRoutes,
  /** `GET /weir-client.js` */
  client: () => clientRoutes,
  /** `/resume/:token` (any method: ends an execution's webhook wait) */
  resume: (d: RouteDeps) => resumeRoutes(d.waits),
  /** `GET /i/:name/*` (deployed interfaces) */
  interfaces: (d: RouteDeps) => interfaceRoutes(d.interfaces),
  /** `GET /kb/:token` (knowledge URLs) */
  knowledge: (d: RouteDeps) => knowledgeRoutes(d.knowledge),
  /** `GET /metrics` (Prometheus text format) */
  metrics: (d: RouteDeps) => (d.metrics ? metricsRoutes(d.metrics, d.interfaces, d.config.metrics?.public === true) : []),
  /** `/api/v1/*` (the management API and its OpenAPI document) */
  management: (d: RouteDeps, access: RouteAccess) => managementRoutes(d, { token: () => d.interfaces.accessToken(), authorize: access.authorize }),
  /** `/mcp` (the flows with `settings.mcp: true` as MCP tools, behind the management API's access) */
  mcp: (d: RouteDeps, access: RouteAccess) => mcpRoutes({ workflows: d.workflows, nodes: d.nodes, events: d.runtime.events }, { token: () => d.interfaces.accessToken(), authorize: access.authorize }),
  /** `GET /studio/*` (the Studio page, behind the management API's access) */
  studio: (d: RouteDeps, access: RouteAccess) => studioRoutes({ token: () => d.interfaces.accessToken(), authorize: access.authorize }),
} satisfies Record<string, (deps: RouteDeps, access: RouteAccess) => Route[]>;

/** The groups of the given triggers' routes, in registry order, each once. */
const groupsOf = (triggers: readonly TriggerDefinition[]) => [...new Set(triggers.flatMap((t) => Object.keys(t.routes ?? {})))];

/** The name of a route group: `healthz`, `client`, `resume`, `interfaces`, `knowledge`, `metrics`, `management`, `mcp`, `studio`, or a trigger's (`webhooks`, `executions`, `api`, `telephony`). */
export type RouteGroup = string;

/** Every route group of the built-in triggers and the host, in match order. */
export const ROUTE_GROUPS: readonly RouteGroup[] = [...Object.keys(coreGroups), ...groupsOf(builtinTriggers)];

/**
 * The routes of the chosen groups (all of them when `groups` is omitted), in match order: the host's own,
 * then each trigger's over its runtime. An unknown group name is an INVALID_CONFIG error naming the known ones.
 * @example
 * selectRoutes(weir, runtimes, ['webhooks', 'api']) // `/trigger/:token` and `/api/flows/:ref` only
 */
export function selectRoutes(deps: RouteDeps, runtimes: ReadonlyMap<TriggerDefinition, TriggerRuntime>, groups?: readonly string[], access: RouteAccess = {}): Route[] {
  const known = [...Object.keys(coreGroups), ...groupsOf(deps.triggers)];
  const chosen = groups ?? known;
  const unknown = chosen.filter((g) => !known.includes(g));
  if (unknown.length) {
    throw new WeirError('INVALID_CONFIG', `unknown route group "${unknown.join('", "')}"${didYouMean(unknown[0], known)}`, { hints: [`route groups: ${known.join(', ')}`] });
  }
  const core = Object.entries(coreGroups).flatMap(([g, routes]) => (chosen.includes(g) ? routes(deps, access) : []));
  const own = [...runtimes].flatMap(([trigger, runtime]) =>
    Object.entries(trigger.routes ?? {}).flatMap(([g, routes]) => (chosen.includes(g) ? routes(runtime) : [])),
  );
  return [...core, ...own];
}
