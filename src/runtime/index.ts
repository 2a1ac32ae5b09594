import { join } from 'node:path';
import type { Cluster } from '../cluster/index.js';
import type { WeirConfig } from '../config.js';
import type { WeirBus } from '../events.js';
import type { ExecutionRecord, Masker, RunOptions } from '../flow/types.js';
import type { NodeRegistry } from '../nodes/index.js';
import type { Executions } from '../resources/executions/index.js';
import type { Workflows } from '../resources/workflows/index.js';
import { createExecutionQueue, type ExecutionQueue } from '../queue/index.js';
import type { Storages } from '../storage/index.js';
import type { Capture } from '../triggers/webhook/capture.js';
import { createDebouncer } from './debounce.js';
import { createQueueDebouncer } from './debounce-queue.js';
import { createDispatcher, type Dispatcher } from './dispatch.js';
import { createFlowIndex, type FlowIndex } from './flow-index.js';
import { createInterfaceEvents, type InterfaceEvents } from '../triggers/interface-event/events.js';
import { createExecutionLimiter, type ExecutionLimiter } from './execution-limiter.js';
import { maxCrashesOf } from './poison.js';
import { createWebhooks, type Webhooks } from '../triggers/webhook/intake.js';
import { createResumer, type Resumer } from './resume.js';
import { createClaim } from '../cluster/claims.js';
import { createStatusTokens, executionStatus } from './status-tokens.js';
import type { ExecutionStatusView } from '../types/executions.js';
import type { Expressions } from '../expr/index.js';
import { admitted, createAdmission, recoverQueued, type Admission } from './admission/index.js';

/** What the intake uses of a weir instance. */
export interface RuntimeOptions {
  /** The journal of durable deliveries lives under `<home>/journal`; memory only without a home. */
  home?: string;
  config: WeirConfig;
  storage: Storages;
  bus: WeirBus;
  nodes: Pick<NodeRegistry, 'get'>;
  workflows: Workflows;
  executions: Pick<Executions, 'endedAmong' | 'get' | 'open' | 'configs' | 'save' | 'track' | 'untrack'>;
  capture: Capture;
  /** Evaluates the `key` of a flow's concurrency and rate limit settings. */
  expressions: Pick<Expressions, 'template'>;
  /** Redis coordination of several hosts; with `config.queue` it carries the execution queue. */
  cluster: Cluster | null;
  /** Runs an execution on this process (the executor's `run`). */
  execute(request: RunOptions): Promise<ExecutionRecord>;
  /** Masks the secrets in the records stored before a run (queued, debounced): they hold its input. */
  masker(): Promise<Masker>;
}

/** Webhook intake, interface events and the dispatcher that every trigger of a host shares. */
export interface Runtime {
  /** The one bound on executions running at once here, whatever started them; a shutdown waits for it to drain. */
  limiter: ExecutionLimiter;
  /** Runs trigger events here or on the execution queue. */
  dispatcher: Dispatcher;
  /** Per-flow concurrency and rate limits: what the dispatcher holds back, and what a cancel reaches there. */
  admission: Admission;
  /**
   * Runs an execution here that no trigger delivery started (`weir.run`, the run route, `call_flow` and
   * `foreach` children, retries, reruns, wakes) through admission, as the dispatcher runs deliveries: it
   * waits `queued` while its flow's concurrency or rate limit binds. Never debounced: its caller awaits its own run.
   * @example
   * const record = await weir.runtime.run({ workflow, input: { id: 42 }, trigger: 'manual' })
   */
  run(request: RunOptions): Promise<ExecutionRecord>;
  /** The execution queue (`queue` in weir.config.json, with a cluster), null without one. */
  queue: ExecutionQueue | null;
  /** The cache of published flows and webhook tokens. */
  index: FlowIndex;
  webhooks: Webhooks;
  events: InterfaceEvents;
  /**
   * What the status URL of a `respondImmediately` answer shows (`GET /executions/<token>`): the execution's
   * status, `result` or `error` while its record is kept; null for a token this storage's key did not sign,
   * or once the record is pruned.
   * @example
   * const { statusUrl } = await (await fetch(webhookUrl, { method: 'POST', body })).json()
   * await weir.runtime.status(statusUrl.split('/').pop()) // { executionId: 'exec_…', status: 'running' }
   */
  status(token: string): Promise<ExecutionStatusView | null>;
  /** Resumes executions a dead process left unfinished. */
  resumer: Resumer;
  /**
   * Replays deliveries a killed host left behind and resumes the executions it left running (from their
   * checkpoints); resolves with how many deliveries were replayed.
   */
  start(): Promise<number>;
  /** Waits for every execution started through the intake, then closes the journal and the queue. */
  close(): Promise<void>;
}

