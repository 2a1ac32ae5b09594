import type { LookupFunction } from 'node:net';
import { checkConfig, loadConfig, type WeirConfig } from './config.js';
import { createBus, type WeirBus } from './events.js';
import { createNodeRegistry, type NodeDefinition, type NodeRegistry } from './nodes/index.js';
import { builtinTriggers, type TriggerDefinition } from './triggers/index.js';
import { createWorkflows, type Workflows } from './resources/workflows/index.js';
import { createExpressions } from './expr/index.js';
import { createAwaitExecution } from './runtime/await-execution.js';
import { allowedEnv, currentMasker, createRun, createRunningExecutions, createWeirExecutor, flowChecks, type ExecutionRecord, type Executor, type WeirRunOptions } from './flow/index.js';
import { createExecutions } from './resources/executions/index.js';
import { createCancelRequests } from './resources/executions/cancel-requests.js';
import { createCancel } from './resources/executions/cancel.js';
import { createExecutionControl } from './resources/executions/control.js';
import type { WeirExecutions } from './types/executions.js';
import { cloudProbe } from './runtime/changes.js';
import { createSandbox, type Sandbox } from './sandbox/index.js';
import { createInterfaces, type Interfaces } from './resources/interfaces/index.js';
import { createAgents, type Agents } from './resources/agents/index.js';
import { createKnowledge, type Knowledge } from './resources/knowledge/index.js';
import { createChatModel } from './agent/providers/index.js';
import { createKv, type Kv } from './resources/kv/index.js';
import { blobDir, createObjects, type Objects } from './resources/objects/index.js';
import { createSecrets, type Secrets } from './resources/secrets/index.js';
import { masterKeyOnce } from './resources/secrets/crypto.js';
import { createTables, executionsTable, type Tables } from './resources/tables/index.js';
import { createProjects, type Projects } from './resources/projects/index.js';
import { createVoiceAgents, type VoiceAgents } from './resources/voice-agents/index.js';
import { openStorage, type KeyValueStorage, type Storages } from './storage/index.js';
import { createCluster, type Cluster } from './cluster/index.js';
import { createNetworkPolicy, type NetworkPolicy } from './util/network.js';
import { createCapture, type Capture } from './triggers/webhook/capture.js';
import { createRuntime, type Runtime } from './runtime/index.js';
import { createErrorFlows } from './runtime/error-flows.js';
import { cachedPublicBase, publicBase } from './host/serve-info.js';
import { createResumeTokens, createWaitStore, createWaits } from './waits/index.js';
import { createClaim } from './cluster/claims.js';
import { RETRY_MS as WAIT_RETRY_MS } from './waits/wake.js';
import type { Waits } from './types/waits.js';
import type { NodeServices } from './types/node-services.js';
import { logBus } from './logging/bus-log.js';
import type { WeirLogger } from './logging/logger.js';
import { createMetrics, type Metrics } from './observe/metrics.js';

/** Options of {@link createWeir}. Give a `home` for files on disk, or `storage` instances (memory when neither). */
export interface WeirOptions {
  /** Directory holding all state (`weir.config.json`, the fs mounts, databases). */
  home?: string;
  /** Configuration; read from `<home>/weir.config.json` when omitted. */
  config?: WeirConfig;
  /** Ready-made stores for the mounts (e.g. unstorage's `createStorage()`, memory in tests). */
  storage?: { local?: KeyValueStorage; cloud?: KeyValueStorage };
  /** Custom node types added to the built-in ones. */
  nodes?: NodeDefinition<any>[];
  /** Custom trigger kinds (see `defineTrigger`) added to the built-in ones; their nodes join the node types. */
  triggers?: TriggerDefinition[];
  /** Environment visible to flows through `$env` (default: `process.env`, filtered by `config.env.allow`). */
  env?: Record<string, string | undefined>;
  /**
   * Where the instance logs execution errors, trigger failures and (at debug) node log lines: a pino logger or
   * anything with its methods. Without one nothing is printed.
   */
  logger?: WeirLogger;
  /**
   * How `http_request` turns host names into addresses (default `dns.lookup`), e.g. a resolver of your own;
   * tests use it to make a name resolve to a blocked address. Every address it returns is still checked.
   */
  lookup?: LookupFunction;
}

/**
 * A weir instance: what embedders use (the resource managers, `run`, `executeFlow`, `close`) and what the
 * hosts built on it share (bus, executor, runtime). Assembled once by {@link createWeir}, as a constant: queue
 * mode (`queue` in `weir.config.json`) is chosen then, inside the runtime.
 */
