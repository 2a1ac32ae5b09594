import type { DecodedBody, WebhookRequest } from '../../types/trigger.js';
import { CarriesJson } from '../../util/json-text.js';

/** How a webhook input's stored text begins: the body's placeholder. */
const BODY_PLACEHOLDER = '{"body":0';

/**
 * A delivery's input, `{ body, headers, query, method, rawBody }`: `rawBody` is the body text exactly as
 * received, so a flow can check a sender's signature over it (null for a body kept as bytes).
 *
 * A JSON body's input carries its own JSON text for the journal and the execution record, built from the
 * request's text without serializing the parsed body: the body is stored once, as the `rawBody` string (whose
 * escaped line breaks keep a journal line on one line), with `0` in the `body` placeholder; `reviveWebhookInput`
 * (src/util/json-text.ts) parses it back. A replay thus gets `rawBody` byte for byte and a large body is not stored twice.
 * @example
 * const input = new WebhookInput(decoded, req.headers, req.query, req.method)
 */
export class WebhookInput extends CarriesJson {
  body: unknown;
  headers: WebhookRequest['headers'];
  query: WebhookRequest['query'];
  method: string;
  rawBody: string | null;

  constructor(decoded: DecodedBody, headers: WebhookRequest['headers'], query: WebhookRequest['query'], method: string) {
    super(
      decoded.json
        ? `${BODY_PLACEHOLDER},"headers":${JSON.stringify(headers)},"query":${JSON.stringify(query)},"method":${JSON.stringify(method)},"rawBody":${JSON.stringify(decoded.raw)}}`
        : undefined,
    );
    this.body = decoded.value;
    this.headers = headers;
    this.query = query;
    this.method = method;
    this.rawBody = decoded.raw;
  }

  /** The body goes back into the `0` placeholder the stored text begins with, as the JSON text it arrived as. */
  protected wholeText(): string | undefined {
    const stored = CarriesJson.textOf(this);
    return stored === undefined ? undefined : `${BODY_PLACEHOLDER.slice(0, -1)}${this.rawBody}${stored.slice(BODY_PLACEHOLDER.length)}`;
  }
}
