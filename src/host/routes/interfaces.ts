import { errorResponse, WeirError } from '../../errors.js';
import type { Interfaces } from '../../resources/interfaces/index.js';
import type { HostRequest, HostResponse, Route } from '../types.js';
import { sameToken, tokenOf, TOKEN_COOKIE } from '../access.js';

type Served = Pick<Interfaces, 'served' | 'accessToken' | 'find' | 'log'>;

/** The file a path inside an interface asks for (already decoded by the router): `` and `dir/` mean `index.html`. */
const filePath = (rest: string): string => (rest === '' || rest.endsWith('/') ? `${rest}index.html` : rest);

async function serve(req: HostRequest, name: string, rest: string, interfaces: Served): Promise<HostResponse> {
  const served = await interfaces.served(name);
  if (!served) throw new WeirError('NOT_FOUND', `interface "${name}" is not deployed`);
  const headers: Record<string, string> = { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };
  if (served.record.type === 'internal') {
    const { token, fromQuery } = tokenOf(req);
    if (!token || !sameToken(token, await interfaces.accessToken())) {
      throw new WeirError('UNAUTHORIZED', `interface "${name}" is internal: send the host's access token`, {
        hints: ['`weir interface token` prints it; send `Authorization: Bearer <token>` or open the page with ?token=<token>'],
      });
    }
    // The page's own assets load without the query: a cookie scoped to the interface carries the token.
    if (fromQuery) headers['set-cookie'] = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/i/${encodeURIComponent(name)}/; HttpOnly; SameSite=Strict`;
  }
  const path = filePath(rest);
  // A path without an extension that names no file is a client-side route: the app's index.html answers.
  const file = served.files.get(path) ?? (/\.[^/]+$/.test(path) ? undefined : served.files.get('index.html'));
  if (!file) throw new WeirError('NOT_FOUND', `no file "${path}" in interface "${name}"`);
  return { status: 200, headers: { ...headers, 'content-type': file.contentType }, body: req.method === 'HEAD' ? '' : file.data };
}

/**
 * Deployed interfaces under `/i/<name>/`: files with their content types; internal interfaces
 * only with the host's access token. Every request is written to the interface's log.
 */
export const interfaceRoutes = (interfaces: Served): Route[] => [
  {
    methods: ['GET', 'HEAD'],
    path: '/i/:name/*',
    async handle(req, params) {
      const rest = params['*'] ?? '';
      // Relative asset URLs of the page resolve only below a trailing slash.
      if (!rest && !req.path.endsWith('/')) {
        const qs = new URLSearchParams(Object.entries(req.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString();
        return { status: 301, headers: { location: `${req.base ?? ''}/i/${encodeURIComponent(params.name)}/${qs ? `?${qs}` : ''}` }, body: '' };
      }
      let res: HostResponse;
      try {
        res = await serve(req, params.name, rest, interfaces);
      } catch (err) {
        // Unexpected errors go on to the host's error mapper (which hides them); ours are answered and logged.
        if (!(err instanceof WeirError)) throw err;
        res = errorResponse(err);
      }
      const record = await interfaces.find(params.name);
      if (record) await interfaces.log(record.id, 'request', `${req.method} ${req.path} ${res.status}`).catch(() => {});
      return res;
    },
  },
];
