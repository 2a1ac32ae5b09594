import { context, INVALID_SPAN_CONTEXT, isSpanContextValid, propagation, ProxyTracerProvider, ROOT_CONTEXT, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { ErrorInfo, ExecutionRecord, NodeRecord, RunState } from '../flow/types.js';

/** The API's no-op tracer provider: what its global proxy delegates to until an SDK registers. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * Starts the spans of each execution through the global tracer provider of `@opentelemetry/api`. Until the
 * embedding app registers an SDK (before or after this is made) a run costs one comparison: no span, no
 * attribute, no context.
 * @example
 * const traceRun = createTracing()
 * const traced = traceRun(run) // undefined while no SDK is registered
 * // ... the run's nodes: traced?.startNode(i, node), traced?.within(i, () => node.run(ctx)), traced?.endNode(i, record)
 * traced?.end(run.record)
 */
export function createTracing(): (run: RunState) => ExecutionTrace | undefined {
  const provider = trace.getTracerProvider();
  const tracer = provider.getTracer('weir');
  // The global provider is the API's proxy; it delegates to the SDK's once one is registered.
  if (!(provider instanceof ProxyTracerProvider)) return (run) => traceExecution(tracer, run);
  return (run) => (provider.getDelegate() === NOOP_PROVIDER ? undefined : traceExecution(tracer, run));
}

/**
 * The spans of one execution: its own, a child of the parent found by {@link traceExecution}, and one child
 * per node that runs. Attributes hold ids, names, types, statuses, counts and error codes and (masked)
 * messages: never node data, never a secret.
 */
export class ExecutionTrace {
  readonly #tracer: Tracer;
  readonly #run: RunState;
  readonly #span: Span;
  /** The context the node spans start in (the execution's span in the parent's context). */
  readonly #context: Context;
  /** The spans of the nodes running, by node index. */
  readonly #nodes: Array<Span | undefined> = [];

  constructor(tracer: Tracer, run: RunState, span: Span, parent: Context) {
    this.#tracer = tracer;
    this.#run = run;
    this.#span = span;
    this.#context = trace.setSpan(parent, span);
  }

  /** Starts the span of a node (`index` in its graph) as it begins to run. */
  startNode(index: number, node: { id: string; type: string }): void {
    const span = this.#tracer.startSpan(`weir.node ${node.id}`, undefined, this.#context);
    if (span.isRecording()) span.setAttributes({ 'weir.node.id': node.id, 'weir.node.type': node.type });
    this.#nodes[index] = span;
  }

  /**
   * Runs a node with its span active: what the node starts (an `http_request`'s `traceparent`, an app's own
   * instrumentation, a `call_flow` execution) nests under it, also past the node's awaits.
   */
  within<T>(index: number, fn: () => T): T {
    return context.with(trace.setSpan(this.#context, this.#nodes[index]!), fn);
  }

  /**
   * Ends a node's span with its record: status, attempts (more than 1 after retries), error. A node that
   * did not run in this run (its record replayed from an earlier one) has no span.
   */
  endNode(index: number, rec: NodeRecord): void {
    const span = this.#nodes[index];
    if (!span) return;
    this.#nodes[index] = undefined;
    if (span.isRecording()) {
      span.setAttributes({ 'weir.node.status': rec.status, 'weir.node.attempt': rec.attempts ?? 1 });
      if (rec.error) this.#fail(span, rec.error);
    }
    span.end();
  }

  /** Ends the execution's span with its record: a `waiting` execution's span ends here too (see docs/observability.md). */
  end(record: ExecutionRecord): void {
    const span = this.#span;
    if (span.isRecording()) {
      span.setAttribute('weir.execution.status', record.status);
      if (record.error) this.#fail(span, record.error);
    }
    span.end();
  }

  #fail(span: Span, error: ErrorInfo): void {
    const message = this.#run.mask(error.message);
    span.setAttributes({ 'error.type': error.code, 'weir.error.code': error.code, 'weir.error.message': message });
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  }
}

/**
 * The context an execution's span starts in. A webhook's: the one its request headers carry (`traceparent`
 * and `tracestate` with the W3C propagator an SDK registers), read from the execution's input, so a
 * delivery run later from the journal or the queue, a resumed wait and a retry all join the caller's trace.
 * A run resumed otherwise (after a crash, a wait) starts a trace of its own: the context active where it is
 * resumed (a timer, a scan) is not its own. Any other run nests under the active span (a `call_flow` node,
 * an app's own span around `weir.run`).
 */
function parentOf(run: RunState): Context {
  const { trigger, resume, retryOf } = run.options;
  if (trigger === 'webhook') {
    const headers = (run.record.input as { headers?: unknown } | null)?.headers;
    return headers && typeof headers === 'object' ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT;
  }
  return resume && !retryOf ? ROOT_CONTEXT : context.active();
}

/**
 * Starts an execution's span; undefined when the span neither records nor carries a trace (a sampler's
 * no-op), so that run makes no node span, sets no attribute and switches no context. A span sampled out
 * that carries the caller's trace still gives its nodes spans (also sampled out) for `traceparent`.
 */
function traceExecution(tracer: Tracer, run: RunState): ExecutionTrace | undefined {
  const { record } = run;
  const parent = parentOf(run);
  const span = tracer.startSpan(`weir.execution ${record.workflowName}`, undefined, parent);
  if (!span.isRecording()) {
    const found = span.spanContext();
    return found !== INVALID_SPAN_CONTEXT && isSpanContextValid(found) ? new ExecutionTrace(tracer, run, span, parent) : undefined;
  }
  span.setAttributes({
    'weir.workflow.id': record.workflowId,
    'weir.workflow.name': record.workflowName,
    'weir.execution.id': record.id,
    'weir.execution.trigger': record.trigger,
    'weir.execution.attempt': record.attempts ?? 1,
  });
  if (record.version != null) span.setAttribute('weir.workflow.version', record.version);
  if (record.retryOf) span.setAttribute('weir.execution.retry_of', record.retryOf);
  return new ExecutionTrace(tracer, run, span, parent);
}

/**
 * Adds the trace headers of the active context (`traceparent`, `tracestate` with the W3C propagator) to an
 * outgoing request's headers, except those it sets itself. Nothing without a registered propagator.
 * @example
 * const headers: Record<string, string> = { accept: 'application/json' }
 * addTraceHeaders(headers) // headers.traceparent = '00-<trace id>-<the active span id>-01'
 */
export function addTraceHeaders(headers: Record<string, string>): void {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  for (const key in carrier) headers[key] ??= carrier[key];
}
