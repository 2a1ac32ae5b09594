import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createWeir } from '../../../src/weir.js';
import { writeJson } from '../../_utils.js';
import { chain, publish, startServe, tmpDir, until } from '../../host/_helpers.js';

test('kill -9 under load: after a restart every 200-answered delivery ran exactly once, under its executionId', async () => {
  const home = tmpDir('weir-durable-');
  writeJson(home, 'weir.config.json', { executions: { maxPerWorkflow: 100000 } });
  const setup = await createWeir({ home });
  // Slow enough that deliveries queue up behind each other when the host is killed.
  const c = chain('webhook_trigger', [{ type: 'delay', config: { ms: 50 } }, { type: 'set', id: 'set-1', config: { values: { n: '{{ body.n }}' } } }]);
  const { id, token } = await publish(setup, 'durable', { type: 'webhook_trigger' }, c.nodes, c.edges);
  await setup.close();

  const first = await startServe(home);
  const answered = new Map<number, string>();
  let next = 0;
  let killed = false;
  const total = 400;
  const worker = async () => {
    while (next < total && !killed) {
      const n = next++;
      try {
        const res = await fetch(`${first.url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
        if (res.status === 200) answered.set(n, (await res.json()).executionId);
      } catch {
        // the host was killed under this request: no answer, no promise made
      }
    }
  };
  const load = Promise.all(Array.from({ length: 16 }, worker));
  await until(() => answered.size >= 150, 15000, '150 answered deliveries');
  killed = true;
  await first.stop('SIGKILL');
  await load;
  assert.ok(answered.size >= 150);
  assert.ok(readdirSync(join(home, 'journal')).some((f) => f.endsWith('.log')), 'the journal holds the deliveries');

  const weir = await createWeir({ home });
  const finishedAtKill = new Set((await weir.executions.list({ workflowId: id, limit: 100000 })).filter((e) => e.status === 'success').map((e) => e.id));
  const unfinished = [...answered.values()].filter((x) => !finishedAtKill.has(x));
  assert.ok(unfinished.length > 0, 'some answered deliveries had not run when the host died');

  const second = await startServe(home);
  try {
    const records = await until(async () => {
      const list = await weir.executions.list({ workflowId: id, limit: 100000 });
      const done = new Map(list.filter((e) => e.status === 'success').map((e) => [e.id, e]));
      return [...answered.values()].every((x) => done.has(x)) && list.every((e) => e.status === 'success') && list;
    }, 30000, 'every answered delivery to finish');
    const byN = new Map<number, string[]>();
    for (const r of records) {
      const n = (r.input as { body: { n: number } }).body.n;
      byN.set(n, [...(byN.get(n) ?? []), r.id]);
    }
    for (const [n, executionId] of answered) {
      assert.equal(byN.get(n), [executionId], `delivery ${n} ran once, as ${executionId}`);
      const record = records.find((r) => r.id === executionId)!;
      assert.equal(record.nodes['set-1'].data, { n });
    }
    for (const [n, ids] of byN) assert.is(ids.length, 1, `delivery ${n} ran ${ids.length} times`);
  } finally {
    await weir.close();
    await second.stop();
  }
});

test.run();
