import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { start } from './_stats.js';

/**
 * Node-RED 4 as a comparison server for the benchmarks, never a dependency of weir: measured only when
 * NODE_RED_DIR names a directory where it is installed (`npm install --prefix <dir> node-red@4`).
 */
export const nodeRedDir = process.env.NODE_RED_DIR ? resolve(process.env.NODE_RED_DIR) : null;

export const NODE_RED_SKIPPED = 'Node-RED column skipped: set NODE_RED_DIR to a directory with node-red@4 installed (npm install --prefix <dir> node-red@4)';

/** A request the server must answer with 200 before it counts as started (its flows are deployed by then). */
export interface Probe {
  path: string;
  headers: Record<string, string>;
  body: string;
}

// Node-RED embedded the documented way (its own express app on a node:http server, editor off), with the
// flow file the bench wrote; `crypto` is in the function nodes' global context. The URL is printed once the
// probe answers 200.
const SERVER = `
const [dir, userDir, probeJson] = process.argv.slice(1);
const probe = JSON.parse(probeJson);
const { createRequire } = require('node:module');
const need = createRequire(dir + '/node_modules/node-red/package.json');
const RED = need('node-red');
const express = need('express');
const http = require('node:http');
const app = express();
const server = http.createServer(app);
RED.init(server, { userDir, flowFile: 'flows.json', httpAdminRoot: false, httpNodeRoot: '/', credentialSecret: false,
  functionGlobalContext: { crypto: require('node:crypto') }, logging: { console: { level: 'off' } } });
app.use('/', RED.httpNode);
server.listen(0, '127.0.0.1', async () => {
  await RED.start();
  const url = 'http://127.0.0.1:' + server.address().port;
  for (let i = 0; i < 200; i++) {
    const r = await fetch(url + probe.path, { method: 'POST', headers: probe.headers, body: probe.body, signal: AbortSignal.timeout(1000) }).catch(() => null);
    if (r && r.status === 200) return console.log(JSON.stringify({ url }));
    await new Promise((r) => setTimeout(r, 50));
  }
  process.exit(1);
});
`;

/**
 * Starts Node-RED from {@link nodeRedDir} with `flows` in a user directory of its own under `home`.
 * @example
 * const red = await startNodeRed(home, flows, { path: '/sig', headers, body })
 * await load(red.url + '/sig'); await stop(red.child)
 */
export function startNodeRed(home: string, flows: object[], probe: Probe): ReturnType<typeof start> {
  if (!nodeRedDir) throw new Error(NODE_RED_SKIPPED);
  const userDir = join(home, 'node-red');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(join(userDir, 'flows.json'), JSON.stringify(flows));
  return start(['-e', SERVER, nodeRedDir, userDir, JSON.stringify(probe)]);
}
