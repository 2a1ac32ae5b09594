// The shared adapter suite on the node:http listener (a plain server; mounted in Express under a path, with
// next()) and on the fetch handler (served over @hono/node-server, passing on what it does not own).
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveFetch } from '@hono/node-server';
import express from 'express';
import { createFetchHandler } from '../../adapters/fetch/index.js';
import { createListener } from '../../adapters/node-http/index.js';
import { adapterSuite, APP_404, MAX_BODY } from './_adapter-suite.js';

/** Serves a request listener on 127.0.0.1 port 0. */
async function listen(handler: RequestListener): Promise<{ origin: string; stop(): Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((r) => server.close(() => r()).closeAllConnections()),
  };
}

adapterSuite('node:http listener', async (weir) => {
  const listener = createListener(weir, { schedules: false, maxBody: MAX_BODY });
  const { origin, stop } = await listen(listener);
  return { base: origin, passesOn: false, close: listener.close, dispose: stop };
});

adapterSuite('node:http listener mounted in Express', async (weir) => {
  const listener = createListener(weir, { schedules: false, maxBody: MAX_BODY });
  const app = express();
  app.use('/weir', listener);
  app.use((_req, res) => void res.status(404).json(APP_404));
  const { origin, stop } = await listen(app);
  return { base: `${origin}/weir`, passesOn: true, close: listener.close, dispose: stop };
});

adapterSuite('fetch handler', async (weir) => {
  const handler = createFetchHandler(weir, { schedules: false, maxBody: MAX_BODY, prefix: '/weir' });
  const app = (request: Request) => (handler.owns(request) ? handler(request) : Response.json(APP_404, { status: 404 }));
  const { origin, stop } = await new Promise<{ origin: string; stop(): Promise<void> }>((resolve) => {
    const server = serveFetch({ fetch: app, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ origin: `http://127.0.0.1:${info.port}`, stop: () => new Promise<void>((r) => server.close(() => r())) }),
    );
  });
  return { base: `${origin}/weir`, passesOn: true, close: handler.close, dispose: stop };
});
