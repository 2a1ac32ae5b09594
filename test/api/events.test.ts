import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiHost, responseValidators } from './_api.js';
import { openEvents, type SseEvent } from './_sse.js';
import { chain, publish, until } from '../host/_helpers.js';
import { openEventStream } from '../../src/api/events/stream.js';

const STREAMED = ['execution:start', 'node:start', 'node:end', 'execution:log', 'execution:end'];
const label = (name: string, data: any) => `${name}${data.nodeId ? ` ${data.nodeId}` : ''}`;

test("an execution's event stream dropped mid-way and resumed with Last-Event-ID delivers every remaining event exactly once", async () => {
  const h = await apiHost();
  try {
    const c = chain('manual_trigger', [
      { type: 'delay', config: { ms: 600 } },
      { type: 'set', config: { values: { a: 1 } } },
      { type: 'delay', config: { ms: 250 } },
      { type: 'set', config: { values: { b: 2 } } },
      { type: 'delay', config: { ms: 250 } },
      { type: 'set', config: { values: { c: 3 } } },
    ]);
    const flow = await publish(h.weir, 'steps', { type: 'manual_trigger' }, c.nodes, c.edges);
    const auth = { authorization: `Bearer ${h.token}` };
    const onBus: string[] = [];
    for (const name of STREAMED) h.weir.bus.on(name, (data: any) => onBus.push(label(name, data)));

    for (const [headers, status] of [[{}, 401], [{ authorization: 'Bearer wrong' }, 403]] as const) {
      assert.is((await fetch(`${h.url}/api/v1/workflows/steps/events`, { headers })).status, status);
      assert.is((await fetch(`${h.url}/api/v1/executions/exec_x/events`, { headers })).status, status);
    }
    const flowEvents = await openEvents(`${h.url}/api/v1/workflows/steps/events`, auth);
    assert.is(flowEvents.status, 200);
    assert.match(flowEvents.headers.get('content-type')!, 'text/event-stream');
    const running = h.call('POST', '/workflows/steps/run', { published: true });
    const started = await flowEvents.next();
    assert.is(started!.event, 'execution:start');
    const executionId = started!.data.executionId;
    assert.is(started!.data.workflowId, flow.id);

    const first = await openEvents(`${h.url}/api/v1/executions/${executionId}/events`, auth);
    // Dropped at the first node's end it sees (the trigger's, or delay-1's if the trigger ended before it connected).
    const before = await first.until((e) => e.event === 'node:end');
    assert.is(before[0].event, 'snapshot', 'a new stream starts with the record');
    assert.is(before[0].data.id, executionId);
    first.drop();
    // Events happen while no one listens.
    await until(() => onBus.includes('node:end set-4'), 5000, 'set-4 to run');
    const lastSeen = before.at(-1)!.id!;
    const second = await openEvents(`${h.url}/api/v1/executions/${executionId}/events`, { ...auth, 'last-event-id': lastSeen });
    const after = await second.until(() => false);
    assert.is(after.at(-1)!.event, 'execution:end', 'the stream ends with the execution');
    assert.is(after[0].event, 'node:start', 'no snapshot when nothing was missed');

    const received = [...before.slice(1), ...after];
    const ids = received.map((e) => Number(e.id!.split('-').pop()));
    assert.equal(ids, [...ids].sort((a, b) => a - b), 'ids increase');
    assert.is(new Set(ids).size, ids.length, 'nothing twice');
    const labels = received.map((e) => label(e.event, e.data));
    const fromBus = onBus.slice(onBus.indexOf(labels[0]));
    assert.equal(labels, fromBus, 'every event the bus had from the first one received on, in order');
    assert.ok(labels.includes('node:start set-2') && labels.includes('node:end set-6'));
    assert.is((await running).json.status, 'success');
    const ended = await flowEvents.next();
    assert.equal([ended!.event, ended!.data.executionId, ended!.data.status], ['execution:end', executionId, 'success']);
    flowEvents.drop();

    // An execution that ended: its record, then the stream ends; so with an id this host never gave out.
    const doc = (await h.call('GET', '/openapi.json')).json;
    const recordSchema = responseValidators(doc)('GET', '/api/v1/executions/{id}', 200);
    for (const headers of [auth, { ...auth, 'last-event-id': 'elsewhere-12' }]) {
      const done = await openEvents(`${h.url}/api/v1/executions/${executionId}/events`, headers);
      const all: SseEvent[] = await done.until(() => false);
      assert.equal(all.map((e) => e.event), ['snapshot']);
      assert.is(all[0].data.status, 'success');
      assert.ok(recordSchema(all[0].data), JSON.stringify(recordSchema.errors));
    }
    assert.is((await fetch(`${h.url}/api/v1/executions/exec_nope/events`, { headers: auth })).status, 404);
  } finally {
    await h.close();
  }
});

