import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { WeirError } from '../errors.js';
import type { NetworkPolicy } from '../util/network.js';
import { isObject } from '../util/json.js';
import { defineNode, type Problem } from './define.js';
import { numberField, objectField } from './fields.js';
import { followRedirect, REDIRECTS, type Hop } from './redirect.js';
import { service } from './resources/common.js';
import { sideEffectKey } from './side-effects.js';
import { addTraceHeaders } from '../observe/traces.js';

type HttpConfig = {
  method?: string;
  url: string;
  headers?: Record<string, unknown>;
  body?: unknown;
  timeoutMs?: number;
  /** Header names that, like `Authorization`, never follow a redirect to another origin. */
  secretHeaders?: string[];
};

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The request body as bytes: objects as JSON (with a content type unless one is given), text as is. */
function encodeBody(body: unknown, headers: Record<string, string>): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  headers['content-type'] ??= 'application/json';
  return JSON.stringify(body);
}

async function readBody(res: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) {
      res.destroy();
      throw new WeirError('PAYLOAD_TOO_LARGE', `http_request: the response is larger than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (/\bjson\b/i.test(String(res.headers['content-type'] ?? '')) && text !== '') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** Sends one hop and follows redirects; every hop's address is checked against the network policy. */
async function send(hop: Hop, signal: AbortSignal, policy: NetworkPolicy, secret: readonly string[], hops = 0): Promise<IncomingMessage> {
  const { url, method, headers, body } = hop;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WeirError('INVALID_INPUT', `http_request: only http and https URLs, got ${url.protocol}`);
  // An IP literal connects without a lookup, so it is checked here; names are checked by the policy's lookup.
  const blocked = policy.check(url.hostname.replace(/^\[|\]$/g, ''));
  if (blocked) throw blocked;
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers, signal, lookup: policy.lookup }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (location && REDIRECTS.includes(status) && hops < MAX_REDIRECTS) {
        res.resume();
        return resolve(send(followRedirect(hop, status, location, secret), signal, policy, secret, hops + 1));
      }
      resolve(res);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `{"method", "url", "headers", "body", "timeoutMs", "secretHeaders"}`; data = `{status, headers, body}` (a
 * JSON response parsed, other types as text). Any status is data, not a failure. Every hop's resolved
 * address is checked against `network` in `weir.config.json`; credentials (and `secretHeaders`) never
 * follow a redirect to another origin. With an OpenTelemetry SDK registered, the request carries the node
 * span's `traceparent` (docs/observability.md).
 */
export const httpRequestNode = defineNode<HttpConfig>({
  type: 'http_request',
  docs: {
    summary: 'Calls an HTTP(S) URL allowed by the network policy, following redirects without leaking credentials',
    output: '`{ status, headers, body }`: a JSON response parsed, other types as text; any status is data',
    example: { method: 'POST', url: 'https://api.example.com/orders', headers: { 'content-type': 'application/json' }, body: { id: '{{ $input.id }}' } },
  },
  config: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'The http or https URL to call' },
      method: { type: 'string', description: `${METHODS.join(', ')} (default GET, any case)` },
      headers: { type: 'object', description: 'Request headers' },
      body: { description: 'The request body: text as it is, anything else as JSON' },
      timeoutMs: { type: 'number', minimum: 1, description: 'Time limit of one attempt in milliseconds (default 30000)' },
      secretHeaders: { type: 'array', items: { type: 'string' }, description: 'Header names that, like Authorization, never follow a redirect to another origin' },
    },
    required: ['url'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    if (typeof config.url !== 'string' || !config.url) problems.push({ path: 'url', message: '"url" is required' });
    if (config.method !== undefined && !(typeof config.method === 'string' && (config.method.includes('{{') || METHODS.includes(config.method.toUpperCase())))) {
      problems.push({ path: 'method', message: `"method" must be one of ${METHODS.join(', ')}` });
    }
    objectField(config, 'headers', problems);
    numberField(config, 'timeoutMs', problems, { min: 1 });
    const secret = config.secretHeaders;
    if (secret !== undefined && !(Array.isArray(secret) && secret.every((h) => typeof h === 'string' && h))) {
      problems.push({ path: 'secretHeaders', message: '"secretHeaders" must be a list of header names' });
    }
    return problems;
  },
  async run(ctx) {
    const { url, method = 'GET', headers = {}, body, timeoutMs = DEFAULT_TIMEOUT_MS, secretHeaders = [] } = ctx.config;
    let target: URL;
    try {
      target = new URL(String(url));
    } catch {
      throw new WeirError('INVALID_INPUT', `http_request: ${JSON.stringify(url)} is not a URL`);
    }
    const sendHeaders: Record<string, string> = {};
    if (isObject(headers)) for (const [k, v] of Object.entries(headers)) if (v !== undefined && v !== null) sendHeaders[k.toLowerCase()] = String(v);
    sendHeaders['idempotency-key'] ??= sideEffectKey(ctx);
    // The node's span is the active one: the service called joins the execution's trace (`traceparent`).
    addTraceHeaders(sendHeaders);
    const payload = encodeBody(body, sendHeaders);
    const verb = String(method).toUpperCase();
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(Number(timeoutMs))]);
    try {
      const res = await send({ url: target, method: verb, headers: sendHeaders, body: payload }, signal, service(ctx, 'network'), secretHeaders);
      const resHeaders = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
      return { status: res.statusCode ?? 0, headers: resHeaders, body: verb === 'HEAD' ? null : await readBody(res) };
    } catch (err) {
      if (err instanceof WeirError) throw err;
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (signal.aborted) throw new WeirError('TIMEOUT', `http_request: ${verb} ${target.origin} got no answer within ${timeoutMs} ms`);
      throw new WeirError('PROVIDER', `http_request: ${verb} ${target.href} failed: ${(err as Error).message}`);
    }
  },
});
