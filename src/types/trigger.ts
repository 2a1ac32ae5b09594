import type { WorkflowConfig } from '../resources/workflows/types.js';

/** What started an execution: a built-in kind, or the name a custom trigger gives its own (`'job'`). */
export type TriggerKind = 'manual' | 'webhook' | 'schedule' | 'interface' | 'sms' | 'call' | 'call_flow' | (string & {});

/**
 * What a caller gets back: an HTTP answer, a Respond node's answer, a remembered idempotent answer. A plain
 * object or array `body` is sent as JSON; a string or Buffer as is (with the given content type).
 */
export interface Outcome {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The flow an event runs: a published copy (or a draft for manual runs). */
export interface FlowRef {
  id: string;
  name: string;
  version?: number | null;
  config: WorkflowConfig;
  hash?: string;
}

/** What went wrong, as recorded and answered (never a stack). `node` names the node that failed. */
export interface ErrorInfo {
  code: string;
  message: string;
  status?: number;
  node?: string;
  /** What the failing node leaves for whoever handles the error (an agent's partial `toolCalls` and text at `MAX_STEPS`). */
  details?: unknown;
}

/**
 * A trigger's input turned into something to run, whatever it came from (webhook, schedule, interface
 * event, telephony, `executeFlow`): the dispatcher runs it here or on the execution queue.
 */
export interface TriggerEvent {
  flow: FlowRef;
  trigger: TriggerKind;
  input: unknown;
  /**
   * The execution id chosen beforehand: a durable delivery's, or one an idempotency key names (the same key
   * from any host then runs once).
   */
  executionId?: string;
  /** Records the execution as failed with this error instead of running it (a delivery that crashed the host). */
  refuse?: ErrorInfo;
}

/** A request body as a flow receives it. */
export interface DecodedBody {
  /** Parsed: JSON value, form object, text, multipart fields, or `{contentType, size, base64}` for bytes. */
  value: unknown;
  /** The body text exactly as received (after content decoding, before parsing); null for a body kept as bytes. */
  raw: string | null;
  /** True when the body was JSON, so `value` is `JSON.parse(raw)`. */
  json: boolean;
}

/** What the webhook intake reads of an HTTP request (header names lower case). */
export interface WebhookRequest {
  method: string;
  headers: Record<string, string>;
  query: Record<string, string | string[]>;
  /** Where weir's routes are reached from outside (prefix included); a `respondImmediately` status URL is on it when set. */
  publicUrl?: string;
  /** Scheme, host and port the request was sent to: the status URL's origin without a public URL. */
  origin?: string;
  /** The path weir is mounted under in an embedding app (kept in a status URL made from `origin`). */
  base?: string;
}

/** Decodes a request's body, under its own content type or the one given. */
export type BodyDecoder<R> = (req: R, contentType?: string) => DecodedBody | Promise<DecodedBody>;
