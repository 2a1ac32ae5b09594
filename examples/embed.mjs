// Mounting weir in an existing node:http app: the listener answers its own paths (/trigger/<token>,
// /api/flows/<name>, /weir-client.js, /healthz, /i/<name>/...) and hands every other request to the app.
// The same works with Express or Connect: app.use((req, res, next) => weirListener(req, res, next)).
//   node examples/embed.mjs   then   curl http://127.0.0.1:3000/   and   curl -X POST <printed webhook URL>
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { createWeir } from '../dist/index.js';
import { createListener } from '../dist/node-http.js';

const weir = await createWeir({ home: resolve(process.env.WEIR_HOME || '.weir-embed') });
const name = 'embed-echo';
let flow = (await weir.workflows.list()).find((w) => w.name === name);
if (!flow) {
  const { id } = await weir.workflows.create(name);
  await weir.workflows.save(id, {
    nodes: [
      { id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImmediately: false } },
      { id: 'respond-1', type: 'respond', config: { status: 200, body: { youSent: '{{ body }}' } } },
    ],
    edges: [{ id: 'e1', source: 'webhook_trigger-1', target: 'respond-1' }],
  });
  await weir.workflows.publish(id);
  flow = { id };
}
const { webhookToken } = await weir.workflows.get(flow.id);

// The host's lifecycle (journal replay, schedules) starts with the listener; `close()` drains it.
const weirListener = createListener(weir, { publicUrl: 'http://127.0.0.1:3000' });

function app(req, res) {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(`your app answered ${req.method} ${req.url}\n`);
}

const server = createServer((req, res) => weirListener(req, res, () => app(req, res)));
server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const { port } = server.address();
  console.log(`app on http://127.0.0.1:${port}/ ; weir webhook: http://127.0.0.1:${port}/trigger/${webhookToken}`);
});

process.once('SIGINT', async () => {
  server.close();
  await weirListener.close();
  await weir.close();
  process.exit(0);
});
