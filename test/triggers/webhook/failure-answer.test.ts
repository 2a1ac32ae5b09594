// What a caller waiting on a failed flow is told (webhook respondImmediately: false, POST /api/flows/<name>):
// 500 EXECUTION_FAILED naming only the execution, unless the flow shapes the answer (a Respond node, an error
// thrown with a status) or weir.config.json says `webhook.exposeErrors`. The record and the log keep the detail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../../src/weir.js';
import { cli, startServe, tmpDir, writeJson } from '../../_utils.js';
import { chain, publish, send } from '../../host/_helpers.js';

type Served = Awaited<ReturnType<typeof startServe>>;
const FAILED = (executionId: string) => ({ error: { code: 'EXECUTION_FAILED', message: 'the flow failed', executionId } });
const TYPE_ERROR = 'TypeError: cannot read property \'length\' of undefined';

/** A home holding the flows below, published; `config` becomes its weir.config.json. */
async function homeWithFlows(config?: Record<string, unknown>) {
  const home = tmpDir('weir-failure-');
  if (config) writeJson(home, 'weir.config.json', config);
  const weir = await createWeir({ home });
  const tokens: Record<string, string> = {};
  const hook = async (name: string, nodes: Array<{ type: string; id?: string; config?: Record<string, unknown> }>, edges?: any[]) => {
    const c = chain('webhook_trigger', nodes);
    tokens[name] = (await publish(weir, name, { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, edges ?? c.edges)).token;
  };
  await hook('typeerror', [{ type: 'code', config: { code: 'return $input.body.items.length' } }]);
  await hook('signed', [{ type: 'code', config: { code: 'throw { status: 401, message: "bad signature" }' } }]);
  await hook('calls-signed', [{ type: 'call_flow', config: { flow: 'signed' } }]);
  await hook('slow-node', [{ type: 'delay', config: { ms: 2000, timeoutMs: 50 } }]);
  // A Respond-shaped error path: a missing field answers 422 with the flow's own body.
  await hook('checked', [
    { type: 'condition', config: { rules: { '!': { var: 'input.body.name' } } } },
    { type: 'respond', id: 'respond-1', config: { status: 422, body: { problem: 'name is required' } } },
  ], [
    { id: 'e1', source: 'webhook_trigger-1', target: 'condition-1' },
    { id: 'e2', source: 'condition-1', target: 'respond-1', sourceHandle: 'true' },
  ]);
  const failing = chain('interface_event_trigger', [{ type: 'code', config: { code: 'return $input.items.length' } }]);
  await publish(weir, 'app-call', { type: 'interface_event_trigger' }, failing.nodes, failing.edges);
  await weir.close();
  return { home, tokens };
}

let plain: { home: string; tokens: Record<string, string>; serve: Served };
let exposed: { home: string; tokens: Record<string, string>; serve: Served };

test.before(async () => {
  const [a, b] = await Promise.all([homeWithFlows(), homeWithFlows({ webhook: { exposeErrors: true } })]);
  const [sa, sb] = await Promise.all([startServe(a.home), startServe(b.home)]);
  plain = { ...a, serve: sa };
  exposed = { ...b, serve: sb };
});

test.after(async () => {
  await Promise.all([plain?.serve.stop(), exposed?.serve.stop()]);
});

const post = (host: typeof plain, name: string, body: unknown = {}) =>
  send(`${host.serve.url}/trigger/${host.tokens[name]}`, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

test('a Code node TypeError: the caller gets 500 EXECUTION_FAILED with the execution id, the record and the log keep the TypeError', async () => {
  const r = await post(plain, 'typeerror');
  assert.is(r.status, 500);
  const executionId = r.headers.get('x-execution-id')!;
  assert.match(executionId, /^exec_/);
  assert.equal(r.json, FAILED(executionId));
  assert.not.match(r.text, 'TypeError');
  assert.not.match(r.text, 'code-1');
  const shown = await cli(['workflows', 'execution', executionId], { home: plain.home });
  assert.is(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, TYPE_ERROR);
  assert.match(plain.serve.output(), executionId);
  assert.match(plain.serve.output(), TYPE_ERROR);
});

test('an error thrown with a status answers that status with its message, as thrown (through call_flow too)', async () => {
  const r = await post(plain, 'signed');
  assert.is(r.status, 401);
  assert.equal(r.json, { error: { code: 'EXECUTION_FAILED', message: 'bad signature' } });
  const nested = await post(plain, 'calls-signed');
  assert.is(nested.status, 401);
  assert.equal(nested.json, { error: { code: 'EXECUTION_FAILED', message: 'bad signature' } });
});

test('a node failing with a status of its own (a timeout) is still the flow failing: 500 EXECUTION_FAILED', async () => {
  const r = await post(plain, 'slow-node');
  assert.is(r.status, 500);
  assert.equal(r.json, FAILED(r.headers.get('x-execution-id')!));
});

test('webhook.exposeErrors: true puts the failing node and its message in the answer', async () => {
  const r = await post(exposed, 'typeerror');
  assert.is(r.status, 500);
  const executionId = r.headers.get('x-execution-id')!;
  assert.equal(r.json, { error: { code: 'EXECUTION_FAILED', message: `code: ${TYPE_ERROR} (line 1)`, node: 'code-1', executionId } });
  const app = await send(`${exposed.serve.url}/api/flows/app-call`, { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.is(app.status, 500);
  assert.match(app.json.error.message, TYPE_ERROR);
});

test('POST /api/flows/<name> of a failing flow: the same 500 EXECUTION_FAILED as a webhook caller', async () => {
  const r = await send(`${plain.serve.url}/api/flows/app-call`, { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.is(r.status, 500);
  assert.equal(r.json, FAILED(r.headers.get('x-execution-id')!));
});

// A guard, not a change: the flow's own error answer (a Respond node) goes out as the flow shaped it.
test('a Respond node that answers an error shapes the answer, exposeErrors or not', async () => {
  for (const host of [plain, exposed]) {
    const r = await post(host, 'checked', {});
    assert.is(r.status, 422);
    assert.equal(r.json, { problem: 'name is required' });
  }
});

test.run();
