// A woken execution parked in a Redis lane (its flow's concurrency limit held by another execution) gives its
// host's limiter slot back while it waits, as one queued on a single host does, so the host's other work goes
// on: here a host of one limiter slot wakes another flow's execution while the parked one waits.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/index.js';
import { flow } from '../_utils.js';
import { recordingServer } from '../runtime/_admission.js';
import { clusterConfig, clusterHome, dropRedisPrefix, MASTER_KEY, uniqueName, until } from './_scale.js';

const prefix = uniqueName('wokenslot');
const spec = { prefix, queue: { concurrency: 2 } };

/** manual -> [http_request (POST {key, n, id} to `url`) ->] wait `pause` -> http_request, as `name`, with `settings`. */
const chain = (url: string, pause: string, callFirst: boolean, settings: Record<string, unknown> = {}) => {
  const call = (id: string, step: string) => ({ id, type: 'http_request', config: { method: 'POST', url, body: { key: `{{ $input.key }}${step}`, n: 0, id: '{{ $execution.id }}' }, timeoutMs: 60_000 } });
  const nodes = [...(callFirst ? [call('http_request-1', '')] : []), { id: 'wait-2', type: 'wait', config: { for: pause } }, call('http_request-3', '+')];
  const ids = ['manual_trigger-1', ...nodes.map((n) => n.id)];
  return { ...flow({ type: 'manual_trigger', config: {} }, nodes, ids.slice(1).map((target, i) => ({ id: `e${i + 1}`, source: ids[i], target }))), settings };
};

test('a woken execution parked behind its flow concurrency limit holds no limiter slot: the host wakes another flow meanwhile', async () => {
  const home = clusterHome(spec);
  const weir = await createWeir({ home, config: { ...clusterConfig(spec), executions: { concurrency: 1, maxPerWorkflow: 100_000 } }, env: { WEIR_MASTER_KEY: MASTER_KEY } });
  const server = await recordingServer();
  const seen = (key: string) => server.calls.some((c) => c.key === key);
  try {
    await weir.workflows.create('limited', undefined, { config: chain(server.url, '3s', true, { concurrency: { limit: 1 } }) as never, publish: true });
    await weir.workflows.create('other', undefined, { config: chain(server.url, '5s', false) as never, publish: true });
    void weir.waits.start();
    // Y calls, then waits 3 s: it holds no place in the lane meanwhile.
    const y = await weir.run('limited', { key: 'y' }, { published: true });
    assert.is(y.status, 'waiting');
    // X takes the lane and holds it: its call is kept by the server until released.
    server.state.hold = true;
    const x = weir.run('limited', { key: 'x' }, { published: true });
    await until('X to call', async () => seen('x'), 10_000, 20);
    server.state.hold = false;
    // Z, of a flow without rules, wakes after Y (5 s): Y, woken, is parked in the lane X holds.
    const z = await weir.run('other', { key: 'z' }, { published: true });
    assert.is(z.status, 'waiting');
    await until("Z's wake to call, while Y is parked", async () => seen('z+'), 20_000, 50);
    assert.not.ok(seen('y+'), 'Y still waits for the lane');
    assert.is((await weir.executions.get(y.id)).status, 'waiting');
    server.release();
    assert.is((await x).status, 'waiting');
    // Told at once when X leaves (pub/sub); a message lost meanwhile (a subscriber reconnecting) is made up by
    // the park's own delay, twice the lease (60 s here), after which Y asks the lane again: never stuck.
    await until('Y to run on once X left the lane', async () => seen('y+'), 75_000, 50);
    await until('every execution to end', async () => ((await weir.executions.get(y.id)).status === 'success' && (await weir.executions.get(z.id)).status === 'success') || null, 20_000, 100);
  } finally {
    server.state.hold = false;
    server.release();
    await weir.close();
    await server.close();
    await dropRedisPrefix(prefix);
  }
});

test.run();
