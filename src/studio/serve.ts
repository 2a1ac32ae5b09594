import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { checkAccess, type ApiAccess } from '../api/access.js';
import { errorResponse, WeirError } from '../errors.js';
import { tokenOf, TOKEN_COOKIE } from '../host/access.js';
import type { HostRequest, HostResponse, Route } from '../host/types.js';

/** One file of the prebuilt page, held in memory with its gzip form and validator. */
interface StudioFile {
  type: string;
  data: Buffer;
  gzipped: Buffer;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/**
 * The folder of the prebuilt page: `studio/` beside the bundle that holds this module (dist/), or, when weir
 * runs from its sources (tests under tsx), the package's dist/studio/.
 */
function studioDir(): string | null {
  const candidates = [new URL('./studio/', import.meta.url), new URL('../../dist/studio/', import.meta.url)].map((u) => fileURLToPath(u));
  return candidates.find((dir) => existsSync(`${dir}index.html`)) ?? null;
}

/** Reads the page's files once: the bundle is built at `npm run build` and never changes while a host runs. */
function loadFiles(dir: string): Map<string, StudioFile> {
  const files = new Map<string, StudioFile>();
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const ext = /\.[^./]+$/.exec(name)?.[0] ?? '';
    const type = TYPES[ext];
    if (!type) continue;
    const data = readFileSync(`${dir}${name}`);
    files.set(name.replaceAll('\\', '/'), { type, data, gzipped: gzipSync(data), etag: `"${createHash('sha1').update(data).digest('base64url')}"` });
  }
  return files;
}

const unauthorizedPage = (base: string) => `<!doctype html><meta charset="utf-8"><title>weir Studio</title>
<body style="font:15px system-ui;margin:3rem;max-width:40rem"><h1>weir Studio</h1>
<p>The Studio needs this host's access token. Open it once as <code>${base}/studio/?token=&lt;token&gt;</code>:
<code>weir interface token</code> prints the token. A cookie then keeps you signed in.</p></body>`;

/** A chunk of the bundle named after its content's hash (`chunk-5FBXSYYM.js`): what that name holds never changes. */
const HASHED = /-[A-Z0-9]{8}\.js$/;

function answerFile(req: HostRequest, name: string, file: StudioFile): HostResponse {
  // The fixed names (index.html, app.js) are checked on every load; a hashed chunk is kept without asking again.
  const cache = HASHED.test(name) ? 'private, max-age=31536000, immutable' : 'no-cache';
  const base = { 'content-type': file.type, 'cache-control': cache, etag: file.etag, vary: 'accept-encoding', 'x-content-type-options': 'nosniff' };
  if (req.headers['if-none-match'] === file.etag) return { status: 304, headers: base, body: '' };
  const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
  const body = req.method === 'HEAD' ? '' : gzip ? file.gzipped : file.data;
  return { status: 200, headers: gzip ? { ...base, 'content-encoding': 'gzip' } : base, body };
}

/**
 * The Studio at `/studio/`: the prebuilt page (dist/studio/), behind the same access as the management API.
 * Opened once with `?token=`, it sets an HttpOnly, SameSite=Strict cookie for the host's paths and redirects
 * to the URL without the token, so the token leaves the address bar and the page's API calls carry the cookie.
 * @example
 * const routes = studioRoutes({ token: () => weir.interfaces.accessToken() })
 */
export function studioRoutes(access: ApiAccess): Route[] {
  let files: Map<string, StudioFile> | undefined;
  const page = () => {
    if (files) return files;
    const dir = studioDir();
    if (!dir) throw new WeirError('NOT_FOUND', 'the Studio is not built: run `npm run build` in the weir package');
    return (files = loadFiles(dir));
  };
  return [
    {
      methods: ['GET', 'HEAD'],
      path: '/studio/*',
      async handle(req, params) {
        const base = req.base ?? '';
        // The page's relative asset URLs resolve only below a trailing slash.
        if (!params['*'] && !req.path.endsWith('/')) return { status: 301, headers: { location: `${base}/studio/${req.rawQuery ? `?${req.rawQuery}` : ''}` }, body: '' };
        try {
          await checkAccess(req, access);
        } catch (err) {
          if (!(err instanceof WeirError) || params['*'] !== '') throw err;
          return { status: errorResponse(err).status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body: unauthorizedPage(base) };
        }
        if (tokenOf(req).fromQuery) {
          const cookie = `${TOKEN_COOKIE}=${encodeURIComponent(tokenOf(req).token!)}; Path=${base}/; HttpOnly; SameSite=Strict`;
          return { status: 303, headers: { 'set-cookie': cookie, location: `${base}/studio/`, 'cache-control': 'no-store' }, body: '' };
        }
        const rest = params['*'] || 'index.html';
        const file = page().get(rest);
        if (!file) throw new WeirError('NOT_FOUND', `no file "${rest}" in the Studio`);
        return answerFile(req, rest, file);
      },
    },
  ];
}
