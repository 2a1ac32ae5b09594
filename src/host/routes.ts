import type { Route } from './types.js';
import { interfaceRoutes } from '../resources/interfaces/routes.js';
import { telephonyRoutes } from '../triggers/telephony/routes.js';
import { coreRoutes } from './core-routes.js';
import { webhookRoutes } from '../triggers/webhook.js';
import { interfaceEventRoutes } from '../triggers/interface.js';
import { knowledgeRoutes } from '../resources/knowledge/route.js';

/**
 * Every HTTP route of the host, in match order. Each subsystem contributes its routes here
 * (one import and one spread per subsystem).
 */
export const routes: Route[] = [...coreRoutes, ...webhookRoutes, ...interfaceEventRoutes, ...interfaceRoutes, ...telephonyRoutes, ...knowledgeRoutes];
