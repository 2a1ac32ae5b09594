import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defineNode } from '../../../src/nodes/index.js';
import { createWeir } from '../../../src/weir.js';
import { publish, until } from '../../host/_helpers.js';

test('memory only: intake waits once 5,000 deliveries wait or run, and goes on when they move; close runs them all', async () => {
  let open: () => void = () => {};
  const gate = new Promise<void>((r) => (open = r));
  let ran = 0;
  const weir = await createWeir({
    env: {},
    nodes: [defineNode({ type: 'gate', run: () => gate.then(() => ++ran) })],
  });
  const flow = await publish(weir, 'held', { type: 'webhook_trigger' }, [{ id: 'gate-1', type: 'gate', config: {} }], [{ id: 'e1', source: 'webhook_trigger-1', target: 'gate-1' }]);
  const req = { method: 'POST', headers: {}, query: {} };
  const decode = () => ({ value: { n: 1 }, raw: '{"n":1}', json: true });
  const deliver = () => weir.runtime.webhooks.deliver(req, flow.token, decode);
  const accepted = await Promise.all(Array.from({ length: 5000 }, deliver));
  assert.ok(accepted.every((o) => o.status === 200));
  assert.is(weir.runtime.webhooks.backlog, 5000);
  await until(() => weir.runtime.limiter.size === 64, 2000, 'the limiter full of held deliveries');
  await new Promise((r) => setImmediate(r));
  assert.is(weir.runtime.limiter.size, 64, 'the limiter alone bounds the deliveries running');
  let answered = false;
  const waiting = deliver().then(() => (answered = true));
  await new Promise((r) => setTimeout(r, 100));
  assert.not.ok(answered, 'the 5,001st waits for room');
  open();
  await waiting;
  await weir.close();
  assert.is(ran, 5001);
});

test.run();
