// What docs/observability.md says to preload into `weir serve` (NODE_OPTIONS='--import ...'): an SDK with the
// W3C propagator, here exporting each ended span as one JSON line to $SPANS_FILE.
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { context, propagation, trace } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

const toFile = {
  export(spans, done) {
    for (const s of spans) appendFileSync(process.env.SPANS_FILE, `${JSON.stringify({ name: s.name, traceId: s.spanContext().traceId, spanId: s.spanContext().spanId, parent: s.parentSpanContext?.spanId, attributes: s.attributes })}\n`);
    done({ code: 0 });
  },
  shutdown: async () => {},
};
if (isMainThread) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(toFile)] }));
}
