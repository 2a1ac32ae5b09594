import { loadConfig, type WeirConfig } from './config.js';
import { createBus, type WeirBus } from './events.js';
import { createNodeRegistry, type NodeDefinition, type NodeRegistry } from './nodes/index.js';
import { createWorkflows, type Workflows } from './resources/workflows/index.js';
import { openStorage, type Storage, type Storages } from './storage/index.js';

/** Options of {@link createWeir}. Give a `home` for files on disk, or `storage` instances (memory when neither). */
export interface WeirOptions {
  /** Directory holding all state (`weir.config.json`, the fs mounts, databases). */
  home?: string;
  /** Configuration; read from `<home>/weir.config.json` when omitted. */
  config?: WeirConfig;
  /** Ready-made unstorage instances for the mounts (e.g. memory in tests). */
  storage?: { local?: Storage; cloud?: Storage };
  /** Custom node types added to the built-in ones. */
  nodes?: NodeDefinition<any>[];
  /** Environment visible to flows through `$env` (default: `process.env`, filtered by `config.env.allow`). */
  env?: Record<string, string | undefined>;
}

/** A weir instance: storage, event bus, node registry and the resource managers. */
export interface Weir {
  home?: string;
  config: WeirConfig;
  storage: Storages;
  bus: WeirBus;
  nodes: NodeRegistry;
  env: Record<string, string | undefined>;
  workflows: Workflows;
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
  const config = options.config ?? (options.home ? loadConfig(options.home) : {});
  const storage = await openStorage({ home: options.home, config, ...options.storage });
  const bus = createBus();
  const nodes = createNodeRegistry(options.nodes);
  const closers: Array<() => Promise<void> | void> = [() => storage.dispose()];
  const weir = {
    home: options.home,
    config,
    storage,
    bus,
    nodes,
    env: options.env ?? { ...process.env },
    async close() {
      for (const close of closers.reverse()) await close();
    },
  } as Weir;
  // Each subsystem attaches itself here, one line each, in dependency order. Managers are cheap to create:
  // heavy libraries (SQLite, the sandbox, browsers) load on first use.
  weir.workflows = createWorkflows({ storage, nodes, bus });
  return weir;
}
