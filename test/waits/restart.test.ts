import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import { cli } from '../_utils.js';
import { chain, publish, send, startServe, tmpDir, until } from '../host/_helpers.js';
import type { ExecutionRecord } from '../../src/flow/types.js';

const WAIT_MS = 3000;

test('a 3 s wait survives kill -9: it goes on once, never early, at once when it fell due while no host ran', async () => {
  const home = tmpDir('weir-waits-');
  const setup = await createWeir({ home });
  const c = chain('webhook_trigger', [
    { type: 'wait', id: 'wait-1', config: { for: '3s' } },
    { type: 'code', id: 'code-1', config: { code: 'return { n: $input.body.n, id: $execution.id }' } },
  ]);
  const { id: workflowId, token } = await publish(setup, 'waits-3s', { type: 'webhook_trigger' }, c.nodes, c.edges);
  await setup.close();
  const weir = await createWeir({ home });
  const get = (id: string) => weir.executions.get(id).catch(() => null);
  const done = (id: string) => until(async () => {
    const r = await get(id);
    return r?.status === 'success' && r;
  }, 15_000, `execution ${id} to finish`);
  const post = async (url: string, n: number) => {
    const res = await send(`${url}/trigger/${token}`, { body: JSON.stringify({ n }), headers: { 'content-type': 'application/json' } });
    assert.is(res.status, 200);
    const id = res.json.executionId as string;
    const waiting = await until(async () => (await get(id))?.status === 'waiting' && (await get(id))!, 5000, `execution ${id} to wait`);
    return { id, due: Date.parse(waiting.nodes['wait-1'].startedAt!) + WAIT_MS };
  };
  let host = await startServe(home);
  try {
    // Due while no host runs: the restarted host wakes it at once.
    const a = await post(host.url, 1);
    await host.stop('SIGKILL');
    const listed = await cli(['workflows', 'executions', workflowId, '--json'], { home });
    assert.is(listed.code, 0, listed.stderr);
    assert.is(listed.json<Array<{ id: string; status: string }>>().find((e) => e.id === a.id)?.status, 'waiting');
    const shown = await cli(['workflows', 'execution', a.id, '--json'], { home });
    assert.is(shown.json<ExecutionRecord>().status, 'waiting');
    assert.is(shown.json<ExecutionRecord>().nodes['wait-1'].status, 'waiting');
    const text = await cli(['workflows', 'execution', a.id], { home });
    assert.match(text.stdout, /waiting/);
    await until(() => Date.now() > a.due + 300, 10_000, 'the wait to fall due');
    host = await startServe(home);
    const listening = Date.now();
    const ranA = await done(a.id);
    assert.ok(Date.parse(ranA.nodes['code-1'].startedAt!) - listening < 1500, 'a wait due before the restart goes on soon after it');
    assert.equal(ranA.nodes['code-1'].data, { n: 1, id: a.id });

    // Due after the restart: on time, not before.
    const b = await post(host.url, 2);
    await host.stop('SIGKILL');
    host = await startServe(home);
    const ranB = await done(b.id);
    const wokeAt = Date.parse(ranB.nodes['code-1'].startedAt!);
    assert.ok(wokeAt >= b.due, `not before its time (${wokeAt - b.due} ms)`);
    assert.ok(wokeAt - b.due < 1000, `on time (${wokeAt - b.due} ms late)`);

    const all = await weir.executions.list({ workflowId, limit: 100 });
    assert.equal(all.map((e) => e.id).sort(), [a.id, b.id].sort(), 'each wait ran as its own execution, once');
    assert.ok(all.every((e) => e.status === 'success'));
  } finally {
    await host.stop();
    await weir.close();
  }
});

test.run();
