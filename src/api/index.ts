import { errorResponse, WeirError } from '../errors.js';
import { compileRoutes } from '../host/router.js';
import type { HostResponse, Route } from '../types/http.js';
import { checkAccess, type ApiAccess } from './access.js';
import { RawAnswer, type ApiRoute } from './define.js';
import type { ApiDeps } from './deps.js';
import { API_BASE, openApiDocument } from './openapi.js';
import { captureRoutes } from './routes/capture.js';
import { catalogRoutes } from './routes/catalog.js';
import { executionRoutes } from './routes/executions.js';
import { workflowRoutes } from './routes/workflows.js';
import { eventRoutes } from './routes/events.js';
import { interfaceRoutes } from './routes/interfaces.js';
import { createEventLog, type EventLog } from './events/log.js';
import { parseCall } from './validate.js';

export type { ApiAccess, Authorize } from './access.js';
export type { ApiDeps } from './deps.js';
export type { ApiRoute } from './define.js';

/** Every management route, declared once (src/api/routes/), the OpenAPI document's own route last; the event streams read `log`. */
export function apiRoutes(deps: ApiDeps, log: EventLog): ApiRoute[] {
  const routes: ApiRoute[] = [...workflowRoutes(deps), ...captureRoutes(deps), ...executionRoutes(deps), ...eventRoutes(deps, log), ...catalogRoutes(deps), ...interfaceRoutes(deps)];
  routes.push({
    method: 'GET',
    path: '/openapi.json',
    operationId: 'openApi',
    tag: 'meta',
    summary: 'This document: the OpenAPI 3.1 description of every route',
    response: { status: 200, description: 'the OpenAPI document', schema: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } } } },
    handle: async ({ req }) => openApiDocument(routes, req.base || '/'),
  });
  return routes;
}

/**
 * A declared route as a host route: access checked, then the request validated, then the handler's JSON
 * answer. The first call let in starts the event log, so a client of the API misses no event of a run started after it.
 */
function toHostRoute(route: ApiRoute, access: ApiAccess, log: EventLog): Route {
  return {
    methods: [route.method],
    path: API_BASE + route.path,
    async handle(req, params) {
      try {
        await checkAccess(req, access);
        log.start();
        const out = await route.handle(parseCall(route, req, params));
        if (out instanceof RawAnswer) return out.response;
        return { status: route.response.status, headers: { 'cache-control': 'no-store' }, body: out };
      } catch (err) {
        const answer = answerWithHints(err);
        if (!answer) throw err;
        return answer;
      }
    },
  };
}

/**
 * An error answered with its hints too (what to do next), so a remote CLI prints what the local one does.
 * Only weir's own errors: anything else goes on to the host's mapper, which hides it.
 */
function answerWithHints(err: unknown): HostResponse | null {
  if (!(err instanceof WeirError) || err.code === 'INTERNAL' || !err.hints.length) return null;
  const { status, body } = errorResponse(err);
  return { status, body: { error: { ...body.error, hints: err.hints } } };
}

/**
 * The answer to any other path under `/api/v1` (behind the same access check): a JSON 404 that names the
 * methods a known path does answer.
 */
function unknownRoute(routes: readonly ApiRoute[], access: ApiAccess): Route {
  const byPath = routes.map((r) => ({ method: r.method, router: compileRoutes([{ path: API_BASE + r.path, handle: async () => ({ status: 200 }) }]) }));
  return {
    path: `${API_BASE}/*`,
    async handle(req) {
      await checkAccess(req, access);
      const methods = byPath.filter((r) => r.router.match(r.method, req.path)).map((r) => r.method);
      const hints = methods.length ? [`${req.path} answers ${methods.join(', ')}`] : [`GET ${API_BASE}/openapi.json lists the routes`];
      return answerWithHints(new WeirError('NOT_FOUND', `no route ${req.method} ${req.path}`, { hints }))!;
    },
  };
}

/**
 * The management API under `/api/v1` as host routes: each declared route (validated from its schemas),
 * `GET /api/v1/openapi.json`, and a JSON 404 for any other path there. Every one needs the host access token,
 * or what `access.authorize` decides.
 * @example
 * const routes = managementRoutes(weir, { token: () => weir.interfaces.accessToken() })
 */
export function managementRoutes(deps: ApiDeps, access: ApiAccess): Route[] {
  const log = createEventLog(deps.bus);
  const routes = apiRoutes(deps, log);
  return [...routes.map((r) => toHostRoute(r, access, log)), unknownRoute(routes, access)];
}
