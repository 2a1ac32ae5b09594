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
}

export interface RequestOptions {
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
}

/** The error code of a provider's HTTP status: 401/403 are credentials, 404 a missing resource. */
export const codeForStatus = (status: number): ErrorCode =>
  status === 401 || status === 403 ? 'UNAUTHORIZED' : status === 404 ? 'NOT_FOUND' : 'PROVIDER';

/** The human part of a provider's error body (ElevenLabs `detail`, Twilio `message`), else its text. */
export function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body);
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
      let res: Response;
      try {
        res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        const name = (err as Error).name;
        if (name === 'TimeoutError' || name === 'AbortError') {
          throw new WeirError('PROVIDER', `${options.service} did not answer ${what} within ${timeoutMs / 1000}s`, {
            hints: [`check that ${base} is reachable; ${options.baseUrlKey} in weir.config.json sets another base URL`],
          });
        }
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        throw new WeirError('PROVIDER', `cannot reach ${options.service} at ${base}: ${cause?.code ?? cause?.message ?? (err as Error).message}`, {
          hints: [`check the network or ${options.baseUrlKey} in weir.config.json`],
          cause: err,
        });
      }
      const text = await res.text();
      if (!res.ok) {
        const code = codeForStatus(res.status);
        throw new WeirError(code, `${options.service} refused ${what} (${res.status}): ${errorText(text)}`, {
          hints: code === 'UNAUTHORIZED' ? [options.credentialHint] : [],
        });
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
