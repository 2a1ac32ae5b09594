// `npm start`: a demo home (./.weir-demo, or WEIR_HOME) with a published webhook flow, served on
// http://127.0.0.1:8787 (or PORT). The flow answers the caller itself:
//   webhook_trigger (respondImmediately: false) -> set (greeting) -> respond (201 with the greeting)
// Uses the built package in dist/ (npm install builds it). Ctrl-C stops it gracefully.
import { resolve } from 'node:path';
import { createWeir } from '../dist/index.js';
import { serve } from '../dist/node-http.js';

const home = resolve(process.env.WEIR_HOME || '.weir-demo');
const port = Number(process.env.PORT ?? 8787);
const name = 'demo-greeting';

const config = {
  nodes: [
    { id: 'webhook_trigger-1', type: 'webhook_trigger', label: 'Incoming request', config: { respondImmediately: false } },
    { id: 'set-1', type: 'set', label: 'Greeting', config: { values: { greeting: 'Hello, {{ body.name ?? "stranger" }}!', method: '{{ method }}', at: '{{ $now }}' } } },
    { id: 'respond-1', type: 'respond', label: 'Answer', config: { status: 201, body: '{{ $node.set-1.data }}' } },
  ],
  edges: [
    { id: 'e1', source: 'webhook_trigger-1', target: 'set-1' },
    { id: 'e2', source: 'set-1', target: 'respond-1' },
  ],
  variables: {},
  metadata: { description: 'The npm start demo: greets whoever posts {"name": ...}' },
};

const weir = await createWeir({ home });
// Idempotent: the second `npm start` finds the flow and republishes only when its config changed.
const existing = (await weir.workflows.list()).find((w) => w.name === name);
const id = existing?.id ?? (await weir.workflows.create(name, 'demo webhook flow')).id;
const current = await weir.workflows.get(id);
if (JSON.stringify(current.published?.config) !== JSON.stringify(config)) {
  await weir.workflows.save(id, config);
  await weir.workflows.publish(id, { force: true });
}
const { webhookToken } = await weir.workflows.get(id);

const serving = await serve(weir, { port, hostname: process.env.HOST ?? '127.0.0.1' });
const hook = `${serving.url}/trigger/${webhookToken}`;
console.log(`weir listening on ${serving.url} (home ${home})`);
console.log(`\nDemo flow "${name}" (${id}) is published. Its webhook URL:\n  ${hook}\n`);
console.log(`Try it:\n  curl -s -X POST '${hook}' -H 'content-type: application/json' -d '{"name":"Ada"}'\n`);
console.log(`Inspect runs:\n  npx weir --home ${home} workflows executions ${id}\n`);

const stop = async () => {
  console.log('stopping: finishing requests and executions in flight');
  await serving.close();
  await weir.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
