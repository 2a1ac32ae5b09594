import { WeirError } from '../errors.js';
import { mediaType } from '../host/body.js';
import { decodeBody } from '../host/request-body.js';
import type { HostRequest } from '../types/http.js';
import { validateSchema, type JsonSchema, type SchemaProblem } from '../util/json-schema.js';
import type { ApiCall, ApiRoute } from './define.js';

/** Query parameters that belong to the host, not to a route: `?token=` carries the access token. */
const HOST_QUERY = new Set(['token']);

const typesOf = (s: JsonSchema | undefined) => (s?.type === undefined ? [] : [s.type].flat());

/** A query string value as the type its schema declares: `5` -> 5, `true` -> true; left as text otherwise. */
function coerce(text: string, schema: JsonSchema | undefined): unknown {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The body as JSON: empty is `{}`; a body declared as anything but JSON is refused (415). */
function jsonBody(req: HostRequest): unknown {
  if (!req.rawBody.length) return {};
  const type = mediaType(req.headers['content-type']);
  if (type && type !== 'application/json' && !type.endsWith('+json')) {
    throw new WeirError('UNSUPPORTED_MEDIA_TYPE', `the management API takes JSON bodies, not ${type}`, { hints: ['send the body with `content-type: application/json`'] });
  }
  return (decodeBody({ contentType: 'application/json', contentEncoding: req.headers['content-encoding'], raw: req.rawBody, max: req.maxBody }) as { value: unknown }).value;
}

const under = (where: string, problems: SchemaProblem[]) => problems.map((p) => ({ path: p.path ? `${where}.${p.path}` : where, message: p.message }));

/**
 * The checked input of a route: path parameters, query (typed as declared) and JSON body, each validated
 * against the route's schemas. Every problem is listed at once in a 400 INVALID_INPUT's `details`.
 * @example
 * const call = parseCall(route, req, { id: 'wf_1' }) // throws WeirError INVALID_INPUT with details [{ path: 'query.limit', message: 'must be 1 or more, got 0' }]
 */
export function parseCall(route: ApiRoute, req: HostRequest, params: Record<string, string>): ApiCall {
  const problems: SchemaProblem[] = [];
  for (const [name, schema] of Object.entries(route.params ?? {})) problems.push(...under(`params.${name}`, validateSchema(params[name], schema)));
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(req.query)) {
    if (HOST_QUERY.has(key)) continue;
    const schema = route.query?.properties[key];
    if (Array.isArray(value) && !typesOf(schema).includes('array')) problems.push({ path: `query.${key}`, message: 'is given more than once' });
    else query[key] = Array.isArray(value) ? value : coerce(value, schema);
  }
  problems.push(...under('query', validateSchema(query, { type: 'object', additionalProperties: false, ...route.query })));
  const body = route.method === 'GET' ? undefined : jsonBody(req);
  if (route.body) problems.push(...under('body', validateSchema(body, route.body)));
  if (problems.length) {
    const list = problems.map((p) => `  - ${p.path}: ${p.message}`).join('\n');
    throw new WeirError('INVALID_INPUT', `invalid request to ${route.method} /api/v1${route.path} (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n${list}`, {
      details: problems,
      hints: ['GET /api/v1/openapi.json describes every route'],
    });
  }
  return { params, query, body, req };
}
