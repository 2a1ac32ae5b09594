import type { HostRequest, HostResponse } from '../types/http.js';
import type { JsonSchema } from '../util/json-schema.js';

/** What a management route's handler is given, already checked against the route's schemas. */
export interface ApiCall {
  /** Path parameters (`/workflows/:id` -> `{ id }`), decoded. */
  params: Record<string, string>;
  /** Query parameters, turned into the types the route's query schema declares (`limit=5` -> 5). */
  query: Record<string, unknown>;
  /** The JSON body (`{}` when empty). */
  body: any;
  req: HostRequest;
}

/** The answer a route declares: its status, what it means, and the schema of its JSON (or of each SSE event's data). */
export interface ApiResponse {
  status: number;
  description: string;
  schema: JsonSchema;
  /** A `text/event-stream` answer: `schema` is then the schema of one event's data. */
  events?: true;
  /** The media type of an answer that is neither JSON nor events (`image/png`): the handler answers a RawAnswer. */
  contentType?: string;
}

/**
 * One route of the management API, declared once: the host route, the request validation and its entry in
 * `GET /api/v1/openapi.json` are all made from it.
 * @example
 * const getWorkflow: ApiRoute = {
 *   method: 'GET', path: '/workflows/:id', operationId: 'getWorkflow', tag: 'workflows', summary: 'one workflow',
 *   params: { id: ref }, response: { status: 200, description: 'the workflow', schema: { $ref: '#/components/schemas/WorkflowDetails' } },
 *   handle: ({ params }) => workflows.get(params.id),
 * }
 */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path under `/api/v1`, with `:name` segments. */
  path: string;
  operationId: string;
  /** The resource it belongs to (the OpenAPI tag). */
  tag: string;
  summary: string;
  /** Longer text for the OpenAPI document (what the status codes mean, what is validated where). */
  description?: string;
  /** The schema of each path parameter. */
  params?: Record<string, JsonSchema>;
  /** An object schema of the query parameters; each property is a parameter. */
  query?: JsonSchema & { properties: Record<string, JsonSchema> };
  /** The schema of the JSON body. */
  body?: JsonSchema;
  response: ApiResponse;
  /** Answers with the response body (sent with `response.status`), or with a whole HostResponse (a stream). */
  handle(call: ApiCall): Promise<unknown>;
}

/** A handler's answer that is a whole response (an event stream), not a body to send as JSON. */
export class RawAnswer {
  constructor(readonly response: HostResponse) {}
}
