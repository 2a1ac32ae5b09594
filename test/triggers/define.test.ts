// A custom trigger kind given to createWeir({ triggers }): its node joins the node types, the host mounts its
// routes and starts what it starts, and stops it on close.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHost } from '../../src/host/index.js';
import { defineNode, defineTrigger, createWeir } from '../../src/index.js';
import { chain, publish, tmpDir, until } from '../host/_helpers.js';

/** A trigger fed by its own route (`POST /tick`, the body is the input) and by a start-up tick. */
function tickTrigger(log: string[]) {
  return defineTrigger({
    node: defineNode({ type: 'tick_trigger', trigger: true, config: { type: 'object', properties: {}, additionalProperties: false } }),
    routes: {
      ticks: (rt) => [
        {
          methods: ['POST'],
          path: '/tick',
          async handle(req) {
            const decoded = rt.decode(req);
            const input = (decoded instanceof Promise ? await decoded : decoded).value;
            const records = await Promise.all((await rt.published()).map((flow) => rt.dispatcher.run({ flow, input, trigger: 'manual' })));
            return { status: 200, body: { results: records.map((r) => r.result) } };
          },
        },
      ],
    },
    async start(rt) {
      for (const flow of await rt.published()) void rt.dispatcher.run({ flow, input: { tick: 'start' }, trigger: 'manual' });
      log.push('started');
      return () => void log.push('stopped');
    },
  });
}

const request = (body: unknown) => ({
  method: 'POST',
  path: '/tick',
  query: {},
  headers: { 'content-type': 'application/json' },
  rawBody: Buffer.from(JSON.stringify(body)),
});

test('a custom trigger: its node is a node type, its route answers, its start runs flows, close stops it', async () => {
  const log: string[] = [];
  const weir = await createWeir({ home: tmpDir('weir-trigger-'), triggers: [tickTrigger(log)] });
  assert.ok(weir.nodes.get('tick_trigger')?.trigger, 'the node type is registered');
  const { nodes, edges } = chain('tick_trigger', [{ type: 'set', config: { values: { got: '{{ $input.tick }}' } } }]);
  const { id } = await publish(weir, 'ticked', { type: 'tick_trigger' }, nodes, edges);
  // Another flow's trigger is not this kind's: `published()` leaves it out.
  const manual = chain('manual_trigger', [{ type: 'set', config: { values: { got: 'manual' } } }]);
  await publish(weir, 'manual-one', { type: 'manual_trigger' }, manual.nodes, manual.edges);

  const host = createHost(weir);
  assert.ok(host.owns('POST', '/tick'), 'the host mounts the trigger route');
  await host.start();
  assert.equal(log, ['started']);
  const started = await until(async () => (await weir.executions.list({ workflowId: id })).find((e) => e.status === 'success'), 5000, 'the start-up run');
  assert.is((started.input as { tick: string }).tick, 'start');

  const res = await host.handle(request({ tick: 'posted' }));
  assert.is(res.status, 200);
  assert.equal(res.body, { results: [{ got: 'posted' }] });

  await host.close();
  assert.equal(log, ['started', 'stopped']);
  await weir.close();
});

test('a host given only some route groups leaves a custom trigger route out; an unknown group names the known ones', async () => {
  const weir = await createWeir({ home: tmpDir('weir-trigger-'), triggers: [tickTrigger([])] });
  assert.not.ok(createHost(weir, { routes: ['healthz'] }).owns('POST', '/tick'));
  assert.ok(createHost(weir, { routes: ['ticks'] }).owns('POST', '/tick'));
  assert.throws(() => createHost(weir, { routes: ['tick'] }), (err: Error) => /unknown route group "tick"; did you mean "ticks"\?/.test(err.message));
  await weir.close();
});

test.run();
