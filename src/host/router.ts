import type { Route, RouteParams } from './types.js';

/** A route found for a request, with the path parameters it captured. */
export interface RouteMatch {
  route: Route;
  params: RouteParams;
}

/** What {@link compileRoutes} returns: finds the route of a method and path. */
export interface Router {
  /** The first route whose pattern and method fit (HEAD is answered by GET routes), or null. */
  match(method: string, path: string): RouteMatch | null;
}

interface Compiled {
  route: Route;
  /** Pattern segments; `:x` captures one segment, a final `*` captures the rest. */
  segments: string[];
  wildcard: boolean;
  isStatic: boolean;
  methods: Set<string> | null;
  order: number;
}

const split = (path: string): string[] => path.split('/').filter(Boolean);
/** `/a/b`: one leading slash, no empty segment, no trailing slash (the form routes are stored in). */
const isPlain = (path: string): boolean => path.charCodeAt(0) === 47 && path.charCodeAt(path.length - 1) !== 47 && !path.includes('//');

/**
 * Compiles route patterns once: static paths go into a map (one lookup), the rest are grouped by their
 * first literal segment so a request only tries the few patterns that can fit. Match order is the order of
 * the list.
 * @example
 * const router = compileRoutes([{ path: '/trigger/:token', handle }])
 * router.match('POST', '/trigger/abc') // { route, params: { token: 'abc' } }
 */
export function compileRoutes(routes: readonly Route[]): Router {
  const exact = new Map<string, Compiled[]>();
  const byHead = new Map<string, Compiled[]>();
  const dynamicHead: Compiled[] = [];
  routes.forEach((route, order) => {
    const segments = split(route.path);
    const wildcard = segments.at(-1) === '*';
    if (wildcard) segments.pop();
    const isStatic = !wildcard && segments.every((s) => !s.startsWith(':'));
    const methods = route.methods ? new Set(route.methods.map((m) => m.toUpperCase())) : null;
    const c: Compiled = { route, segments, wildcard, isStatic, methods, order };
    if (isStatic) push(exact, `/${segments.join('/')}`, c);
    else if (segments.length && !segments[0].startsWith(':')) push(byHead, segments[0], c);
    else dynamicHead.push(c);
  });
  // Every list a request may try, merged once here in route order: a static path also fits the patterns
  // under its first segment and those starting with a parameter.
  const inOrder = (...lists: Array<Compiled[] | undefined>) => lists.flatMap((l) => l ?? []).sort((a, b) => a.order - b.order);
  for (const [path, list] of exact) exact.set(path, inOrder(list, byHead.get(split(path)[0] ?? ''), dynamicHead));
  for (const [head, list] of byHead) byHead.set(head, inOrder(list, dynamicHead));

  function fit(c: Compiled, parts: string[]): RouteParams | null {
    if (c.wildcard ? parts.length < c.segments.length : parts.length !== c.segments.length) return null;
    const params: RouteParams = {};
    for (let i = 0; i < c.segments.length; i++) {
      const s = c.segments[i];
      if (s.charCodeAt(0) === 58 /* : */) params[s.slice(1)] = safeDecode(parts[i]);
      else if (s !== parts[i]) return null;
    }
    if (c.wildcard) params['*'] = parts.slice(c.segments.length).map(safeDecode).join('/');
    return params;
  }

  return {
    match(method, path) {
      const upper = method.toUpperCase();
      const parts = split(path);
      // A path written the usual way (`/a/b`) is its own key; only odd ones (`//a/b/`) are rebuilt.
      const candidates = exact.get(path) ?? (isPlain(path) ? undefined : exact.get(`/${parts.join('/')}`)) ?? byHead.get(parts[0] ?? '') ?? dynamicHead;
      for (const c of candidates) {
        // Static candidates came from the exact map, so their path already fits.
        const params = c.isStatic ? {} : fit(c, parts);
        if (!params) continue;
        if (c.methods && !c.methods.has(upper) && !(upper === 'HEAD' && c.methods.has('GET'))) continue;
        return { route: c.route, params };
      }
      return null;
    },
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function safeDecode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
