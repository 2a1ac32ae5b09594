import type { Interfaces } from '../../resources/interfaces/index.js';
import type { Metrics } from '../../observe/metrics.js';
import type { Route } from '../types.js';
import { requireToken } from '../access.js';

/**
 * `GET /metrics`: the instance's metrics in the Prometheus text format, behind the host access token (401
 * without, 403 with a wrong one) unless `isPublic` (`metrics.public` in weir.config.json).
 */
export const metricsRoutes = (metrics: Pick<Metrics, 'scrape'>, interfaces: Pick<Interfaces, 'accessToken'>, isPublic: boolean): Route[] => [
  {
    methods: ['GET'],
    path: '/metrics',
    async handle(req) {
      if (!isPublic) requireToken(req, await interfaces.accessToken(), 'GET /metrics');
      const { contentType, text } = await metrics.scrape();
      return { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' }, body: text };
    },
  },
];
