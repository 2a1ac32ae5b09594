import { WeirError } from '../errors.js';
import type { Route } from './types.js';
import { interfaceRoutes } from '../resources/interfaces/routes.js';
import { telephonyRoutes } from '../intake/telephony/routes.js';
import { clientRoutes, healthzRoutes } from './core-routes.js';
import { webhookRoutes } from '../intake/webhook.js';
import { interfaceEventRoutes } from '../intake/interface.js';
import { knowledgeRoutes } from '../resources/knowledge/route.js';

/**
 * The host's routes by group, in match order. Each subsystem contributes its routes here (one import and
 * one entry per subsystem); an embedding app picks the groups weir answers (`routes` of createHost).
 */
export const routeGroups = {
  /** `GET /healthz` */
  healthz: healthzRoutes,
  /** `GET /weir-client.js` */
  client: clientRoutes,
  /** `/trigger/:token` (any method) */
  webhooks: webhookRoutes,
  /** `POST /api/flows/:ref` (interface events, the browser client's `callFlow`) */
  api: interfaceEventRoutes,
  /** `GET /i/:name/*` (deployed interfaces) */
  interfaces: interfaceRoutes,
  /** Twilio SMS and ElevenLabs post-call webhooks */
  telephony: telephonyRoutes,
  /** `GET /kb/:token` (knowledge URLs) */
  knowledge: knowledgeRoutes,
} satisfies Record<string, Route[]>;

/** The name of a route group: `healthz`, `client`, `webhooks`, `api`, `interfaces`, `telephony`, `knowledge`. */
export type RouteGroup = keyof typeof routeGroups;

/** Every route group, in match order. */
export const ROUTE_GROUPS = Object.keys(routeGroups) as RouteGroup[];

/** Every HTTP route of the host, in match order. */
export const routes: Route[] = Object.values(routeGroups).flat();

/**
 * The routes of the chosen groups (all of them when `groups` is omitted), in match order. An unknown
 * group name is an INVALID_CONFIG error naming the known ones.
 * @example
 * selectRoutes(['webhooks', 'api']) // `/trigger/:token` and `/api/flows/:ref` only
 */
export function selectRoutes(groups?: readonly string[]): Route[] {
  if (!groups) return routes;
  const unknown = groups.filter((g) => !ROUTE_GROUPS.includes(g as RouteGroup));
  if (unknown.length) throw new WeirError('INVALID_CONFIG', `unknown route group "${unknown.join('", "')}"`, { hints: [`route groups: ${ROUTE_GROUPS.join(', ')}`] });
  return ROUTE_GROUPS.filter((g) => groups.includes(g)).flatMap((g) => routeGroups[g]);
}