export interface Weir {
  /** Directory holding all state; none for an instance on injected or memory storage. */
  readonly home?: string;
  readonly config: WeirConfig;
  readonly storage: Storages;
  /** Lifecycle events: executions, node logs, publishes, trigger failures. */
  readonly bus: WeirBus;
  /** Built-in and custom node types. */
  readonly nodes: NodeRegistry;
  /** Built-in and custom trigger kinds: a host mounts their routes and starts what they start. */
  readonly triggers: readonly TriggerDefinition[];
  readonly env: Record<string, string | undefined>;
  /** Which addresses outgoing requests may reach (`network` in `weir.config.json`). */
  readonly network: NetworkPolicy;
  /** Workflow drafts and published copies: save, publish, sync, diff. */
  readonly workflows: Workflows;
  /**
   * Execution records (`cloud:executions`): `list({ workflowId, limit })` newest first, `get(id)`; and their
   * control: `cancel(id)`, `retry(id, { latest })`, `rerun(id, { draft })`, `approve(id, { approve, reason })`.
   */
  readonly executions: WeirExecutions;
  /** The flow executor (`executor.run({ workflow, input, trigger })`) and its lifecycle hooks. */
  readonly executor: Executor;
  /**
   * Runs a workflow by id or name: the local draft, or the published copy with `{ published: true }`. Under
   * the flow's `concurrency` and `rateLimit` (this process's) it may wait `queued` first; it is never debounced.
   * @example
   * const record = await weir.run('orders', { id: 42 }, { published: true })
   */
  run(ref: string, input?: unknown, options?: WeirRunOptions): Promise<ExecutionRecord>;
  /** The isolated JavaScript sandbox of Code nodes (QuickJS, loaded on first use). */
  readonly sandbox: Sandbox;
  /** Interfaces (web apps served under `/i/<name>/`): sources, builds, deploys, logs. */
  readonly interfaces: Interfaces;
  /** SQL tables (`user.*`, SQLite under the home by default) and read-only system tables. */
  readonly tables: Tables;
  /** KV namespaces of string values. */
  readonly kv: Kv;
  /** Key-addressed object storage (streamed files under the home on the fs driver). */
  readonly objects: Objects;
  /** Organization secrets, AES-256-GCM at rest; `values()` feeds `$env`. */
  readonly secrets: Secrets;
  /** Knowledge base: folders, documents, public URLs, full-text search. */
  readonly knowledge: Knowledge;
  /** AI agents: built-in (read-only) and custom. */
  readonly agents: Agents;
  /** The state of the home kept in a git repository. */
  readonly projects: Projects;
  /** Voice agents, phone numbers and inbound calls/SMS (providers.voice, Twilio). */
  readonly voiceAgents: VoiceAgents;
  /** Webhook capture sessions (`webhook-listen/poll/accept/decline`). */
  readonly capture: Capture;
  /** The runtime: dispatcher, execution limiter, durable deliveries, resume; webhook intake and interface events that hosts share. */
  readonly runtime: Runtime;
  /**
   * Runs a published flow for a server-side caller, input checked against its `inputParams`; resolves to its
   * result, typed as the caller says it is (`T` is not checked at run time).
   * @example
   * const { greeting } = await weir.executeFlow<{ greeting: string }>('hello', { name: 'Ada' })
   */
  executeFlow<T = unknown>(nameOrId: string, input?: unknown): Promise<T>;
  /**
   * Waiting executions (`wait` nodes, approvals): stored with their wake times; a started host wakes them and
   * answers their resume and approval URLs; `approve(id, decision)` decides an approval wait.
   */
  readonly waits: Waits;
  /** Redis coordination of several hosts (schedule fire-time claims, publish propagation); null on one host. */
  readonly cluster: Cluster | null;
  /**
   * Prometheus metrics of this instance (`GET /metrics` on a host), counted once started (a host starts
   * them); null with `metrics.enabled: false`.
   * @example
   * await weir.metrics?.start()
   * const { contentType, text } = await weir.metrics!.scrape()
   */
  readonly metrics: Metrics | null;
  /** Closes storage drivers and anything else the instance opened, newest first. */
  close(): Promise<void>;
}

/**
 * Creates a weir instance. Several can live in one process: nothing is kept at module level.
 * @example
 * import { createWeir } from 'weir'
 * const weir = await createWeir({ home: './.weir' })
 * console.log(await weir.workflows.list())
 */
