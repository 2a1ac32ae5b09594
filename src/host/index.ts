import type { Cluster } from '../cluster/index.js';
import { createClaim } from '../cluster/claims.js';
import type { Runtime } from '../runtime/index.js';
import { createFlowsWatch } from '../runtime/flows-watch.js';
import type { StopTrigger, TriggerDefinition, TriggerRuntime } from '../triggers/index.js';
import type { Workflows } from '../resources/workflows/index.js';
import type { Storages } from '../storage/index.js';
import type { Waits } from '../types/waits.js';
import type { Clock } from '../util/wake-timer.js';
import { createHandler } from './handle.js';
import { requestBody } from './request-body.js';
import { selectRoutes, type RouteDeps, type RouteGroup } from './routes/index.js';
import type { HostRequest, HostResponse } from './types.js';
import type { Authorize } from '../api/index.js';

export { createHandler } from './handle.js';
export { compileRoutes } from './router.js';
export { mediaType, splitUrl } from './body.js';
export { encodeResponse } from './encode-response.js';
export { DEFAULT_MAX_BODY, tooLarge } from './content-coding.js';
export { DEFAULT_PORT } from './serve-info.js';
export { decodeBody, requestBody } from './request-body.js';
export type { HostRequest, HostResponse, Route, RouteParams } from './types.js';
export { ROUTE_GROUPS, type RouteGroup, type RouteDeps } from './routes/index.js';
export { createMount, type Mount, type MountOptions } from './mount.js';

/** What a host uses of a weir instance (a `Weir` is one). */
export interface HostDeps extends RouteDeps {
  /** Claims of several `weir serve` on one home live under it. */
  home?: string;
  storage: Storages;
  workflows: RouteDeps['workflows'] & Pick<Workflows, 'listPublished'>;
  cluster: Pick<Cluster, 'follow' | 'claim'> | null;
  runtime: RouteDeps['runtime'] & Pick<Runtime, 'start' | 'close' | 'dispatcher'>;
  waits: RouteDeps['waits'] & Pick<Waits, 'start' | 'stop'>;
}

/** Options of {@link createHost}. */
export interface HostOptions {
  /** Start what the triggers start, schedules among them (default true); their routes answer either way. */
  schedules?: boolean;
  /** How often to look for publish/unpublish by other processes, in ms (default 1000). */
  watchMs?: number;
  /** Told about unexpected errors behind a 500 (default: written to stderr). */
  onError?(err: unknown): void;
  clock?: Clock;
  /**
   * The route groups this host answers (default: all). An app with its own `/healthz` leaves out
   * `'healthz'`; paths of the other groups are not the host's (`owns` is false, `handle` answers 404).
   */
  routes?: RouteGroup[];
  /** Request body limit in bytes (default 1 MiB); a compressed body is held to it once decoded as well. */
  maxBody?: number;
  /**
   * Told whenever the published flows may have changed: a publish, unpublish or sync on this bus (or, with a
   * cluster, another host's), or another process's write seen by the storage probe. Called again and again
   * while a change settles; compare versions to tell what changed.
   */
  onFlowsChanged?(): void;
  /**
   * Decides who may use the management API (`/api/v1`), the Studio and `/mcp` in place of the host access token: true lets the
   * request in, false answers 403; throw `new WeirError('UNAUTHORIZED', ...)` to answer 401 (docs/api.md).
   */
  authorize?: Authorize;
}

/** A transport-free host: the router plus the lifecycle of everything that runs behind it. */
export interface Host {
  handle(req: HostRequest): Promise<HostResponse>;
  /** True when a route answers this method and path (an embedding app passes the others on). */
  owns(method: string, path: string): boolean;
  /** Replays unfinished deliveries, starts the triggers (schedules) and the waits; resolves with the number replayed. */
  start(): Promise<{ replayed: number }>;
  /** Stops the triggers and waits for every execution in flight. */
  close(): Promise<void>;
  /** What each started trigger returned, by its node type (how to stop it, and what it shows of itself). */
  readonly triggers: ReadonlyMap<string, StopTrigger>;
}

/**
 * Creates the host core that adapters (adapters/node-http) put behind a transport. Publish, unpublish and
 * delete are picked up without a restart: at once from this process's bus (and, with a cluster, from other
 * hosts'), and from other processes through a cheap storage probe every `watchMs`.
 * @example
 * const host = createHost(weir) // or any object with the parts of weir it uses
 * await host.start()
 * const res = await host.handle({ method: 'GET', path: '/healthz', query: {}, headers: {}, rawBody: Buffer.alloc(0) })
 * await host.close()
 */
export function createHost(weir: HostDeps, options: HostOptions = {}): Host {
  const onError = options.onError ?? ((err: unknown) => process.stderr.write(`weir: ${(err as Error)?.stack ?? err}\n`));
  const watch = createFlowsWatch({ bus: weir.bus, storage: weir.storage, watchMs: options.watchMs });
  const claim = createClaim(weir, 'schedule');
  const runtimeOf = (trigger: TriggerDefinition): TriggerRuntime => ({
    config: weir.config,
    dispatcher: weir.runtime.dispatcher,
    published: async () => (await weir.workflows.listPublished()).filter((f) => f.config.nodes.some((n) => n.type === trigger.node.type)),
    bus: weir.bus,
    storage: weir.storage,
    claim,
    onFlowsChanged: watch.on,
    decode: requestBody,
    runtime: weir.runtime,
    voiceAgents: weir.voiceAgents,
    clock: options.clock,
    onError,
  });
  const runtimes = new Map(weir.triggers.map((t) => [t, runtimeOf(t)]));
  const handler = createHandler(selectRoutes(weir, runtimes, options.routes, { authorize: options.authorize }), { onError });
  const started = new Map<string, StopTrigger>();

  return {
    handle(req) {
      if (options.maxBody !== undefined) req.maxBody ??= options.maxBody;
      return handler(req);
    },
    owns: handler.owns,
    async start() {
      // Other hosts' publish/unpublish events reach this bus (the triggers follow them at once).
      await weir.cluster?.follow();
      // Counting starts before the replayed deliveries run.
      await weir.metrics?.start();
      const replayed = await weir.runtime.start();
      // The wake index loads in the background: listening does not wait for a hundred thousand waits.
      void weir.waits.start().catch(onError);
      if (options.schedules !== false) {
        for (const [trigger, runtime] of runtimes) if (trigger.start) started.set(trigger.node.type, await trigger.start(runtime));
      }
      if (options.onFlowsChanged) watch.on(options.onFlowsChanged);
      return { replayed };
    },
    async close() {
      watch.stop();
      for (const stop of started.values()) await stop();
      started.clear();
      await weir.waits.stop();
      await weir.runtime.close();
    },
    triggers: started,
  };
}
