// OpenTelemetry traces as an app sees them: with the SDK's in-memory exporter registered, a span per execution
// and per node with their attributes and links, a webhook's `traceparent` as the parent (durable answer,
// Respond answer, after a wait), `traceparent` received by a server an `http_request` node calls, no secret
// in any span; with no SDK registered, flows run as before and send no trace header.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { chain, publish, send, startHost, until } from '../host/_helpers.js';

const PUBLIC = 'https://hooks.example.test';
const json = { 'content-type': 'application/json' };
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const traceparent = (spanId = CALLER_SPAN) => `00-${TRACE_ID}-${spanId}-01`;

/** A server that answers every request `{ok: true}` and keeps what it received. */
async function recorder() {
  const received: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, json).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

type Host = Awaited<ReturnType<typeof startHost>>;
type Server = Awaited<ReturnType<typeof recorder>>;

// ---------------------------------------------------------------------------------------------------------
const plain = suite('no SDK registered');
let host: Host;
let server: Server;

plain.before(async () => {
  server = await recorder();
  host = await startHost();
});
plain.after(async () => {
  await host.close();
  await server.close();
});

plain('a webhook flow with a traceparent and an http_request runs as before and sends no trace header', async () => {
  assert.not.ok(trace.getTracer('check').startSpan('x').isRecording(), 'no SDK is registered here');
  const c = chain('webhook_trigger', [{ type: 'code', config: { code: 'return { n: $input.body.n * 2 }' } }, { type: 'http_request', config: { method: 'POST', url: `${server.url}/plain`, body: '{{ $node["code-1"].data }}' } }]);
  const { token } = await publish(host.weir, 'plain', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  const res = await send(`${host.url}/trigger/${token}`, { body: '{"n":21}', headers: { ...json, traceparent: traceparent() } });
  assert.is(res.status, 200);
  assert.equal(res.json, { status: 200, headers: res.json.headers, body: { ok: true } });
  assert.is(server.received.length, 1);
  assert.equal(JSON.parse(server.received[0].body), { n: 42 });
  assert.is(server.received[0].headers.traceparent, undefined, 'no propagator: nothing is injected');
});

plain.run();

// ---------------------------------------------------------------------------------------------------------
const traced = suite('an SDK registered (in-memory exporter, W3C propagator)');
const exporter = new InMemorySpanExporter();
const SECRET = 'sk_live_9f8e7d6c5b4a3210';

traced.before(async () => {
  server = await recorder();
  // Made before the SDK is registered, as an app may do: its spans record from the registration on.
  host = await startHost({ config: { publicUrl: PUBLIC } });
  await host.weir.secrets.set('API_TOKEN', SECRET);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
traced.after(async () => {
  await host.close();
  await server.close();
  // The registration is global: later suites of this process run without it.
  trace.disable();
  propagation.disable();
  context.disable();
});

const attrs = (s: ReadableSpan) => s.attributes as Record<string, unknown>;
/** The finished spans of one execution: its own (the first, for a run that ended) and its nodes'. */
const spansOf = (executionId: string) => {
  const all = exporter.getFinishedSpans();
  const runs = all.filter((s) => attrs(s)['weir.execution.id'] === executionId);
  const ids = new Set(runs.map((s) => s.spanContext().spanId));
  const nodes = all.filter((s) => s.parentSpanContext && ids.has(s.parentSpanContext.spanId));
  return { runs, nodes, node: (id: string) => nodes.filter((s) => attrs(s)['weir.node.id'] === id) };
};
/** Waits until the execution's span (the `n`th, for a run resumed after a wait) has ended. */
const ended = (executionId: string, n = 1) => until(() => spansOf(executionId).runs.length >= n && spansOf(executionId), 10_000, `${n} span(s) of ${executionId}`);

traced('durable answer: the execution span is a child of the webhook traceparent, each node a child of it, http_request sends its own span as parent', async () => {
  const c = chain('webhook_trigger', [
    { type: 'code', config: { code: 'return { n: $input.body.n + 1 }' } },
    { type: 'http_request', config: { method: 'POST', url: `${server.url}/durable`, body: '{{ $node["code-1"].data }}' } },
    { type: 'set', config: { values: { done: true } } },
  ]);
  const flow = await publish(host.weir, 'traced-durable', { type: 'webhook_trigger' }, c.nodes, c.edges);
  const res = await send(`${host.url}/trigger/${flow.token}`, { body: '{"n":1}', headers: { ...json, traceparent: traceparent(), tracestate: 'vendor=abc' } });
  assert.is(res.status, 200);
  const { executionId } = res.json;
  const { runs, nodes, node } = await ended(executionId);

  assert.is(runs.length, 1);
  const run = runs[0];
  assert.is(run.name, 'weir.execution traced-durable');
  assert.is(run.spanContext().traceId, TRACE_ID);
  assert.is(run.parentSpanContext?.spanId, CALLER_SPAN);
  assert.ok(run.parentSpanContext?.isRemote, 'the parent came from the request');
  assert.equal(attrs(run), {
    'weir.workflow.id': flow.id,
    'weir.workflow.name': 'traced-durable',
    'weir.workflow.version': 1,
    'weir.execution.id': executionId,
    'weir.execution.trigger': 'webhook',
    'weir.execution.attempt': 1,
    'weir.execution.status': 'success',
  });
  assert.is(run.status.code, SpanStatusCode.UNSET);

  assert.equal(nodes.map((s) => attrs(s)['weir.node.id']).sort(), ['code-1', 'http_request-2', 'set-3', 'webhook_trigger-1']);
  for (const s of nodes) {
    assert.is(s.spanContext().traceId, TRACE_ID);
    assert.is(s.parentSpanContext?.spanId, run.spanContext().spanId);
    assert.is(attrs(s)['weir.node.status'], 'success');
    assert.is(attrs(s)['weir.node.attempt'], 1);
  }
  const [http] = node('http_request-2');
  assert.is(http.name, 'weir.node http_request-2');
  assert.equal(attrs(http), { 'weir.node.id': 'http_request-2', 'weir.node.type': 'http_request', 'weir.node.status': 'success', 'weir.node.attempt': 1 });
  assert.ok(http.endTime[0] * 1e9 + http.endTime[1] >= run.startTime[0] * 1e9 + run.startTime[1], 'the node ran within the execution');

  // After a Code node (run in a worker thread), the http_request's span is still the active one.
  const call = server.received.find((r) => r.url === '/durable')!;
  assert.is(call.headers.traceparent, `00-${TRACE_ID}-${http.spanContext().spanId}-01`);
  assert.is(call.headers.tracestate, 'vendor=abc');
  assert.equal(JSON.parse(call.body), { n: 2 });
});

traced('Respond answer: the execution span is a child of the webhook traceparent; a Respond flow answers as before', async () => {
  const c = chain('webhook_trigger', [{ type: 'respond', config: { status: 201, body: { ok: '{{ $input.body.n }}' } } }]);
  const flow = await publish(host.weir, 'traced-respond', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  const callerSpan = 'a1b2c3d4e5f60718';
  const res = await send(`${host.url}/trigger/${flow.token}`, { body: '{"n":7}', headers: { ...json, traceparent: traceparent(callerSpan) } });
  assert.is(res.status, 201);
  assert.equal(res.json, { ok: 7 });
  const executionId = res.headers.get('x-execution-id')!;
  const { runs, node } = await ended(executionId);
  assert.is(runs[0].spanContext().traceId, TRACE_ID);
  assert.is(runs[0].parentSpanContext?.spanId, callerSpan);
  assert.is(node('respond-1')[0].parentSpanContext?.spanId, runs[0].spanContext().spanId);
});

traced('a caller that sampled its trace out: no span is recorded, the http_request still passes the trace on', async () => {
  const c = chain('webhook_trigger', [{ type: 'http_request', config: { url: `${server.url}/sampled-out` } }]);
  const flow = await publish(host.weir, 'traced-sampled-out', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  const res = await send(`${host.url}/trigger/${flow.token}`, { body: '{}', headers: { ...json, traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-00` } });
  assert.is(res.status, 200);
  const executionId = res.headers.get('x-execution-id')!;
  await until(async () => (await host.weir.executions.get(executionId))?.status === 'success', 10_000, 'the execution to end');
  assert.is(spansOf(executionId).runs.length, 0);
  assert.match(String(server.received.find((r) => r.url === '/sampled-out')?.headers.traceparent), new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-00$`));
});

traced('a webhook without traceparent starts a trace of its own', async () => {
  const c = chain('webhook_trigger', [{ type: 'set', config: { values: { a: 1 } } }]);
  const flow = await publish(host.weir, 'traced-root', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  const res = await send(`${host.url}/trigger/${flow.token}`, { body: '{}', headers: json });
  const { runs } = await ended(res.headers.get('x-execution-id')!);
  assert.is(runs[0].parentSpanContext, undefined);
  assert.is.not(runs[0].spanContext().traceId, TRACE_ID);
});

traced('a failed node: span status ERROR with code and masked message, attempts counted; no secret in any span', async () => {
  const c = chain('webhook_trigger', [
    { type: 'http_request', config: { method: 'POST', url: `${server.url}/secret?key={{ $env.API_TOKEN }}`, headers: { authorization: 'Bearer {{ $env.API_TOKEN }}' }, body: { token: '{{ $env.API_TOKEN }}' } } },
    { type: 'code', config: { code: 'throw new Error("rejected key " + $env.API_TOKEN)', retry: { max: 1, backoffMs: 0 } } },
  ]);
  const flow = await publish(host.weir, 'traced-failing', { type: 'webhook_trigger' }, c.nodes, c.edges);
  const res = await send(`${host.url}/trigger/${flow.token}`, { body: '{}', headers: { ...json, traceparent: traceparent() } });
  const { executionId } = res.json;
  const { runs, node } = await ended(executionId);
  assert.is(server.received.find((r) => r.url.startsWith('/secret'))?.headers.authorization, `Bearer ${SECRET}`, 'the flow did use the secret');

  const [code] = node('code-2');
  assert.is(code.status.code, SpanStatusCode.ERROR);
  assert.match(code.status.message!, /rejected key \*\*\*/);
  assert.is(attrs(code)['weir.node.status'], 'error');
  assert.is(attrs(code)['weir.node.attempt'], 2);
  assert.is(attrs(code)['weir.error.code'], 'EXECUTION_FAILED');
  assert.is(attrs(code)['error.type'], 'EXECUTION_FAILED');
  assert.is(attrs(code)['weir.error.message'], code.status.message);
  assert.is(runs[0].status.code, SpanStatusCode.ERROR);
  assert.is(attrs(runs[0])['weir.execution.status'], 'error');
  assert.is(attrs(runs[0])['weir.error.code'], 'EXECUTION_FAILED');

  const everything = JSON.stringify(exporter.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, status: s.status, events: s.events, links: s.links })));
  assert.ok(everything.includes('rejected key'), 'the spans were read');
  assert.not.ok(everything.includes(SECRET), 'no secret value in any span');
  assert.not.ok(everything.includes(SECRET.slice(0, 12)), 'not even part of one');
});

traced('a webhook wait: the span ends as waiting; the resumed run is a new span under the same traceparent, its http_request joins the trace', async () => {
  const c = chain('webhook_trigger', [
    { type: 'respond', id: 'respond-1', config: { body: { url: '{{ $execution.resumeUrl }}' } } },
    { type: 'wait', id: 'wait-1', config: { webhook: true } },
    { type: 'http_request', id: 'http_request-1', config: { url: `${server.url}/after-wait` } },
  ]);
  const flow = await publish(host.weir, 'traced-wait', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  const first = await send(`${host.url}/trigger/${flow.token}`, { body: '{}', headers: { ...json, traceparent: traceparent() } });
  const executionId = first.headers.get('x-execution-id')!;
  const waiting = await ended(executionId);
  assert.is(attrs(waiting.runs[0])['weir.execution.status'], 'waiting');
  assert.is(attrs(waiting.node('wait-1')[0])['weir.node.status'], 'waiting');
  assert.is(waiting.node('http_request-1').length, 0);

  const url = host.url + String(first.json.url).slice(PUBLIC.length);
  assert.is((await send(url, { body: '{"approved":true}', headers: { ...json, traceparent: traceparent('ffffffffffffffff') } })).status, 202);
  const after = await ended(executionId, 2);
  const resumed = after.runs.find((s) => s !== after.runs.find((r) => r.spanContext().spanId === waiting.runs[0].spanContext().spanId))!;
  assert.is(resumed.spanContext().traceId, TRACE_ID);
  assert.is(resumed.parentSpanContext?.spanId, CALLER_SPAN, "the webhook's caller is the parent of every run of its execution");
  assert.is(attrs(resumed)['weir.execution.status'], 'success');
  const [woken] = after.node('wait-1').filter((s) => s.parentSpanContext?.spanId === resumed.spanContext().spanId);
  assert.is(attrs(woken)['weir.node.status'], 'success');
  assert.is(after.node('respond-1').length, 1, 'a node replayed from the first run gets no second span');
  const [http] = after.node('http_request-1');
  assert.is(server.received.find((r) => r.url === '/after-wait')?.headers.traceparent, `00-${TRACE_ID}-${http.spanContext().spanId}-01`);
});

traced("a run started inside an app's span nests under it; a call_flow execution nests under the calling node", async () => {
  const inner = chain('manual_trigger', [{ type: 'set', config: { values: { inner: true } } }]);
  await publish(host.weir, 'traced-inner', { type: 'manual_trigger' }, inner.nodes, inner.edges);
  const outer = chain('manual_trigger', [{ type: 'call_flow', config: { flow: 'traced-inner' } }]);
  await publish(host.weir, 'traced-outer', { type: 'manual_trigger' }, outer.nodes, outer.edges);
  const app = trace.getTracer('app');
  const { record, appSpan } = await app.startActiveSpan('app request', async (span) => {
    const out = await host.weir.run('traced-outer', {}, { published: true });
    span.end();
    return { record: out, appSpan: span.spanContext() };
  });
  assert.is(record.status, 'success');
  const outerSpans = await ended(record.id);
  assert.is(outerSpans.runs[0].parentSpanContext?.spanId, appSpan.spanId);
  assert.is(attrs(outerSpans.runs[0])['weir.execution.trigger'], 'manual');
  const [callNode] = outerSpans.node('call_flow-1');
  const innerRun = exporter.getFinishedSpans().find((s) => s.name === 'weir.execution traced-inner')!;
  assert.is(innerRun.parentSpanContext?.spanId, callNode.spanContext().spanId);
  assert.is(innerRun.spanContext().traceId, appSpan.traceId);
  assert.is(attrs(innerRun)['weir.execution.trigger'], 'call_flow');
});

traced.run();
