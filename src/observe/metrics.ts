import type { Metric, Registry } from 'prom-client';
import type { WeirConfig } from '../config.js';
import type { WeirBus, WeirEvents } from '../events.js';
import type { ExecutorHooks, RunState } from '../flow/types.js';
import type { ExecutionLimiter } from '../runtime/execution-limiter.js';
import type { Sandbox } from '../sandbox/index.js';
import type { Waits } from '../types/waits.js';
import { isoMsBetween } from './iso-time.js';
import { leanCounter, leanHistogram, type Collected, type CounterSeries, type HistogramSeries } from './series.js';

/** Workflow label values before further flows share {@link OTHER_WORKFLOWS} (`metrics.maxWorkflows`). */
export const DEFAULT_MAX_WORKFLOWS = 100;
/** The workflow label of the flows past the cap. */
export const OTHER_WORKFLOWS = '_other';

// Seconds; an execution may wait for a slow API, a webhook answer should take milliseconds.
const EXECUTION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const NODE_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const ANSWER_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What the metrics read: the executor's end hook, the bus, and the gauges' sources at scrape time. */
export interface MetricsOptions {
  settings?: WeirConfig['metrics'];
  bus: WeirBus;
  hooks: Pick<ExecutorHooks, 'execution:end'>;
  limiter: Pick<ExecutionLimiter, 'size' | 'queued'>;
  /** The webhook intake's deliveries accepted and not finished. */
  intake: { readonly backlog: number };
  waits: Pick<Waits, 'size'>;
  sandbox: Pick<Sandbox, 'load'>;
}

/** A weir instance's Prometheus metrics (see {@link createMetrics}). */
export interface Metrics {
  /** Loads prom-client and starts counting; again: the same promise. */
  start(): Promise<void>;
  /** The Prometheus text of every metric (started first if need be). */
  scrape(): Promise<{ contentType: string; text: string }>;
}

/**
 * The metrics of one weir instance, in a registry of its own (two instances in a process do not share one).
 * Nothing is loaded or counted until `start()` (a host starts it): a CLI command pays nothing. Then the
 * executor's end hook counts executions by workflow name and status and times them and their nodes, the
 * `webhook:answer` events count webhook answers by status, `llm:usage` events the tokens nodes report, and gauges read the limiter, the intake backlog,
 * the wake index and the sandbox pool when scraped; prom-client adds the default process metrics.
 * @example
 * const metrics = createMetrics({ settings: config.metrics, bus, hooks: executor.hooks, limiter, intake: runtime.webhooks, waits, sandbox })
 * await metrics.start()
 * const { contentType, text } = await metrics.scrape()
 */
