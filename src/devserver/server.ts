import { watch, type FSWatcher } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { toJson, toWeirError, WeirError } from '../errors.js';
import { buildInterface, type FileMap } from '../resources/interfaces/index.js';

/** Paths the host answers (the flows of the same home), not the interface's files. */
const HOST_PATHS = /^\/(weir-client\.js$|api\/)/;
/** Changes in these folders never trigger a rebuild. */
const IGNORED = /(^|[/\\])(\.|node_modules([/\\]|$))/;
const MAX_CONTROL_BODY = 64 * 1024;

/** Live reload: the page listens to the dev server and reloads after each good build. */
const RELOAD_SNIPPET = `<script>(() => {
  const events = new EventSource('/__weir/events');
  events.addEventListener('reload', () => location.reload());
  events.addEventListener('build-error', (e) => console.error('[weir] build failed: ' + e.data));
})();</script>`;

export interface DevServerOptions {
  /** The interface folder. */
  dir: string;
  port?: number;
  host?: string;
  /** Bearer secret of the webview control API. */
  secret: string;
  /** Answers the host's paths (`/weir-client.js`, `/api/flows/...`) with the flows of the same home. */
  delegate(req: IncomingMessage, res: ServerResponse): void;
  log(line: string): void;
}

export type DevServer = Awaited<ReturnType<typeof startDevServer>>;

const injectReload = (html: string) => {
  const at = html.toLowerCase().lastIndexOf('</body>');
  return at < 0 ? html + RELOAD_SNIPPET : html.slice(0, at) + RELOAD_SNIPPET + html.slice(at);
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_CONTROL_BODY) reject(new WeirError('PAYLOAD_TOO_LARGE', 'control request too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

/**
 * The dev server of one interface: serves a fresh build of its folder (rebuilt on every change, with live
 * reload over server-sent events), hands the host's paths to `delegate`, and exposes the webview control
 * API (`POST /__weir/webview`, Bearer secret) once {@link DevServer.control} is set.
 * @example
 * const dev = await startDevServer({ dir: './shop', secret, delegate: hostListener, log: console.log })
 * dev.control = (action) => webview.perform(action)
 */
export async function startDevServer(options: DevServerOptions) {
  let files: FileMap | null = null;
  let buildError: string | null = null;
  const clients = new Set<ServerResponse>();
  const broadcast = (event: string, data = '') => {
    for (const c of clients) c.write(`event: ${event}\ndata: ${data.replace(/\n/g, ' ')}\n\n`);
  };

  async function rebuild(): Promise<void> {
    const started = Date.now();
    try {
      files = await buildInterface(options.dir);
      buildError = null;
      options.log(`built ${files.size} files in ${Date.now() - started} ms`);
    } catch (err) {
      buildError = toWeirError(err).message;
      options.log(`build failed: ${buildError}`);
    }
  }

  const self = {
    /** Performs a webview action (the parsed request body); set by the process that owns the browser. */
    control: null as null | ((action: unknown) => Promise<unknown>),
    url: '',
    port: 0,
    close,
  };

  async function controlRequest(req: IncomingMessage, res: ServerResponse) {
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (auth.length !== options.secret.length || !timingSafeEqual(Buffer.from(auth), Buffer.from(options.secret))) {
      return sendJson(res, 401, toJson(new WeirError('UNAUTHORIZED', 'bad webview control secret')));
    }
    try {
      if (!self.control) throw new WeirError('UNAVAILABLE', 'the preview browser is not ready yet');
      let action: unknown;
      try {
        action = JSON.parse(await readBody(req));
      } catch (err) {
        throw err instanceof WeirError ? err : new WeirError('INVALID_INPUT', 'control request is not JSON');
      }
      sendJson(res, 200, await self.control(action));
    } catch (err) {
      const e = toWeirError(err);
      sendJson(res, e.status, toJson(e));
    }
  }

  function serveFile(req: IncomingMessage, res: ServerResponse, path: string) {
    if (buildError || !files) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end(`build failed:\n${buildError ?? 'not built yet'}\n`);
    }
    const want = decodeURIComponent(path.slice(1));
    const name = want === '' || want.endsWith('/') ? `${want}index.html` : want;
    const file = files.get(name) ?? (/\.[^/]+$/.test(name) ? undefined : files.get('index.html'));
    if (!file && name === 'favicon.ico') {
      // Browsers ask for it on every page; an interface without one should not log a 404 each time.
      res.writeHead(204);
      return res.end();
    }
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end(`not found: ${name}\n`);
    }
    const html = file.contentType.startsWith('text/html');
    res.writeHead(200, { 'content-type': file.contentType, 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : html ? injectReload(file.data.toString('utf8')) : file.data);
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/__weir/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': weir live reload\n\n');
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    res.on('finish', () => options.log(`${req.method} ${req.url} ${res.statusCode}`));
    if (path === '/__weir/webview' && req.method === 'POST') return void controlRequest(req, res);
    if (HOST_PATHS.test(path)) return options.delegate(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, toJson(new WeirError('INVALID_INPUT', `${req.method} is not served here`)));
    try {
      serveFile(req, res, path);
    } catch {
      sendJson(res, 400, toJson(new WeirError('INVALID_INPUT', 'malformed path')));
    }
  });

  await rebuild();
  // Rebuild once a burst of changes settles (editors write several times per save).
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(options.dir, { recursive: true }, (_event, file) => {
    if (file && IGNORED.test(String(file))) return;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      await rebuild();
      broadcast(buildError ? 'build-error' : 'reload', buildError ?? '');
    }, 80);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  self.port = (server.address() as AddressInfo).port;
  self.url = `http://${options.host ?? '127.0.0.1'}:${self.port}/`;

  async function close(): Promise<void> {
    clearTimeout(timer);
    watcher.close();
    for (const c of clients) c.end();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
  return self;
}