test('a workflow stream resumed after its id left the log starts with a snapshot of the newest executions', async () => {
  const h = await apiHost();
  try {
    const auth = { authorization: `Bearer ${h.token}` };
    const ran = await h.call('POST', '/workflows/hello/run', { input: { name: 'A' } });
    const stream = await openEvents(`${h.url}/api/v1/workflows/hello/events`, { ...auth, 'last-event-id': 'gone-3' });
    const snapshot = await stream.next();
    assert.is(snapshot!.event, 'snapshot');
    assert.equal(snapshot!.data.items.map((e: any) => e.id), [ran.json.id]);
    const again = h.call('POST', '/workflows/hello/run', { input: { name: 'B' } });
    const events = await stream.until((e) => e.event === 'execution:end');
    assert.equal(events.map((e) => e.event), ['execution:start', 'execution:end']);
    assert.is(events[1].data.executionId, (await again).json.id);
    stream.drop();
  } finally {
    await h.close();
  }
});

test('through the fetch adapter, each event reaches the client as it happens, and cancelling the body ends the stream', async () => {
  const { createFetchHandler } = await import('../../adapters/fetch/index.js');
  const { createWeir } = await import('../../src/weir.js');
  const { tmpDir } = await import('../host/_helpers.js');
  const weir = await createWeir({ home: tmpDir('weir-api-fetch-') });
  const handler = createFetchHandler(weir, { schedules: false, prefix: '/weir' });
  try {
    const c = chain('manual_trigger', [{ type: 'delay', config: { ms: 800 } }, { type: 'set', config: { values: { a: 1 } } }]);
    await publish(weir, 'slow', { type: 'manual_trigger' }, c.nodes, c.edges);
    const auth = { authorization: `Bearer ${await weir.interfaces.accessToken()}` };
    const res = await handler(new Request('http://weir.test/weir/api/v1/workflows/slow/events', { headers: auth }));
    assert.is(res.status, 200);
    const reader = res.body!.getReader();
    let ended = false;
    const run = handler(new Request('http://weir.test/weir/api/v1/workflows/slow/run', { method: 'POST', headers: auth })).finally(() => (ended = true));
    let text = '';
    while (!text.includes('event: execution:start')) text += new TextDecoder().decode((await reader.read()).value);
    assert.not.ok(ended, 'the start event arrived while the run still goes on');
    await reader.cancel();
    assert.is((await (await run).json()).status, 'success');
  } finally {
    await handler.close();
    await weir.close();
  }
});

test('a stream opened for a client already gone (its request aborted while the route read) ends at once, without an error', () => {
  const sse = openEventStream({ signal: AbortSignal.abort(), headers: {} } as never);
  let closed = false;
  sse.onClose(() => (closed = true));
  assert.ok(closed, 'the stream is closed');
  assert.ok((sse.response.stream as unknown as { writableEnded: boolean }).writableEnded, 'nothing more is written');
  sse.send('1', 'execution:end', {});
});

test.run();