export function createMetrics(options: MetricsOptions): Metrics {
  let started: Promise<Registry> | null = null;
  const start = () => (started ??= load(options));
  return {
    start: () => start().then(() => {}),
    async scrape() {
      const registry = await start();
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}

async function load({ settings, bus, hooks, limiter, intake, waits, sandbox }: MetricsOptions): Promise<Registry> {
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry });
  const add = <T extends Collected>(metric: T): T => (registry.registerMetric(metric as unknown as Metric), metric);
  const gauge = (name: string, help: string, read: () => number) =>
    new prom.Gauge({ name, help, registers: [registry], collect() { this.set(read()); } });

  const executions = add(leanCounter('weir_executions_total', 'Executions ended, by workflow name and status', ['workflow', 'status']));
  const executionTime = add(leanHistogram('weir_execution_duration_seconds', 'Time from an execution\'s start to its end (waits included), by workflow name', ['workflow'], EXECUTION_BUCKETS));
  const nodeTime = add(leanHistogram('weir_node_duration_seconds', 'Time a node took to run, by node type', ['type'], NODE_BUCKETS));
  const answers = add(leanCounter('weir_webhook_requests_total', 'Answers of /trigger/<token>, by HTTP status', ['code']));
  const llmTokens = add(leanCounter('weir_llm_tokens_total', 'Language-model tokens nodes reported, by workflow name, model and kind (prompt or completion)', ['workflow', 'model', 'kind']));
  const answerTime = add(leanHistogram('weir_webhook_duration_seconds', 'Time from a webhook request reaching its route to its answer being ready', [], ANSWER_BUCKETS)).series([]);
  gauge('weir_executions_running', 'Executions running in this process', () => limiter.size - limiter.queued);
  gauge('weir_executions_queued', 'Executions waiting for a free slot in this process', () => limiter.queued);
  gauge('weir_executions_waiting', 'Wait nodes with a wake time (time waits, webhook waits with a timeout) in the wake index', () => waits.size);
  gauge('weir_intake_backlog', 'Webhook deliveries accepted and not finished (waiting or running)', () => intake.backlog);
  gauge('weir_sandbox_workers', 'Code node worker threads started', () => sandbox.load().workers);
  gauge('weir_sandbox_workers_busy', 'Code node worker threads running a job', () => sandbox.load().busy);
  gauge('weir_sandbox_jobs_queued', 'Code node runs waiting for a worker thread', () => sandbox.load().queued);

  // Label values are made once per workflow, status, node type and code; the paths below only add to numbers.
  const maxWorkflows = settings?.maxWorkflows ?? DEFAULT_MAX_WORKFLOWS;
  interface Flow {
    label: string;
    took: HistogramSeries;
    ended: Map<string, CounterSeries>;
  }
  const flowSeries = (label: string): Flow => ({ label, took: executionTime.series([label]), ended: new Map() });
  const flows = new Map<string, Flow>();
  let labelled = 0;
  let others: Flow | null = null;
  const flowOf = (name: string): Flow => {
    let flow = flows.get(name);
    if (flow) return flow;
    // Past the cap every new name shares one label value: a thousand flows cannot blow up a scrape.
    flow = labelled < maxWorkflows ? (labelled++, flowSeries(name)) : (others ??= flowSeries(OTHER_WORKFLOWS));
    flows.set(name, flow);
    return flow;
  };
  const nodeTypes = new Map<string, HistogramSeries>();
  const codes = new Map<number, CounterSeries>();
  // By workflow label and model: the prompt and completion series.
  const tokenSeries = new Map<string, { prompt: CounterSeries; completion: CounterSeries }>();

  const ended = (run: RunState): void => {
    const { record } = run;
    // Nodes a resumed or retried run took over from before were timed when they ran.
    const since = record.resumedAt ?? record.startedAt;
    for (const node of run.options.workflow.config.nodes) {
      const rec = record.nodes[node.id];
      if (!rec?.finishedAt || !rec.startedAt || rec.startedAt < since) continue;
      let took = nodeTypes.get(node.type);
      if (!took) nodeTypes.set(node.type, (took = nodeTime.series([node.type])));
      took.observe(isoMsBetween(rec.startedAt, rec.finishedAt) / 1000);
    }
    // A run that ends `waiting` is counted when the execution ends.
    if (record.status === 'waiting' || !record.finishedAt) return;
    const flow = flowOf(record.workflowName);
    let count = flow.ended.get(record.status);
    if (!count) flow.ended.set(record.status, (count = executions.series([flow.label, record.status])));
    count.inc();
    flow.took.observe(isoMsBetween(record.startedAt, record.finishedAt) / 1000);
  };
  const answered = ({ status, seconds }: WeirEvents['webhook:answer']) => {
    let count = codes.get(status);
    if (!count) codes.set(status, (count = answers.series([String(status)])));
    count.inc();
    answerTime.observe(seconds);
  };
  // Counted when reported, not when the execution ends: tokens spent before a wait or a crash are spent.
  const used = ({ workflowName, model, promptTokens, completionTokens }: WeirEvents['llm:usage']) => {
    const { label } = flowOf(workflowName);
    const key = `${label}\n${model}`;
    let series = tokenSeries.get(key);
    if (!series) tokenSeries.set(key, (series = { prompt: llmTokens.series([label, model, 'prompt']), completion: llmTokens.series([label, model, 'completion']) }));
    series.prompt.inc(promptTokens);
    series.completion.inc(completionTokens);
  };
  // First, and synchronous: counted before the record is stored, at no promise's cost.
  hooks['execution:end'].unshift(ended);
  bus.on('webhook:answer', answered);
  bus.on('llm:usage', used);
  return registry;
}
