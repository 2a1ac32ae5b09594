// Error flows (settings.errorFlow, error_trigger): fired by a webhook run on a real `weir serve` and by a
// manual `weir workflows run`, with the failed execution and its input, never delaying the failed run's
// answer; an error flow's own failure fires nothing; a success fires nothing; `workflows get` lists the flows
// naming an error flow; an error flow runs by hand; publish refuses what can never fire; what cannot fire at
// run time is recorded and logged.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWeir, type Weir } from '../../src/weir.js';
import { cli, flow, startServe } from '../_utils.js';
import { homeWith, send, until } from '../host/_helpers.js';

/** The test's own server: records the JSON bodies POSTed to `/seen`; `/held` answers only once `release` is called. */
async function recorder() {
  const seen: any[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push(JSON.parse(body));
      if (req.url === '/held') return void held.push(res);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    seen,
    held,
    url: (path: string) => `${base}${path}`,
    release: () => held.splice(0).forEach((res) => res.writeHead(200).end('{}')),
    close: () => {
      held.forEach((res) => res.destroy());
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let server: Awaited<ReturnType<typeof recorder>>;
let home: string;
const ids: Record<string, string> = {};

/** A flow config: the trigger, then the nodes chained one after another. */
function chained(trigger: string, nodes: Array<{ id: string; type: string; config: Record<string, unknown> }>, settings?: Record<string, unknown>) {
  // A webhook caller waits for the outcome (the failure), rather than taking a status URL.
  const config: any = flow({ type: trigger, config: trigger === 'webhook_trigger' ? { respondImmediately: false } : {} }, nodes, nodes.map((n, i) => ({ id: `e${i + 1}`, source: i ? nodes[i - 1].id : `${trigger}-1`, target: n.id })));
  if (settings) config.settings = settings;
  return config;
}
const reporting = (path: string) => ({ id: 'http_request-1', type: 'http_request', config: { method: 'POST', url: server.url(path), body: { got: '{{ $input }}', errorFlowExecution: '{{ $execution.id }}' } } });
// Fails after 10 ms with TIMEOUT: no sandbox involved.
const failing = { id: 'delay-1', type: 'delay', config: { ms: 2000, timeoutMs: 10 } };

async function create(weir: Weir, name: string, config: any, publish = true) {
  ids[name] = (await weir.workflows.create(name, undefined, { config, publish })).id;
}

test.before(async () => {
  server = await recorder();
  home = await homeWith(async (weir) => {
    // Error flows first is not required: a flow may name one created later.
    await create(weir, 'orders', chained('webhook_trigger', [failing], { errorFlow: 'alerts' }), false);
    await create(weir, 'alerts', chained('error_trigger', [reporting('/seen')]));
    await weir.workflows.publish('orders');
    await create(weir, 'slow-alerts', chained('error_trigger', [reporting('/held')]));
    await create(weir, 'orders-slow-alerts', chained('webhook_trigger', [failing], { errorFlow: 'slow-alerts' }));
    await create(weir, 'nightly', chained('manual_trigger', [failing], { errorFlow: 'alerts' }));
    await create(weir, 'fine', chained('manual_trigger', [{ id: 'set-1', type: 'set', config: { values: { ok: true } } }], { errorFlow: 'alerts' }));
    // An error flow that fails, and names an error flow itself: nothing fires after it.
    await create(weir, 'broken-alerts', chained('error_trigger', [failing], { errorFlow: 'alerts' }));
    await create(weir, 'billing', chained('manual_trigger', [failing], { errorFlow: 'broken-alerts' }));
    // Error flows that run a flow naming them as its error flow: through call_flow, and through a foreach sub-flow.
    await create(weir, 'loop-alerts', chained('error_trigger', [reporting('/seen'), { id: 'call_flow-1', type: 'call_flow', config: { flow: 'flaky' } }]));
    await create(weir, 'flaky', chained('manual_trigger', [failing], { errorFlow: 'loop-alerts' }));
    await create(weir, 'loop-alerts-each', chained('error_trigger', [reporting('/seen'), { id: 'foreach-1', type: 'foreach', config: { items: [1, 2], flow: 'flaky-each', onItemError: 'continue' } }]));
    await create(weir, 'flaky-each', chained('manual_trigger', [failing], { errorFlow: 'loop-alerts-each' }));
    // Names alerts in its draft only.
    await create(weir, 'drafty', chained('manual_trigger', [failing], { errorFlow: ids.alerts }), false);
  });
});

test.after(() => server.close());

/** The executions of a flow, newest first, as `weir workflows executions --json` lists them. */
const executionsOf = async (ref: string) => (await cli(['workflows', 'executions', ref, '--json'], { home })).json<any[]>();
const executionById = async (id: string) => (await cli(['workflows', 'execution', id, '--json'], { home })).json();

test('a webhook run that fails runs the error flow with the failed execution and its input, after answering', async () => {
  const serve = await startServe(home);
  try {
    const token = (await cli(['workflows', 'get', 'orders-slow-alerts', '--json'], { home })).json().webhookToken;
    // The error flow's request is held by the test server: the webhook answers all the same.
    const answer = await send(`${serve.url}/trigger/${token}`, { body: JSON.stringify({ order: 7 }), headers: { 'content-type': 'application/json' } });
    assert.is(answer.status, 500);
    await until(() => server.held.length === 1, 10_000, 'the error flow to report');
    const got = server.seen.pop();
    server.release();
    const [failed] = await executionsOf('orders-slow-alerts');
    const record = await executionById(failed.id);
    assert.is(record.status, 'error');
    const { node, ...error } = record.error;
    assert.is(node, 'delay-1');
    assert.equal(got.got, {
      execution: { id: failed.id, workflowId: ids['orders-slow-alerts'], workflowName: 'orders-slow-alerts', failedNode: 'delay-1', error },
      input: record.input,
    });
    assert.equal(record.input.body, { order: 7 });
    assert.is(record.error.code, 'TIMEOUT');
    // The failed record names the error flow's execution, which ran with trigger `error`.
    assert.equal(record.errorFlow, { flow: 'slow-alerts', executionId: got.errorFlowExecution });
    const run = await until(async () => {
      const r = await executionById(got.errorFlowExecution);
      return r.status === 'success' && r;
    }, 10_000, 'the error flow to end');
    assert.is(run.trigger, 'error');
    assert.is(run.workflowName, 'slow-alerts');
    // The other webhook flow, through the published error flow named before it was created.
    const ordersToken = (await cli(['workflows', 'get', 'orders', '--json'], { home })).json().webhookToken;
    assert.is((await send(`${serve.url}/trigger/${ordersToken}`, { body: '{"order":8}', headers: { 'content-type': 'application/json' } })).status, 500);
    const second = await until(() => server.seen.find((s) => s.got.input?.body?.order === 8), 10_000, 'the error flow of orders');
    assert.is(second.got.execution.workflowName, 'orders');
  } finally {
    // A host's shutdown waits for the error flows it started.
    server.release();
    await serve.stop();
  }
});

test('a manual `weir workflows run` that fails runs the error flow before the command exits, and says so', async () => {
  const before = server.seen.length;
  const r = await cli(['workflows', 'run', 'nightly', '--input', '{"day":"monday"}'], { home });
  assert.is(r.code, 1);
  // The command waited for the error flow to run (no polling here).
  assert.is(server.seen.length, before + 1);
  const { got, errorFlowExecution } = server.seen.at(-1);
  assert.is(got.execution.workflowName, 'nightly');
  assert.is(got.execution.failedNode, 'delay-1');
  assert.equal(got.input, { day: 'monday' });
  assert.match(r.stderr, `error flow alerts: ${errorFlowExecution}`);
  const json = await cli(['workflows', 'run', 'nightly', '--input', '{"day":"tuesday"}', '--json'], { home });
  assert.is(json.code, 1);
  assert.equal(json.json().errorFlow, { flow: 'alerts', executionId: server.seen.at(-1).errorFlowExecution });
  assert.equal(server.seen.at(-1).got.input, { day: 'tuesday' });
});

test("an error flow's own failure fires nothing more, not even the error flow it names", async () => {
  const weir = await createWeir({ home });
  try {
    const before = server.seen.length;
    const failed = await weir.run('billing', { invoice: 1 }, { published: true });
    assert.is(failed.status, 'error');
    const errorRun = await until(() => weir.executions.get(failed.errorFlow!.executionId!).catch(() => null), 10_000, 'broken-alerts to run');
    const ended = await until(async () => {
      const r = await weir.executions.get(errorRun.id);
      return r.status !== 'running' && r;
    });
    assert.is(ended.status, 'error');
    assert.is(ended.errorFlow, undefined);
    assert.is(server.seen.length, before);
    // Run by hand, its failure fires nothing either.
    const byHand = await weir.run('broken-alerts', { execution: {}, input: {} }, { published: true });
    assert.is(byHand.status, 'error');
    assert.is(byHand.errorFlow, undefined);
  } finally {
    await weir.close();
  }
});

test('an error flow that runs (call_flow, foreach) a flow naming it fires no error flow through it: no loop', async () => {
  const weir = await createWeir({ home });
  try {
    for (const [flaky, via] of [['flaky', 'call_flow'], ['flaky-each', 'foreach']] as const) {
      const before = server.seen.length;
      const failed = await weir.run(flaky, { round: 1 }, { published: true });
      assert.is(failed.status, 'error');
      const errorRunId = failed.errorFlow!.executionId!;
      const errorRun = await until(async () => {
        const r = await weir.executions.get(errorRunId).catch(() => null);
        return r && r.status !== 'running' && r;
      }, 10_000, `the error flow of ${flaky} to end`);
      assert.is(errorRun.underErrorFlow, errorRunId, 'an error flow run starts its own lineage');
      const children = errorRun.children ?? [];
      assert.is(children.length, via === 'foreach' ? 2 : 1, `${via}: the children ran`);
      for (const child of children) {
        const record = await weir.executions.get(child.executionId);
        assert.is(record.status, 'error', `${via}: the child failed`);
        assert.is(record.trigger, via);
        assert.is(record.underErrorFlow, errorRunId, `${via}: the child carries the lineage`);
        // The hook that fires error flows runs before the record is stored: none was started from it.
        assert.is(record.errorFlow, undefined, `${via}: the child's failure fired no error flow`);
      }
      // The error flow reported once: today's loop would report again and again.
      assert.is(server.seen.length, before + 1);
      assert.is((await weir.executions.list({ workflowId: ids[via === 'foreach' ? 'loop-alerts-each' : 'loop-alerts'] })).length, 1);
    }
  } finally {
    await weir.close();
  }
});

test('a success fires nothing', async () => {
  const before = (await executionsOf('alerts')).length;
  const r = await cli(['workflows', 'run', 'fine', '--published', '--json'], { home });
  assert.is(r.code, 0);
  assert.equal(r.json().result, { ok: true });
  assert.is((await executionsOf('alerts')).length, before);
  assert.is((await executionById(r.json().executionId)).errorFlow, undefined);
});

test('a retry that fails again runs the error flow again', async () => {
  const weir = await createWeir({ home });
  try {
    const first = await weir.run('nightly', { day: 'friday' }, { published: true });
    const retried = await weir.executions.retry(first.id);
    assert.is(retried.status, 'error');
    assert.ok(retried.errorFlow?.executionId);
    assert.is.not(retried.errorFlow!.executionId, first.errorFlow!.executionId);
    const seen = await until(() => server.seen.find((s) => s.errorFlowExecution === retried.errorFlow!.executionId));
    assert.is(seen.got.execution.id, retried.id);
  } finally {
    await weir.close();
  }
});

test('`weir workflows get` lists the flows naming it as their error flow (text, --json, and the API alike)', async () => {
  const r = await cli(['workflows', 'get', 'alerts', '--json'], { home });
  assert.is(r.code, 0);
  const users = r.json().errorFlowFor;
  assert.equal(users, [
    { id: ids.drafty, name: 'drafty', published: false },
    { id: ids.fine, name: 'fine', published: true },
    { id: ids.nightly, name: 'nightly', published: true },
    { id: ids.orders, name: 'orders', published: true },
  ]);
  const text = await cli(['workflows', 'get', 'alerts'], { home });
  assert.match(text.stdout, `error flow of: drafty (${ids.drafty}, draft only), fine (${ids.fine}), nightly (${ids.nightly}), orders (${ids.orders})`);
  assert.equal((await cli(['workflows', 'get', 'nightly', '--json'], { home })).json().errorFlowFor, []);
  assert.not.match((await cli(['workflows', 'get', 'nightly'], { home })).stdout, 'error flow of');
  const serve = await startServe(home);
  try {
    const weir = await createWeir({ home });
    const token = await weir.interfaces.accessToken();
    await weir.close();
    const api = await fetch(`${serve.url}/api/v1/workflows/alerts`, { headers: { authorization: `Bearer ${token}` } });
    assert.is(api.status, 200);
    assert.equal(await api.json(), r.json());
  } finally {
    await serve.stop();
  }
});

test('an error flow runs by hand with the input given', async () => {
  const input = { execution: { id: 'exec_test', workflowId: 'wf_x', workflowName: 'x', failedNode: 'code-1', error: { code: 'E', message: 'm' } }, input: { a: 1 } };
  const r = await cli(['workflows', 'run', 'alerts', '--published', '--input', JSON.stringify(input), '--json'], { home });
  assert.is(r.code, 0);
  assert.equal(server.seen.at(-1).got, input);
  assert.is(server.seen.at(-1).errorFlowExecution, r.json().executionId);
});

test('publish refuses an error flow that can never run: itself, no such flow, another trigger', async () => {
  const weir = await createWeir({ home });
  try {
    const refused = async (errorFlow: string, message: string) => {
      await weir.workflows.save('drafty', chained('manual_trigger', [failing], { errorFlow }));
      const r = await cli(['workflows', 'publish', 'drafty'], { home });
      assert.is(r.code, 1, r.stderr);
      assert.match(r.stderr, message);
    };
    await refused('drafty', '"drafty" is this flow');
    await refused('alert', 'no flow "alert"; did you mean "alerts"');
    await refused('nightly', 'flow "nightly" cannot be an error flow: its published trigger is not error_trigger');
    assert.is((await weir.workflows.findPublished('drafty')), null);
  } finally {
    await weir.workflows.save('drafty', chained('manual_trigger', [failing], { errorFlow: ids.alerts }));
    await weir.close();
  }
});

test('an error flow that cannot run when a run fails is recorded on it and logged, naming the flow and why', async () => {
  const lines: Array<{ level: string; fields: any; message: string }> = [];
  const at = (level: string) => (fields: any, message: string) => void lines.push({ level, fields, message });
  const logger: any = { isLevelEnabled: () => false, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace') };
  const weir = await createWeir({ home, logger });
  try {
    // Only a draft: publish accepts it (it may be published next), the run records why nothing ran.
    await weir.workflows.create('unpublished-alerts', undefined, { config: chained('error_trigger', [reporting('/seen')]) as any });
    await weir.workflows.create('payroll', undefined, { config: chained('manual_trigger', [failing], { errorFlow: 'unpublished-alerts' }) as any, publish: true });
    const r = await weir.run('payroll', {}, { published: true });
    assert.is(r.status, 'error');
    assert.equal(r.errorFlow, { flow: 'unpublished-alerts', problem: 'error flow "unpublished-alerts" is not published: publish it with `weir workflows publish unpublished-alerts`' });
    assert.equal((await weir.executions.get(r.id)).errorFlow, r.errorFlow);
    const warned = lines.find((l) => l.level === 'warn');
    assert.ok(warned, 'a warning');
    assert.is(warned!.message, `error flow of "payroll" did not run for ${r.id}: ${r.errorFlow!.problem}`);
    assert.is(warned!.fields.errorFlow, 'unpublished-alerts');
  } finally {
    await weir.close();
  }
});

test.run();
