import { webhookTrigger } from './node.js';
import { defineTrigger } from '../define.js';
import { executionStatusRoutes, webhookRoutes } from './routes.js';

/**
 * The webhook trigger: `/trigger/<token>` (the durable intake, capture sessions) and `GET /executions/<token>`
 * (the status URLs its answers give).
 */
export const webhook = defineTrigger({
  node: webhookTrigger,
  routes: {
    /** `/trigger/:token` (any method) */
    webhooks: (rt) => webhookRoutes(rt),
    /** `GET /executions/:token` (the status URLs of webhook answers) */
    executions: (rt) => executionStatusRoutes(rt.runtime),
  },
});
