import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_BODY, DEFAULT_PORT, WeirError, createMount, errorResponse, type Host, type HostDeps, type HostOptions, type MountOptions } from '../../src/internal.js';
import { createLifecycle, shuttingDown, type HostLifecycle } from '../_shared/lifecycle.js';
import { readBody } from './body.js';
import { answerAndLinger } from './linger.js';
import { bodyLeftByParser } from './parsed-body.js';
import { createTurnGate } from './turn-gate.js';
import { flatHeaders, sendResponse, toHostRequest, type RequestParts } from './transport.js';

export { readBody } from './body.js';
// The transport-free core, for hosts on other transports.
export {
  DEFAULT_MAX_BODY,
  DEFAULT_PORT,
  createHost,
  ROUTE_GROUPS,
  type Host,
  type HostOptions,
  type HostRequest,
  type HostResponse,
  type MountOptions,
  type Route,
  type RouteGroup,
} from '../../src/internal.js';

/** Where a request goes inside weir, known before its body is read. */
type Target = Omit<RequestParts, 'rawBody' | 'headers'>;

/** Options of {@link createListener}. */
export interface ListenerOptions extends HostOptions, MountOptions {
  /** The URL the host is reachable at from outside (behind a proxy); default `publicUrl` of weir.config.json. */
  publicUrl?: string;
  /** Request body limit in bytes (default 1 MiB): larger bodies get 413 without being read. */
  maxBody?: number;
  /** A host core made elsewhere (default: one made here with these options). */
  host?: Host;
}

/** A node:http request listener with the host's lifecycle attached. */
export type Listener = ((req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void) & HostLifecycle;

/**
 * A request listener for node:http / node:https, mountable in an existing app (Express, Connect, a plain
 * server): paths the host does not own — outside `prefix`, or of a route group left out of `routes` — go
 * to `next()` when one is given, else get the 404 JSON answer. A body an app's body parser already read
 * (`express.json()` mounted first) is taken from `req.rawBody` / `req.body` instead of the spent stream.
 *
 * Requests whose bodies were read during one event-loop turn are handled together once the loop has read
 * every ready socket: a busy host then parses a run of requests, handles a run, answers a run, instead of
 * alternating per request, and spends less CPU on each (the same code stays in the CPU's caches; figures
 * in docs/performance.md). A lone request waits one loop turn more.
 * @example
 * const weirListener = createListener(weir, { prefix: '/weir' })
 * http.createServer((req, res) => weirListener(req, res, () => myApp(req, res))).listen(3000)
 */
export function createListener(weir: HostDeps, options: ListenerOptions = {}): Listener {
  const mount = createMount(options.prefix);
  const life = createLifecycle(weir, options);
  const { host } = life;
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const publicUrl = (options.publicUrl ?? weir.config.publicUrl)?.replace(/\/+$/, '');
  const nextTurn = createTurnGate();
  let warned = false;

  /** Reads the body, or takes what a body parser left (once per listener warning that it was rebuilt). */
  async function bodyOf(req: IncomingMessage, target: Target): Promise<RequestParts> {
    const headers = flatHeaders(req);
    const parsed = bodyLeftByParser(req, headers, maxBody);
    // Literal objects of one shape, not spreads of `target`: this runs once per request.
    if (!parsed) return { url: target.url, base: target.base, publicUrl: target.publicUrl, headers, rawBody: await readBody(req, maxBody, life.stopReading) };
    if (!parsed.exact && !warned) {
      warned = true;
      process.emitWarning('request bodies reach weir already parsed by a body parser; weir rebuilds them from req.body, so signatures over the raw bytes will not match. Mount weir before the body parser or keep the bytes in req.rawBody.', { code: 'WEIR_BODY_REBUILT' });
    }
    return { url: target.url, base: target.base, publicUrl: target.publicUrl, headers: parsed.headers, rawBody: parsed.rawBody };
  }

  async function serveOne(req: IncomingMessage, res: ServerResponse, target: Target): Promise<void> {
    let parts: RequestParts;
    try {
      parts = await bodyOf(req, target);
    } catch (err) {
      if (err instanceof WeirError) {
        // The rest of the body is never used: the connection closes after this answer, once the client has
        // had a bounded time to read it.
        answerAndLinger(req, res, errorResponse(err));
      } else res.destroy();
      return;
    }
    try {
      if (!life.started) await life.ready;
      await nextTurn();
      const out = await host.handle(toHostRequest(req, res, parts));
      if (!res.destroyed) sendResponse(res, out, life.closing ? { connection: 'close' } : undefined);
    } catch (err) {
      if (!res.headersSent && !res.destroyed) sendResponse(res, errorResponse(err, options.onError));
    }
  }

  const listener = ((req, res, next) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const inner = mount.strip(path);
    if (inner === null || (next && !host.owns(req.method ?? 'GET', inner))) {
      if (next) return next();
      sendResponse(res, errorResponse(new WeirError('NOT_FOUND', 'not found')));
      return;
    }
    if (life.closing) {
      sendResponse(res, shuttingDown(), { connection: 'close' });
      return;
    }
    // Express strips the path it mounted a middleware at into `req.baseUrl`; weir's own prefix follows it.
    const base = ((req as { baseUrl?: string }).baseUrl ?? '') + mount.base || undefined;
    void life.track(serveOne(req, res, { url: inner === path ? url : inner + url.slice(path.length), base, publicUrl }));
  }) as Listener;

  listener.host = host;
  listener.ready = life.ready;
  listener.close = life.close;
  return listener;
}

/** Options of {@link serve}. */
export interface ServeOptions extends ListenerOptions {
  /** Port (default 8787; 0 picks a free one). */
  port?: number;
  /** Interface to bind (default 127.0.0.1). */
  hostname?: string;
  /** PEM certificate and key: serve HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Time allowed for a request's headers (default 10 s): slow clients get 408 and are dropped. */
  headersTimeoutMs?: number;
  /** Time allowed for a whole request, body included (default 30 s). */
  requestTimeoutMs?: number;
}

/** A running host. */
export interface Serving {
  url: string;
  port: number;
  server: Server;
  listener: Listener;
  /** Stops accepting, finishes requests and executions in flight, then resolves. */
  close(): Promise<void>;
}

/**
 * Starts an HTTP(S) server for a weir instance: webhooks, interface events, deployed interfaces and every
 * other route, with schedules running and unfinished deliveries replayed before the port opens.
 * @example
 * const { url, close } = await serve(weir, { port: 8787 })
 * process.on('SIGTERM', () => close().then(() => process.exit(0)))
 */
export async function serve(weir: HostDeps, options: ServeOptions = {}): Promise<Serving> {
  const listener = createListener(weir, options);
  await listener.ready;
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  // Node checks these timeouts on an interval; a short one keeps the limits close to what was asked.
  const serverOptions = { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(50, Math.min(headersTimeout, requestTimeout) / 4), keepAliveTimeout: 5000 };
  const server: Server = options.tls
    ? createHttpsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, listener)
    : createHttpServer(serverOptions, listener);
  const hostname = options.hostname ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (err) => {
    await listener.close();
    throw new WeirError('UNAVAILABLE', `cannot listen on ${hostname}:${options.port ?? DEFAULT_PORT}: ${(err as Error).message}`, { cause: err });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${options.tls ? 'https' : 'http'}://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    server,
    listener,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((r) => server.close(() => r()));
        server.closeIdleConnections();
        await listener.close();
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}
