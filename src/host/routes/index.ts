import { WeirError } from '../../errors.js';
import type { WeirBus } from '../../events.js';
import type { Runtime } from '../../runtime/index.js';
import type { Interfaces } from '../../resources/interfaces/index.js';
import type { Knowledge } from '../../resources/knowledge/index.js';
import type { Route } from '../types.js';
import { clientRoutes, healthzRoutes } from './core.js';
import { executionStatusRoutes } from './executions.js';
import { interfaceEventRoutes, webhookRoutes } from './intake.js';
import { interfaceRoutes } from './interfaces.js';
import { knowledgeRoutes } from './knowledge.js';
import { resumeRoutes } from './resume.js';
import type { Waits } from '../../types/waits.js';
import { telephonyRoutes, type TelephonyDeps } from './telephony.js';

/** What the routes use of a weir instance. */
export interface RouteDeps {
  config: TelephonyDeps['config'];
  bus: WeirBus;
  runtime: Pick<Runtime, 'webhooks' | 'events' | 'limiter' | 'dispatcher' | 'status'>;
  interfaces: Parameters<typeof interfaceRoutes>[0];
  knowledge: Pick<Knowledge, 'byToken' | 'open'>;
  voiceAgents: TelephonyDeps['voiceAgents'];
  waits: Pick<Waits, 'resume'>;
}

/**
 * The host's routes by group, in match order. Each subsystem contributes its routes here (one import and
 * one entry per subsystem); an embedding app picks the groups weir answers (`routes` of createHost).
 */
const routeGroups = {
  /** `GET /healthz` */
  healthz: () => healthzRoutes,
  /** `GET /weir-client.js` */
  client: () => clientRoutes,
  /** `/trigger/:token` (any method) */
  webhooks: (d: RouteDeps) => webhookRoutes(d.runtime.webhooks),
  /** `GET /executions/:token` (the status URLs of webhook answers) */
  executions: (d: RouteDeps) => executionStatusRoutes(d.runtime),
  /** `/resume/:token` (any method: ends an execution's webhook wait) */
  resume: (d: RouteDeps) => resumeRoutes(d.waits),
  /** `POST /api/flows/:ref` (interface events, the browser client's `callFlow`) */
  api: (d: RouteDeps) => interfaceEventRoutes(d.runtime.events),
  /** `GET /i/:name/*` (deployed interfaces) */
  interfaces: (d: RouteDeps) => interfaceRoutes(d.interfaces),
  /** Twilio SMS and ElevenLabs post-call webhooks */
  telephony: (d: RouteDeps) => telephonyRoutes({ config: d.config, voiceAgents: d.voiceAgents, intake: { ...d.runtime, bus: d.bus } }),
  /** `GET /kb/:token` (knowledge URLs) */
  knowledge: (d: RouteDeps) => knowledgeRoutes(d.knowledge),
} satisfies Record<string, (deps: RouteDeps) => Route[]>;

/** The name of a route group: `healthz`, `client`, `webhooks`, `executions`, `resume`, `api`, `interfaces`, `telephony`, `knowledge`. */
export type RouteGroup = keyof typeof routeGroups;

/** Every route group, in match order. */
export const ROUTE_GROUPS = Object.keys(routeGroups) as RouteGroup[];

/**
 * The routes of the chosen groups (all of them when `groups` is omitted), in match order, over `deps`. An
 * unknown group name is an INVALID_CONFIG error naming the known ones.
 * @example
 * selectRoutes(weir, ['webhooks', 'api']) // `/trigger/:token` and `/api/flows/:ref` only
 */
export function selectRoutes(deps: RouteDeps, groups: readonly string[] = ROUTE_GROUPS): Route[] {
  const unknown = groups.filter((g) => !ROUTE_GROUPS.includes(g as RouteGroup));
  if (unknown.length) throw new WeirError('INVALID_CONFIG', `unknown route group "${unknown.join('", "')}"`, { hints: [`route groups: ${ROUTE_GROUPS.join(', ')}`] });
  return ROUTE_GROUPS.filter((g) => groups.includes(g)).flatMap((g) => routeGroups[g](deps));
}
