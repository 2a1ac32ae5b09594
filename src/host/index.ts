import type { Cluster } from '../cluster/index.js';
import { slotClaim } from '../cluster/slots.js';
import type { Runtime } from '../runtime/index.js';
import { cloudProbe, createFreshness } from '../runtime/changes.js';
import { createScheduler, type Clock, type Scheduler } from '../triggers/schedule/scheduler.js';
import type { Workflows } from '../resources/workflows/index.js';
import type { Storages } from '../storage/index.js';
import type { Waits } from '../types/waits.js';
import { createHandler } from './handle.js';
import { selectRoutes, type RouteDeps, type RouteGroup } from './routes/index.js';
import type { HostRequest, HostResponse } from './types.js';

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
  /** Schedule slot claims of several `weir serve` on one home live under it. */
  home?: string;
  storage: Storages;
  workflows: Pick<Workflows, 'listPublished'>;
  cluster: Pick<Cluster, 'follow' | 'claim'> | null;
  runtime: RouteDeps['runtime'] & Pick<Runtime, 'start' | 'close'>;
  waits: RouteDeps['waits'] & Pick<Waits, 'start' | 'stop'>;
}

/** Options of {@link createHost}. */
export interface HostOptions {
  /** Run schedule triggers (default true). */
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
}

/** A transport-free host: the router plus the lifecycle of everything that runs behind it. */
export interface Host {
  handle(req: HostRequest): Promise<HostResponse>;
  /** True when a route answers this method and path (an embedding app passes the others on). */
  owns(method: string, path: string): boolean;
  /** Replays unfinished deliveries, starts the schedules and the waits; resolves with the number replayed. */
  start(): Promise<{ replayed: number }>;
  /** Stops the schedules and waits for every execution in flight. */
  close(): Promise<void>;
  scheduler: Scheduler | null;
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
  const handler = createHandler(selectRoutes(weir, options.routes), { onError });
  const { dispatcher } = weir.runtime;
  const scheduler =
    options.schedules === false
      ? null
      : createScheduler({
          storage: weir.storage,
          bus: weir.bus,
          workflows: weir.workflows,
          clock: options.clock,
          claim: slotClaim(weir),
          fire: (flow, input) => dispatcher.run({ flow, input, trigger: 'schedule', background: true }),
        });
  const stops: Array<() => void> = [];

  /** Runs scheduler syncs one at a time; a request during a sync runs one more afterwards. */
  let syncing: Promise<void> | null = null;
  let again = false;
  const sync = (): void => {
    if (!scheduler) return;
    if (syncing) {
      again = true;
      return;
    }
    syncing = scheduler
      .sync()
      .catch(onError)
      .finally(() => {
        syncing = null;
        if (again) {
          again = false;
          sync();
        }
      });
  };

  /** The schedules and whoever asked to be told follow every change the watch sees. */
  const changed = (): void => {
    options.onFlowsChanged?.();
    sync();
  };

  function watch(): void {
    const events = ['workflow:published', 'workflow:deleted', 'workflow:synced'] as const;
    for (const e of events) weir.bus.on(e, changed);
    stops.push(() => events.forEach((e) => weir.bus.off(e, changed)));
    const fresh = createFreshness(cloudProbe(weir.storage, ['workflows']));
    let seen: number | null = null;
    let polls = 0;
    const timer = setInterval(() => {
      const gen = fresh.check();
      // Without a probe (non-fs storage) re-read every tenth tick; cluster hosts also get bus events.
      if (gen === null ? ++polls % 10 === 0 : gen !== seen) changed();
      seen = gen;
    }, options.watchMs ?? 1000);
    timer.unref();
    stops.push(() => clearInterval(timer));
  }

  return {
    handle(req) {
      if (options.maxBody !== undefined) req.maxBody ??= options.maxBody;
      return handler(req);
    },
    owns: handler.owns,
    async start() {
      // Other hosts' publish/unpublish events reach this bus (schedules re-sync at once).
      await weir.cluster?.follow();
      const replayed = await weir.runtime.start();
      // The wake index loads in the background: listening does not wait for a hundred thousand waits.
      void weir.waits.start().catch(onError);
      await scheduler?.sync();
      if (scheduler || options.onFlowsChanged) watch();
      return { replayed };
    },
    async close() {
      stops.forEach((stop) => stop());
      scheduler?.stop();
      await syncing;
      await weir.waits.stop();
      await weir.runtime.close();
    },
    scheduler,
  };
}
