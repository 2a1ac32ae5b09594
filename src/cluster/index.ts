import type { Redis } from 'ioredis';
import type { WeirConfig } from '../config.js';
import type { WeirBus } from '../events.js';
import { newId } from '../util/ids.js';
import { emitSafely } from '../flow/bus-emit.js';
import { loadOptional } from '../util/optional.js';
import { broadcastEvents, followEvents } from './propagate.js';
import type { Cluster } from './types.js';

export type { Cluster };

/**
 * The Redis URL the cluster coordinates through: `queue.url`, else a Redis `cloud` storage mount, else
 * `cluster.url`. Null for a single-host setup.
 */
export function clusterSettings(config: WeirConfig): { url: string; prefix: string } | null {
  const cloud = config.storage?.cloud;
  const cloudRedis = cloud?.driver === 'redis' && typeof cloud.url === 'string' ? cloud.url : undefined;
  const extra = config.cluster;
  const url = config.queue?.url ?? cloudRedis ?? extra?.url;
  if (!url) return null;
  const prefix = config.queue?.prefix ?? extra?.prefix ?? (typeof cloud?.base === 'string' && cloud.base ? cloud.base : 'weir');
  return { url, prefix };
}

/**
 * Opens nothing yet: returns the cluster of a config with Redis in it, or null. Publish/unpublish events
 * of `bus` are broadcast to the other processes from the start (a CLI `publish` reaches running hosts).
 * @example
 * const cluster = createCluster({ config: weir.config, bus: weir.bus })
 * if (cluster && (await cluster.claim(`schedule:${id}:${fireTime}`, 600_000))) await run()
 */
export function createCluster({ config, bus }: { config: WeirConfig; bus: WeirBus }): Cluster | null {
  const settings = clusterSettings(config);
  if (!settings) return null;
  const { url, prefix } = settings;
  const key = (name: string) => `${prefix}:${name}`;
  let command: Promise<Redis> | undefined;
  let subscriber: Promise<Redis> | undefined;
  const handlers = new Map<string, Set<(message: any) => void>>();
  const resumers = new Set<() => void>();

  // Connections that failed and are not back yet.
  const down = new Set<Redis>();

  /**
   * A connection that ioredis reconnects on its own: a lost one is told on the bus once (not at each retry),
   * and `back` is called each time it is ready again after the first.
   */
  const open = async (connection: 'command' | 'subscriber', back?: (r: Redis) => void): Promise<Redis> => {
    const { Redis } = await loadOptional('ioredis', 'Sharing work between hosts through Redis', () => import('ioredis'));
    // Named for `CLIENT LIST`: which host's which connection.
    const r = new Redis(url, { maxRetriesPerRequest: null, enableAutoPipelining: true, connectionName: `weir:${cluster.nodeId}:${connection}` });
    let readyBefore = false;
    r.on('error', (error: unknown) => {
      if (down.has(r)) return;
      down.add(r);
      emitSafely(bus, 'cluster:error', { connection, error });
    });
    r.on('ready', () => {
      down.delete(r);
      if (readyBefore) back?.(r);
      readyBefore = true;
    });
    return r;
  };
  const redis = () => (command ??= open('command'));
  // Messages published while the subscriber was away are lost: once its subscriptions are confirmed again (the
  // PING answers after the SUBSCRIBE ioredis sends on reconnect), each listener is told to make up for them.
  const resubscribed = (r: Redis) => void r.ping().then(() => resumers.forEach((resumed) => resumed()), () => {});
  const sub = () =>
    (subscriber ??= open('subscriber', resubscribed).then((r) => {
      r.on('message', (channel: string, text: string) => {
        const set = handlers.get(channel);
        if (!set) return;
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          return;
        }
        for (const handle of set) handle(message);
      });
      return r;
    }));

  // Payloads that came from another process, so they are not broadcast back.
  const received = new WeakSet<object>();
  let following: Promise<unknown> | undefined;
  const cluster: Cluster = {
    url,
    prefix,
    nodeId: newId('node'),
    async claim(name, ttlMs) {
      return (await (await redis()).set(key(name), '1', 'PX', Math.max(1, Math.round(ttlMs)), 'NX')) === 'OK';
    },
    async publish(channel, message) {
      await (await redis()).publish(key(channel), JSON.stringify(message));
    },
    async subscribe(channel, handler, resumed) {
      const name = key(channel);
      const r = await sub();
      let set = handlers.get(name);
      if (!set) {
        handlers.set(name, (set = new Set()));
        await r.subscribe(name);
      }
      set.add(handler);
      if (resumed) resumers.add(resumed);
      return async () => {
        set!.delete(handler);
        if (resumed) resumers.delete(resumed);
        if (set!.size || handlers.get(name) !== set) return;
        handlers.delete(name);
        await r.unsubscribe(name);
      };
    },
    async follow() {
      await (following ??= followEvents(cluster, bus, received));
    },
    async close() {
      const opened = await Promise.all([command, subscriber].filter(Boolean) as Promise<Redis>[]);
      // A connection that is down would keep the broadcasts in flight (and its QUIT) waiting for Redis: it is
      // dropped at once, which fails them.
      for (const r of opened) if (down.has(r)) r.disconnect();
      await flush();
      command = subscriber = undefined;
      handlers.clear();
      resumers.clear();
      await Promise.all(opened.map((r) => (down.has(r) ? undefined : r.quit().catch(() => {}))));
    },
  };
  const flush = broadcastEvents(cluster, bus, received);
  return cluster;
}
