/** Statuses after which `http_request` follows the `Location` header. */
export const REDIRECTS = [301, 302, 303, 307, 308];

/** Headers that carry credentials; a redirect to another origin never receives them. */
export const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

// Headers describing the body; they go with it when a redirect turns the request into a GET.
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/** One request as `http_request` sends it. */
export interface Hop {
  url: URL;
  method: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: string | undefined;
}

/**
 * The request that follows a redirect, by the rules browsers' `fetch` and curl apply: 303 (other than for
 * GET and HEAD), and 301 and 302 for a POST, turn into a GET without the body; 307 and 308 repeat the
 * request as it was. On the way to another origin (scheme, host or port differ) the credential headers,
 * the `secret` header names given, and any `Host` set by hand are dropped, and stay dropped on later hops.
 * @example
 * const next = followRedirect(hop, 302, 'https://other.example/', ['x-api-key'])
 * next.headers.authorization // undefined
 */
export function followRedirect(hop: Hop, status: number, location: string, secret: readonly string[] = []): Hop {
  const url = new URL(location, hop.url);
  const headers = { ...hop.headers };
  const toGet = (status === 303 && hop.method !== 'GET' && hop.method !== 'HEAD') || ((status === 301 || status === 302) && hop.method === 'POST');
  if (toGet) for (const name of BODY_HEADERS) delete headers[name];
  if (url.origin !== hop.url.origin) {
    for (const name of [...CREDENTIAL_HEADERS, ...secret.map((s) => s.toLowerCase()), 'host']) delete headers[name];
  }
  return { url, method: toGet ? 'GET' : hop.method, headers, body: toGet ? undefined : hop.body };
}