/**
 * What a weir instance needs to take events from outside: one execution limiter (the only bound on how many
 * executions run at once, drained on shutdown), one dispatcher (on the execution queue when `queue` is
 * configured, chosen here once), one cache of published flows, the webhook intake and the interface events.
 * Creating it does no I/O: the journal opens when a host starts or the first durable delivery arrives.
 * @example
 * const intake = createRuntime({ config, storage, bus, nodes, workflows, executions, capture, cluster, execute: (r) => executor.run(r) })
 * await intake.start()          // replays unfinished deliveries
 * await intake.close()          // waits for running executions
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const { config, cluster } = options;
  const limiter = createExecutionLimiter({ concurrency: config.executions?.concurrency, maxBacklog: config.executions?.maxBacklog });
  // Opens nothing yet: BullMQ loads and Redis connects on first use (or when a host joins the queue).
  const queue = config.queue && cluster ? createExecutionQueue({ settings: config.queue, cluster, expressions: options.expressions, maxCrashes: maxCrashesOf(config) }) : null;
  const admission = createAdmission({ executions: options.executions, expressions: options.expressions, masker: options.masker, onQueue: queue !== null, queue });
  // Runs that did not come through dispatch (by hand, woken, a burst once quiet) obey the flow's rules too.
  const run = admitted(admission, options.execute);
  // On the queue a burst is every host's (in Redis); on one host, this process's (logged under the home).
  const debounce = queue
    ? createQueueDebouncer({ queue, executions: options.executions, masker: options.masker, expressions: options.expressions })
    : createDebouncer({ dir: options.home ? join(options.home, 'debounce') : undefined, executions: options.executions, masker: options.masker, execute: run, limiter, bus: options.bus });
  const dispatcher = createDispatcher({ execute: options.execute, limiter, queue, admission, debounce });
  const index = createFlowIndex({ storage: options.storage, bus: options.bus, workflows: options.workflows, capture: options.capture });
  const tokens = createStatusTokens(options.storage.view('cloud', 'executions'));
  const webhooks = createWebhooks({ ...options, limiter, dispatcher, index, tokens });
  const events = createInterfaceEvents({ nodes: options.nodes, dispatcher, index, exposeErrors: config.webhook?.exposeErrors });
  const resumer = createResumer({ executions: options.executions, dispatcher, bus: options.bus, claim: createClaim({ cluster, home: options.home }, 'resume') ?? (async () => true) });
  let started: Promise<number> | null = null;
  return {
    limiter,
    dispatcher,
    admission,
    run,
    queue,
    index,
    webhooks,
    events,
    status: executionStatus({ tokens, executions: options.executions, pending: (id) => webhooks.pending(id) }),
    resumer,
    start() {
      started ??= webhooks.start().then((replayed) => {
        // In the background, so a host with many stored executions listens at once. The scan leaves queue
        // jobs alone (the queue hands a dead worker's job to another worker).
        // Executions left queued are started after those left running, which held their places.
        resumer
          .scan()
          .then(() => recoverQueued({ executions: options.executions, flowOf: resumer.flowOf, run: (e) => dispatcher.run(e), bus: options.bus }))
          .catch((error) => options.bus.emit('execution:resume-error', { error }));
        debounce.start().catch((error) => options.bus.emit('debounce:error', { error }));
        return replayed;
      });
      return started;
    },
    async close() {
      await debounce.stop();
      await webhooks.close();
      await queue?.close();
    },
  };
}
