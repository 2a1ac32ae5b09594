import { CODES, WeirError, type ErrorCode } from '../../errors.js';

/** A client of a host's management API (`/api/v1`), for `weir --remote <url>`. */
export interface RemoteApi {
  /** The host's URL, as given. */
  readonly url: string;
  /** A JSON request; a non-2xx answer throws the host's error (code, message, hints, details) as a WeirError. */
  call<T = any>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T>;
}

const TOKEN_HINT = 'set WEIR_TOKEN (or --token-file <file>) to the host\'s access token: `weir interface token` on the host prints it';

/**
 * A management API client over fetch. The token goes as `Authorization: Bearer`; an unreachable host is
 * UNAVAILABLE naming the URL; an answer that is not weir's JSON is PROVIDER.
 * @example
 * const api = remoteApi('http://10.0.0.5:8787', process.env.WEIR_TOKEN)
 * const workflows = await api.call('GET', '/workflows')
 */
export function remoteApi(url: string, token: string | undefined): RemoteApi {
  const base = url.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(base)) throw new WeirError('USAGE', `--remote takes the host's http(s) URL, got "${url}"`, { hints: ['e.g. --remote http://127.0.0.1:8787'] });
  return {
    url: base,
    async call(method, path, body) {
      let res: Response;
      try {
        res = await fetch(`${base}/api/v1${path}`, {
          method,
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        throw new WeirError('UNAVAILABLE', `cannot reach ${base}: ${cause?.code ?? cause?.message ?? (err as Error).message}`, { hints: ['is `weir serve` running there?'] });
      }
      const text = await res.text();
      let answer: any;
      try {
        answer = text ? JSON.parse(text) : undefined;
      } catch {
        throw new WeirError('PROVIDER', `${base} answered ${res.status} with something other than JSON: is it a weir host?`);
      }
      if (res.ok) return answer;
      const error = answer?.error;
      if (typeof error?.code !== 'string') throw new WeirError('PROVIDER', `${base} answered ${res.status} without a weir error document`);
      const code = (error.code in CODES ? error.code : 'PROVIDER') as ErrorCode;
      const hints: string[] = Array.isArray(error.hints) ? error.hints : [];
      throw new WeirError(code, error.message, { hints: code === 'UNAUTHORIZED' || code === 'FORBIDDEN' ? [TOKEN_HINT] : hints, details: error.details });
    },
  };
}
