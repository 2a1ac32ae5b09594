import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defineNode, WeirError, type ExecutionRecord, type Weir } from '../../../src/index.js';
import { Suspend } from '../../../src/flow/suspend.js';
import { tmpDir } from '../../_utils.js';
import { chain, memoryWeir } from '../../flow/_flows.js';

/** A node that parks its execution until a far-off time. */
const park = defineNode({ type: 'park', run: () => new Suspend({ kind: 'time', until: '2999-01-01T00:00:00.000Z' }) });

/** A node counting its runs per node id (in `counts`), so a test sees which nodes ran again. */
function counter(counts: Map<string, number>) {
  return defineNode({
    type: 'count',
    run(ctx) {
      counts.set(ctx.node.id, (counts.get(ctx.node.id) ?? 0) + 1);
      return { node: ctx.node.id };
    },
  });
}

const rejection = async (promise: Promise<unknown>): Promise<WeirError> => {
  try {
    await promise;
  } catch (err) {
    return err as WeirError;
  }
  throw new Error('expected a rejection');
};

/** The id of the next execution to start on `weir`. */
const nextStart = (weir: Weir) => new Promise<string>((resolve) => weir.bus.on('execution:start', (e: any) => resolve(e.executionId)));

test('cancel: a run of this process ends cancelled, the nodes after the running one never start', async () => {
  const counts = new Map<string, number>();
  const weir = await memoryWeir({ nodes: [counter(counts)] });
  const { id } = await weir.workflows.create('long');
  await weir.workflows.save(id, chain([{ id: 'hang-1', type: 'hang' }, { id: 'count-1', type: 'count' }]));
  const started = nextStart(weir);
  const running = weir.run(id, {});
  const executionId = await started;
  const cancelled = await weir.executions.cancel(executionId);
  assert.is(cancelled.status, 'cancelled');
  assert.ok(cancelled.finishedAt);
  assert.is((await running).status, 'cancelled');
  assert.is((await weir.executions.get(executionId)).status, 'cancelled');
  assert.is(counts.get('count-1'), undefined);
  const again = await rejection(weir.executions.cancel(executionId));
  assert.is(again.code, 'CONFLICT');
  assert.match(again.message, 'already ended (cancelled)');
  assert.is((await rejection(weir.executions.cancel('exec_nope'))).code, 'NOT_FOUND');
  await weir.close();
});

test('cancel: a waiting execution gets a final cancelled record and leaves the open executions', async () => {
  const weir = await memoryWeir({ home: tmpDir(), nodes: [park] });
  const { id } = await weir.workflows.create('parked');
  await weir.workflows.save(id, chain([{ id: 'park-1', type: 'park' }]));
  const waiting = await weir.run(id, {});
  assert.is(waiting.status, 'waiting');
  assert.ok(await weir.executions.open.get(waiting.id));
  const cancelled = await weir.executions.cancel(waiting.id);
  assert.is(cancelled.status, 'cancelled');
  assert.ok(cancelled.finishedAt);
  assert.is(await weir.executions.open.get(waiting.id), null);
  const stored = await weir.executions.get(waiting.id);
  assert.is(stored.status, 'cancelled');
  assert.is(stored.error?.code, 'CANCELLED');
  await weir.close();
});

test('retry: a new execution reusing the nodes that succeeded, from the failed node on; success is a CONFLICT', async () => {
  const counts = new Map<string, number>();
  const weir = await memoryWeir({ nodes: [counter(counts)] });
  const { id } = await weir.workflows.create('flaky');
  await weir.workflows.save(id, chain([{ id: 'count-1', type: 'count' }, { id: 'flaky-1', type: 'flaky', config: { failures: 1 } }, { id: 'count-2', type: 'count' }]));
  const failed = await weir.run(id, { n: 1 });
  assert.is(failed.status, 'error');
  assert.is(failed.error?.node, 'flaky-1');
  const retried: ExecutionRecord = await weir.executions.retry(failed.id);
  assert.is(retried.status, 'success');
  assert.is.not(retried.id, failed.id);
  assert.is(retried.retryOf, failed.id);
  assert.is(retried.attempts, undefined);
  assert.equal(retried.input, { n: 1 });
  assert.equal(Object.fromEntries(counts), { 'count-1': 1, 'count-2': 1 });
  assert.is(retried.nodes['count-1'].startedAt, failed.nodes['count-1'].startedAt, 'count-1 is replayed from its record');
  assert.is((await weir.executions.get(failed.id)).status, 'error', 'the retried record is unchanged');
  const refused = await rejection(weir.executions.retry(retried.id));
  assert.is(refused.code, 'CONFLICT');
  assert.match(refused.message, 'is success');
  await weir.close();
});

test('rerun: the same input as a new execution, rerunOf set; the published copy unless draft', async () => {
  const weir = await memoryWeir();
  const { id } = await weir.workflows.create('echo');
  await weir.workflows.save(id, chain([{ id: 'set-1', type: 'set', config: { values: { v: 'one {{ $input.x }}' } } }]));
  await weir.workflows.publish(id);
  const first = await weir.run(id, { x: 5 }, { published: true });
  await weir.workflows.save(id, chain([{ id: 'set-1', type: 'set', config: { values: { v: 'two {{ $input.x }}' } } }]));
  const published = await weir.executions.rerun(first.id);
  assert.equal(published.result, { v: 'one 5' });
  assert.is(published.rerunOf, first.id);
  assert.is(published.draft, undefined);
  const draft = await weir.executions.rerun(first.id, { draft: true });
  assert.equal(draft.result, { v: 'two 5' });
  assert.is(draft.draft, true);
  await weir.close();
});

test.run();
