import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createExpressions } from '../../src/expr/index.js';
import { noMask } from '../../src/flow/masking.js';
import { createAdmission } from '../../src/runtime/admission/index.js';
import type { DispatchEvent } from '../../src/runtime/dispatch.js';
import { createWeir } from '../../src/weir.js';
import { until } from '../host/_helpers.js';

const flowWith = (settings?: Record<string, unknown>) => ({
  id: 'wf_a',
  name: 'a',
  version: 1,
  config: { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }], edges: [], ...(settings ? { settings } : {}) } as never,
});

test('a host on the execution queue hands executions of a flow with a limit to the queue as they come (its workers enforce the rules)', async () => {
  const weir = await createWeir({ env: {} });
  try {
    const admission = createAdmission({ executions: weir.executions, expressions: createExpressions(), masker: async () => noMask, onQueue: true });
    const event: DispatchEvent = { flow: flowWith({ concurrency: { limit: 1 } }), trigger: 'manual', input: {} };
    assert.ok(admission.applies(event.flow));
    assert.not.ok(admission.applies(flowWith()), 'a flow without settings does not pass through admission');
    const seen: DispatchEvent[] = [];
    const never = new Promise<{ status: string }>(() => {});
    // Two at once with a limit of 1: both go to the queue, neither is refused nor held here.
    void admission.admit(event, (e) => (seen.push(e), never));
    void admission.admit(event, (e) => (seen.push(e), never));
    assert.is(seen.length, 2);
    assert.ok(seen.every((e) => e.refuse === undefined));
    assert.is(admission.waiting, 0);
  } finally {
    await weir.close();
  }
});

test('lanes: the third of limit 2 waits until one ends, then starts; a key that fails to evaluate shares one lane', async () => {
  const weir = await createWeir({ env: {} });
  try {
    const admission = createAdmission({ executions: weir.executions, expressions: createExpressions(), masker: async () => noMask, onQueue: false });
    const flow = flowWith({ concurrency: { limit: 2, key: '{{ $input.a.b.c }}' } });
    const ends: Array<() => void> = [];
    const started: number[] = [];
    const start = (n: number) => () => new Promise<{ status: string }>((resolve) => {
      started.push(n);
      ends.push(() => resolve({ status: 'success' }));
    });
    const runs = [0, 1, 2].map((n) => admission.admit({ flow, trigger: 'manual', input: {} }, start(n)));
    assert.equal(started, [0, 1]);
    assert.is(admission.waiting, 1);
    ends[0]();
    await until(() => started.length === 3, 5000, 'the third to start');
    assert.equal(started, [0, 1, 2]);
    assert.is(admission.waiting, 0);
    ends[1]();
    ends[2]();
    assert.equal((await Promise.all(runs)).map((r) => r.status), ['success', 'success', 'success']);
  } finally {
    await weir.close();
  }
});

test.run();
