import type { LookupFunction } from 'node:net';
import { checkConfig, loadConfig, type WeirConfig } from './config.js';
import { createBus, type WeirBus } from './events.js';
import { createNodeRegistry, type NodeDefinition, type NodeRegistry } from './nodes/index.js';
import { createWorkflows, type Workflows } from './resources/workflows/index.js';
import { createExpressions } from './expr/index.js';
import { createRunner, createWeirExecutor, flowChecks, type ExecutionRecord, type Executor, type WeirRunOptions } from './flow/index.js';
import { createExecutions, type Executions } from './resources/executions/index.js';
import { createSandbox, type Sandbox } from './sandbox/index.js';
import { createInterfaces, type Interfaces } from './resources/interfaces/index.js';
import { createAgents, type Agents } from './resources/agents/index.js';
import { createKnowledge, type Knowledge } from './resources/knowledge/index.js';
import { createKv, type Kv } from './resources/kv/index.js';
import { blobDir, createObjects, type Objects } from './resources/objects/index.js';
import { createSecrets, type Secrets } from './resources/secrets/index.js';
import { createTables, executionsTable, type Tables } from './resources/tables/index.js';
import { createProjects, type Projects } from './resources/projects/index.js';
import { createVoiceAgents, type VoiceAgents } from './resources/voice-agents/index.js';
import { openStorage, type KeyValueStorage, type Storages } from './storage/index.js';
import { createCluster, type Cluster } from './cluster/index.js';
import type { ExecutionQueue } from './queue/index.js';
import { createNetworkPolicy, type NetworkPolicy } from './util/network.js';
import { createCapture, type Capture } from './intake/capture.js';
import { createIntake, type Intake } from './intake/intake.js';
import { logBus } from './logging/bus-log.js';
import type { WeirLogger } from './logging/logger.js';

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

/** A weir instance: storage, event bus, node registry and the resource managers. */
export interface Weir {
  home?: string;
  config: WeirConfig;
  storage: Storages;
  bus: WeirBus;
  nodes: NodeRegistry;
  env: Record<string, string | undefined>;
  /** Which addresses outgoing requests may reach (`network` in `weir.config.json`). */
  network: NetworkPolicy;
  workflows: Workflows;
  /** Execution records (`cloud:executions`): `list({ workflowId, limit })` newest first, `get(id)`. */
  executions: Executions;
  /** The flow executor (`executor.run({ workflow, input, trigger })`) and its lifecycle hooks. */
  executor: Executor;
  /** Runs a workflow by id or name: the local draft, or the published copy with `{ published: true }`. */
  run(ref: string, input?: unknown, options?: WeirRunOptions): Promise<ExecutionRecord>;
  /** The isolated JavaScript sandbox of Code nodes (QuickJS, loaded on first use). */
  sandbox: Sandbox;
  interfaces: Interfaces;
  /** SQL tables (`user.*`, SQLite under the home by default) and read-only system tables. */
  tables: Tables;
  /** KV namespaces of string values. */
  kv: Kv;
  /** Key-addressed object storage (streamed files under the home on the fs driver). */
  objects: Objects;
  /** Organization secrets, AES-256-GCM at rest; `values()` feeds `$env`. */
  secrets: Secrets;
  /** Knowledge base: folders, documents, public URLs, full-text search. */
  knowledge: Knowledge;
  /** AI agents: built-in (read-only) and custom. */
  agents: Agents;
  projects: Projects;
  /** Voice agents, phone numbers and inbound calls/SMS (providers.voice, Twilio). */
  voiceAgents: VoiceAgents;
  /** Webhook capture sessions (`webhook-listen/poll/accept/decline`). */
  capture: Capture;
  /** Webhook intake, interface events and the execution runner that hosts share. */
  intake: Intake;
  /**
   * Runs a published flow for a server-side caller, input checked against its `inputParams`; resolves to its
   * result, typed as the caller says it is (`T` is not checked at run time).
   * @example
   * const { greeting } = await weir.executeFlow<{ greeting: string }>('hello', { name: 'Ada' })
   */
  executeFlow<T = unknown>(nameOrId: string, input?: unknown): Promise<T>;
  /** Redis coordination of several hosts (schedule slot claims, publish propagation); null on one host. */
  cluster: Cluster | null;
  /** Set by `weir serve` when `queue` is configured: triggers enqueue executions instead of running them here. */
  queue?: ExecutionQueue;
  /** Closes storage drivers and anything else the instance opened. */
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
  const config = options.config ? checkConfig(options.config, 'createWeir options.config') : options.home ? loadConfig(options.home) : {};
  const network = createNetworkPolicy({ ...config.network, lookup: options.lookup });
  const storage = await openStorage({ home: options.home, config, ...options.storage });
  const bus = createBus();
  const nodes = createNodeRegistry(options.nodes);
  const closers: Array<() => Promise<void> | void> = [() => storage.dispose()];
  if (options.logger) closers.push(logBus(bus, options.logger));
  const weir = {
    home: options.home,
    config,
    storage,
    bus,
    nodes,
    env: options.env ?? { ...process.env },
    network,
    async close() {
      for (const close of closers.reverse()) await close();
    },
  } as Weir;
  // Each subsystem attaches itself here, one line each, in dependency order. Managers are cheap to create:
  // heavy libraries (SQLite, the sandbox, browsers) load on first use.
  weir.cluster = createCluster({ config, bus });
  closers.push(() => weir.cluster?.close());
  const expressions = createExpressions();
  const flowConfigChecks = [flowChecks({ nodes, expressions })];
  weir.workflows = createWorkflows({ storage, nodes, bus, checks: flowConfigChecks });
  weir.executions = createExecutions({ storage, config: config.executions });
  weir.sandbox = createSandbox(config.sandbox);
  closers.push(() => weir.sandbox.close());
  weir.executor = createWeirExecutor(weir, expressions, flowConfigChecks);
  weir.run = createRunner(weir);
  weir.interfaces = createInterfaces({ storage, bus });
  const blobs = { home: options.home, config, injected: !!options.storage?.cloud };
  weir.tables = createTables({ home: options.home, config, system: [executionsTable(weir)] });
  closers.push(() => weir.tables.close());
  weir.kv = createKv({ storage });
  weir.objects = createObjects({ storage, dir: blobDir(blobs, 'objects') });
  weir.secrets = createSecrets({ storage, home: options.home, env: weir.env });
  weir.knowledge = createKnowledge({ storage, config, home: options.home, dir: blobDir(blobs, 'knowledge') });
  weir.agents = createAgents({ storage });
  weir.projects = createProjects({ weir });
  weir.voiceAgents = createVoiceAgents({ storage, config, workflows: weir.workflows, secrets: () => weir.secrets.values() });
  weir.capture = createCapture({ storage, workflows: weir.workflows, bus });
  weir.intake = createIntake({
    home: options.home,
    config,
    storage,
    bus,
    nodes,
    workflows: weir.workflows,
    executions: weir.executions,
    capture: weir.capture,
    cluster: weir.cluster,
    execute: (request) => weir.executor.run(request),
  });
  weir.executeFlow = <T>(ref: string, input?: unknown) => weir.intake.events.executeFlow(ref, input) as Promise<T>;
  closers.push(() => weir.intake.close());
  return weir;
}
