import type { JsonSchema } from '../util/json-schema.js';
import type { ApiRoute } from './define.js';
import { components } from './schemas/index.js';

declare const __WEIR_VERSION__: string;

/** The path prefix of every management route. */
export const API_BASE = '/api/v1';

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/** `/workflows/:id` as OpenAPI writes it: `/api/v1/workflows/{id}`. */
export const openApiPath = (path: string) => API_BASE + path.replace(/:(\w+)/g, '{$1}');

function operation(route: ApiRoute) {
  const parameters = [
    ...Object.entries(route.params ?? {}).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
    ...Object.entries(route.query?.properties ?? {}).map(([name, schema]) => ({
      name,
      in: 'query',
      required: !!route.query?.required?.includes(name),
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
      schema,
    })),
  ];
  const { status, description, schema, events, contentType } = route.response;
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: false, content: { 'application/json': { schema: route.body } } } } : {}),
    responses: {
      [String(status)]: { description, content: { [contentType ?? (events ? 'text/event-stream' : 'application/json')]: { schema } } },
      '400': error('The request does not fit this route (every problem in `error.details`), or the operation broke a rule.'),
      '401': error('No access token was sent.'),
      '403': error('The token sent is not the host access token (or `authorize` refused the request).'),
      '404': error('No such workflow or execution.'),
      default: error('Any other failure, as `{"error": {"code", "message"}}`.'),
    },
  };
}

/**
 * The OpenAPI 3.1 document of the management routes, made from their declarations. `server` is where the
 * host is mounted (`/` at the root, `/weir` inside an app).
 * @example
 * const doc = openApiDocument(routes, '/')
 * doc.paths['/api/v1/workflows'].get.operationId // 'listWorkflows'
 */
export function openApiDocument(routes: readonly ApiRoute[], server: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'weir management API',
      version: typeof __WEIR_VERSION__ === 'string' ? __WEIR_VERSION__ : '0.0.0-dev',
      description: 'Manage a running `weir serve`: workflows, executions, the webhook capture session and live events. Every route needs the host access token (`weir interface token`) as `Authorization: Bearer <token>`. See docs/api.md.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: server }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components as Record<string, JsonSchema>,
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'The host access token (`weir interface token`).' } },
    },
  };
}