export async function createWeir(options: WeirOptions = {}): Promise<Weir> {
  const { home } = options;
  const config = options.config ? checkConfig(options.config, 'createWeir options.config') : home ? loadConfig(home) : {};
  const network = createNetworkPolicy({ ...config.network, lookup: options.lookup });
  const storage = await openStorage({ home, config, ...options.storage });
  const bus = createBus();
  const triggers = [...builtinTriggers, ...(options.triggers ?? [])];
  const nodes = createNodeRegistry([...(options.nodes ?? []), ...(options.triggers ?? []).map((t) => t.node)]);
  const env = options.env ?? { ...process.env };
  const stopLogging = options.logger ? logBus(bus, options.logger) : null;
  // Managers are cheap to create, in dependency order: heavy libraries (SQLite, the sandbox, browsers) load
  // on first use.
  const cluster = createCluster({ config, bus });
  const expressions = createExpressions();
  const checks = [flowChecks({ nodes, expressions })];
  const workflows = createWorkflows({ storage, nodes, bus, checks });
  // Resume tokens and the like belong to executions: pruning an execution's record removes them.
  const waitStore = createWaitStore(storage.view('cloud', 'waits'));
  // One master key seals the secrets and the real data of records stored masked.
  const key = masterKeyOnce({ home, env });
  const executions = createExecutions({ storage, config: config.executions, linked: waitStore, key });
  const sandbox = createSandbox(config.sandbox);
  const interfaces = createInterfaces({ storage, bus });
  const blobs = { home, config, injected: !!options.storage?.cloud };
  const tables = createTables({ home, config, system: [executionsTable(executions)] });
  const kv = createKv({ storage });
  const objects = createObjects({ storage, dir: blobDir(blobs, 'objects') });
  const secrets = createSecrets({ storage, key });
  const knowledge = createKnowledge({ storage, publicBase: () => publicBase(home, config.publicUrl), dir: blobDir(blobs, 'knowledge') });
  const agents = createAgents({ storage });
  const projects = createProjects({ sources: { workflows, interfaces, agents, tables, kv }, storage, config, home, secrets, env });
  const voiceAgents = createVoiceAgents({ storage, config, workflows, secrets: () => secrets.values() });
  const capture = createCapture({ storage, workflows, bus });
  // `call_flow` runs through `run`, which needs the executor the services are given to.
  const services: NodeServices = { sandbox, expressions, awaitExecution: createAwaitExecution({ bus, executions, cancel: (id) => cancel(id) }), network, kv, tables, objects, knowledge, agents, published: { find: (ref) => runtime.index.published(ref), list: () => workflows.listPublished() }, chatModel: async () => createChatModel(config, await secrets.values()), run: (ref, input, runOptions) => run(ref, input, runOptions) };
  // Cancel requests from other processes are looked for only while runs go here (`onBusy`).
  const requests = createCancelRequests({ store: storage.view('cloud', 'executions'), probe: cloudProbe(storage, ['executions/cancel']), cluster });
  const running = createRunningExecutions({ onBusy: (busy) => cancelWatch.busy(busy) });
  const cancelWatch = requests.follow((id) => running.cancel(id) !== null);
  const tokens = createResumeTokens({ store: waitStore, base: cachedPublicBase(home, config.publicUrl) });
  const executor = createWeirExecutor({ nodes, expressions, bus, env: allowedEnv(env, config.env?.allow), executions, secrets: () => secrets.valuesNow(), services, checks, running, resumeUrl: tokens.url });
  // Records stored outside a run (queued, debounced, cancelled) are masked with the secrets of the moment.
  const masker = currentMasker(() => secrets.valuesNow());
  const runtime = createRuntime({ home, config, storage, bus, nodes, workflows, executions, capture, cluster, expressions, masker, execute: (request) => executor.run(request) });
  // Runs started by hand or by a node pass the flow's rules like deliveries; a woken execution takes a place again (a waiting one holds none).
  const run = createRun({ workflows, executor: runtime });
  const waits = createWaits({ storage, store: waitStore, tokens, executions, execute: runtime.run, limiter: runtime.limiter, bus, cluster, claim: createClaim({ cluster, home }, 'wait', WAIT_RETRY_MS) });
  // Around persistence: the config and tokens are stored before the waiting record, its wakes after it.
  executor.hooks['execution:end'].unshift(waits.hooks.prepare);
  // Before persistence too: a failed record names the error flow execution it started.
  const hasDraft = (ref: string) => workflows.getLocal(ref).then(() => true, () => false);
  const errorFlows = createErrorFlows({ published: runtime.index.published, hasDraft, dispatcher: runtime.dispatcher, limiter: runtime.limiter, bus });
  executor.hooks['execution:start'].unshift(errorFlows.start);
  executor.hooks['execution:end'].unshift(errorFlows.end);
  executor.hooks['execution:end'].push(waits.hooks.register);
  const mask = async (record: ExecutionRecord) => (await masker()).record(record);
  const metrics = config.metrics?.enabled === false ? null : createMetrics({ settings: config.metrics, bus, hooks: executor.hooks, limiter: runtime.limiter, intake: runtime.webhooks, waits, sandbox });
  const cancel = createCancel({ executions, cancelHere: (id) => running.cancel(id) ?? runtime.admission.cancel(id), requests, queue: runtime.queue, mask });
  const control = createExecutionControl({ executions, configs: executions.configs, workflows, run: runtime.run, cancel, approve: (id, decision = {}) => waits.approve(id, decision) });
  const weir: Weir = {
    home, config, storage, bus, nodes, triggers, env, network, cluster,
    workflows, executions: { ...executions, ...control }, sandbox, executor, run, interfaces, tables, kv, objects, secrets, knowledge,
    agents, projects, voiceAgents, capture,
    runtime,
    waits,
    metrics,
    executeFlow: <T>(ref: string, input?: unknown) => runtime.events.executeFlow(ref, input) as Promise<T>,
    async close() {
      await waits.stop();
      await runtime.close();
      await cancelWatch.close();
      await tables.close();
      await sandbox.close();
      await cluster?.close();
      await stopLogging?.();
      await storage.dispose();
    },
  };
  return weir;
}
