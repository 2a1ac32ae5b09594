import { WeirError } from '../errors.js';
import { addValue } from '../host/body.js';
import { decodeBody } from '../host/request-body.js';
import type { WebhookRequest } from '../types/trigger.js';
import { parseJson } from './read-input.js';

/** What `workflows run` is given for a webhook flow: the body text and where it came from, and the rest of the request. */
export interface WebhookRequestFlags {
  /** The request body as given (`--input` or the file's text); absent for an empty body. */
  body?: { text: string; from: string };
  method?: string;
  /** `--header name=value`, repeatable. */
  headers?: string[];
  /** `--query name=value`, repeatable. */
  query?: string[];
}

/** What a webhook flow's trigger gets: the request body parsed, and as the text it was (null when kept as bytes). */
export interface WebhookRequestInput {
  body: unknown;
  headers: WebhookRequest['headers'];
  query: WebhookRequest['query'];
  method: string;
  rawBody: string | null;
}

/** The `name=value` items of a repeatable flag, split at the first `=`. */
function pairs(items: string[] | undefined, flag: string): Array<[string, string]> {
  return (items ?? []).map((item) => {
    const at = item.indexOf('=');
    if (at <= 0) throw new WeirError('USAGE', `--${flag} takes name=value, got "${item}"`, { hints: [`e.g. --${flag} ${flag === 'header' ? 'x-github-event=push' : 'page=2'}`] });
    return [item.slice(0, at), item.slice(at + 1)];
  });
}

/**
 * The input a webhook flow gets from `weir workflows run`: the same `{body, headers, query, method, rawBody}`
 * the webhook route builds for a request with this body (src/triggers/webhook/input.ts), decoded by the host's
 * own body decoder. A plain object, not the route's `WebhookInput`: the run is recorded as a manual one, whose
 * input is stored as it is. The body is
 * JSON (`content-type: application/json`) unless a `--header content-type=...` says otherwise; header names
 * are lower case as on the wire; a repeated header is joined with ", " and a repeated query key becomes an
 * array, as Node's HTTP server and the host do.
 * @example
 * const input = await webhookRequestInput({ body: { text: '{"name":"Ada"}', from: '--input' }, headers: ['x-a=1'] })
 * // input.body = { name: 'Ada' }, input.rawBody = '{"name":"Ada"}', input.method = 'POST'
 */
export async function webhookRequestInput(flags: WebhookRequestFlags): Promise<WebhookRequestInput> {
  const headers: WebhookRequest['headers'] = {};
  if (flags.body) headers['content-type'] = 'application/json';
  for (const [name, value] of pairs(flags.headers, 'header')) {
    const key = name.trim().toLowerCase();
    headers[key] = key in headers && key !== 'content-type' ? `${headers[key]}, ${value}` : value;
  }
  const query: WebhookRequest['query'] = Object.create(null);
  for (const [name, value] of pairs(flags.query, 'query')) addValue(query, name, value);

  const text = flags.body?.text ?? '';
  // A JSON body is checked here first, so a typo is told as an error of --input (or the file), not of a request.
  if (flags.body && /json/.test(headers['content-type'] ?? '')) parseJson(text, flags.body.from);
  const decoding = decodeBody({ contentType: headers['content-type'], raw: Buffer.from(text, 'utf8') });
  const decoded = decoding instanceof Promise ? await decoding : decoding;
  return { body: decoded.value, headers, query, method: (flags.method ?? 'POST').toUpperCase(), rawBody: decoded.raw };
}
