import { WeirError, type ErrorCode } from '../errors.js';

/** Default time one provider request may take (`providers.<name>.timeoutMs` overrides it). */
export const DEFAULT_TIMEOUT_MS = 15_000;

export interface ProviderClientOptions {
  /** The service's name as users know it (`ElevenLabs`, `Twilio`), used in every message. */
  service: string;
  /** An origin such as `https://api.elevenlabs.io`; request paths carry their version. */
  baseUrl: string;
  /** Sent with every request (authentication). */
  headers: Record<string, string>;
  timeoutMs?: number;
  /** What to tell the user when the service refuses the credentials. */
  credentialHint: string;
  /** The `weir.config.json` key of the base URL, named when the service cannot be reached. */
  baseUrlKey: string;
  /** The `weir.config.json` key of the time limit, named when a request runs out of time. */
  timeoutKey?: string;
  /**
   * How many times a request answered 429 or 5xx is sent again (default 0), after `Retry-After` /
   * `retry-after-ms` when the service says, else after an exponential backoff.
   */
  maxRetries?: number;
}

export interface RequestOptions {
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  /** The caller's cancellation: it ends the request and any wait before a retry, throwing its reason. */
  signal?: AbortSignal;
  /** What to tell the user when the service answers 404 (which name or key to check). */
  notFoundHint?: string;
}

/** The first wait of the exponential backoff between retries; each further one doubles it. */
export const RETRY_BASE_MS = 500;

/** The longest wait before a retry weir accepts; a service asking for more fails the request at once. */
export const MAX_RETRY_WAIT_MS = 60_000;

/** The error code of a provider's HTTP status: 401/403 are credentials, 404 a missing resource. */
export const codeForStatus = (status: number): ErrorCode =>
  status === 401 || status === 403 ? 'UNAUTHORIZED' : status === 404 ? 'NOT_FOUND' : 'PROVIDER';

/**
 * The human part of a provider's error body (ElevenLabs `detail`, Twilio `message`, OpenAI and Anthropic
 * `error.message`, Ollama and llama.cpp `error`), else its text.
 */
export function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body);
    if (typeof parsed?.error?.message === 'string') return parsed.error.message;
    if (typeof parsed?.error === 'string') return parsed.error;
    const detail = parsed?.detail;
    if (typeof detail === 'string') return detail;
    if (typeof detail?.message === 'string') return detail.message;
    if (Array.isArray(detail) && detail[0]?.msg) return detail.map((d: { msg: string }) => d.msg).join('; ');
    if (typeof parsed?.message === 'string') return parsed.message;
  } catch {
    // not JSON: the text itself is the best we have
  }
  return body.trim().slice(0, 300) || '(empty body)';
}

/**
 * How long a 429 or 5xx answer asks to wait, in ms: `retry-after-ms` (OpenAI's), else `Retry-After` in
 * seconds or as an HTTP date; undefined when it says neither.
 * @example
 * retryAfterMs(new Headers({ 'retry-after': '2' })) // 2000
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, or throws the signal's reason as soon as it is aborted. */
function wait(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Whether a status is worth sending the same request again for: rate limits and server trouble. */
const retryable = (status: number): boolean => status === 429 || status >= 500;

/**
 * A small JSON client of one provider API: every failure (status, timeout, network) becomes a WeirError
 * whose message names the service, the request and what to do.
 * @example
 * const api = createProviderClient({ service: 'ElevenLabs', baseUrl, headers: { 'xi-api-key': key }, credentialHint, baseUrlKey })
 * const { agents } = await api.request<{ agents: unknown[] }>('GET', '/v1/convai/agents', { query: { page_size: 100 } })
 */
export function createProviderClient(options: ProviderClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  /** The absolute URL of a path (which may already hold a query, like Twilio's `next_page_uri`). */
  const urlOf = (path: string, query?: RequestOptions['query']): string => {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  };
  /** One try: the response whatever its status; no answer in time or no connection is an error saying what to check. */
  const send = async (url: string, init: RequestInit, what: string, signal?: AbortSignal): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        const fix = options.timeoutKey ? `; ${options.timeoutKey} in weir.config.json sets a longer time limit` : `; ${options.baseUrlKey} in weir.config.json sets another base URL`;
        throw new WeirError('PROVIDER', `${options.service} did not answer ${what} within ${timeoutMs / 1000}s`, {
          hints: [`check that ${base} is reachable${fix}`],
        });
      }
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new WeirError('PROVIDER', `cannot reach ${options.service} at ${base}: ${cause?.code ?? cause?.message ?? (err as Error).message}`, {
        hints: [`check the network or ${options.baseUrlKey} in weir.config.json`],
        cause: err,
      });
    }
  };
  return {
    async request<T>(method: string, path: string, req: RequestOptions = {}): Promise<T> {
      const url = urlOf(path, req.query);
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
      let body: string | undefined;
      if (req.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(req.json);
      } else if (req.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(req.form).toString();
      }
      const what = `${method} ${new URL(url).pathname}`;
      const maxRetries = options.maxRetries ?? 0;
      let res: Response;
      let attempt = 0;
      for (; ; attempt++) {
        res = await send(url, { method, headers, body }, what, req.signal);
        if (!retryable(res.status) || attempt >= maxRetries) break;
        const asked = retryAfterMs(res.headers);
        if (asked !== undefined && asked > MAX_RETRY_WAIT_MS) break;
        await res.body?.cancel();
        await wait(asked ?? RETRY_BASE_MS * 2 ** attempt * (0.75 + Math.random() / 2), req.signal);
      }
      const text = await res.text();
      if (!res.ok) {
        const code = codeForStatus(res.status);
        const tries = attempt > 0 ? ` after ${attempt + 1} tries` : '';
        const asked = retryAfterMs(res.headers);
        const hints = code === 'UNAUTHORIZED' ? [options.credentialHint] : code === 'NOT_FOUND' && req.notFoundHint ? [req.notFoundHint] : [];
        if (retryable(res.status) && asked !== undefined && asked > MAX_RETRY_WAIT_MS) hints.push(`${options.service} asks to wait ${Math.ceil(asked / 1000)}s before trying again`);
        throw new WeirError(code, `${options.service} refused ${what} (${res.status})${tries}: ${errorText(text)}`, { hints });
      }
      if (!text) return undefined as T;
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new WeirError('PROVIDER', `${options.service} answered ${what} with a body that is not JSON: ${text.slice(0, 120)}`);
      }
    },
  };
}

export type ProviderClient = ReturnType<typeof createProviderClient>;
