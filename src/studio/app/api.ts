// The Studio's only way to the host: the management API under `<prefix>/api/v1`, authenticated by the cookie
// the `?token=` visit set (same origin, so fetch and EventSource send it).

/** Where the host mounted weir: the page is `<prefix>/studio/`. */
export const PREFIX = location.pathname.replace(/\/studio(\/.*)?$/, '');
export const API = `${PREFIX}/api/v1`;

/** An error document of the API (`{error: {code, message, details?, hints?}}`), or a transport failure. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly hints: string[] = [],
  ) {
    super(message);
  }
}

/** The event the page gets when the host refuses the Studio's token (the app then shows how to sign in again). */
export const SIGNED_OUT = 'weir:signed-out';

/**
 * A 401 means no token reached the host (the cookie is gone); a 403 to a read means the cookie's token is not
 * the host's (it changed). A 403 to a write may be the same-origin check instead, so it stays the action's error.
 */
const refusesToken = (method: string, status: number) => status === 401 || (status === 403 && method === 'GET');

/** The GETs index.html sent while this code loaded, by path; each answers its first caller only. */
const early: Record<string, Promise<Response>> = (globalThis as { weirEarly?: Record<string, Promise<Response>> }).weirEarly ?? {};

function send(method: string, path: string, body: unknown, signal: AbortSignal | undefined): Promise<Response> {
  const sent = method === 'GET' ? early[path] : undefined;
  if (sent) {
    delete early[path];
    return sent;
  }
  return fetch(`${API}${path}`, {
    method,
    signal,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await send(method, path, body, signal);
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', `the host did not answer (${(err as Error).message})`);
  }
  const text = await res.text();
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // A proxy in front of the host may answer an HTML error page.
    throw new ApiError(res.status, `HTTP_${res.status}`, `${method} ${path} answered ${res.status} with something other than JSON`);
  }
  if (!res.ok) {
    const e = data?.error ?? {};
    if (refusesToken(method, res.status)) dispatchEvent(new CustomEvent(SIGNED_OUT, { detail: { status: res.status } }));
    throw new ApiError(res.status, e.code ?? `HTTP_${res.status}`, e.message ?? `${method} ${path} answered ${res.status}`, e.details, e.hints);
  }
  return data as T;
}

/** JSON calls to the management API; a path starts with `/` (`/workflows`). */
export const api = {
  get: <T>(path: string, signal?: AbortSignal) => call<T>('GET', path, undefined, signal),
  post: <T>(path: string, body: unknown = {}) => call<T>('POST', path, body),
  put: <T>(path: string, body: unknown) => call<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => call<T>('PATCH', path, body),
  del: <T>(path: string) => call<T>('DELETE', path),
};

/** A path segment, encoded. */
export const seg = encodeURIComponent;

/**
 * Follows a server-sent event stream of the API; `onEvent` gets each event's name and parsed data. The browser
 * reconnects by itself with `Last-Event-ID`, so no event is lost or seen twice once the stream is open;
 * `onOpen` is called each time it (re)opens. Returns the stop function.
 */
export function follow(path: string, onEvent: (name: string, data: any) => void, onOpen?: () => void): () => void {
  const source = new EventSource(`${API}${path}`, { withCredentials: true });
  const names = ['snapshot', 'execution:start', 'node:start', 'node:end', 'execution:log', 'execution:end'];
  for (const name of names) source.addEventListener(name, (e) => onEvent(name, JSON.parse((e as MessageEvent).data)));
  if (onOpen) source.addEventListener('open', onOpen);
  return () => source.close();
}
