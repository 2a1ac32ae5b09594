import type { WeirBus } from '../events.js';
import type { Cluster } from './types.js';

/** Bus events that change what a host serves; every host of the cluster re-emits them locally. */
export const PROPAGATED_EVENTS = ['workflow:published', 'workflow:deleted', 'webhook:capture'] as const;

const CHANNEL = 'events';

interface Envelope {
  origin: string;
  event: string;
  payload: unknown;
}

/**
 * Sends this process's publish/unpublish events to every host (a CLI `publish` included). Payloads that
 * arrived from another host are not sent back. Returns a flush that waits for sends in flight (so a CLI
 * process can exit without dropping one).
 * @example
 * const flush = broadcastEvents(cluster, bus, received)
 * await flush()
 */
export function broadcastEvents(cluster: Cluster, bus: WeirBus, received: WeakSet<object>): () => Promise<void> {
  const pending = new Set<Promise<void>>();
  for (const event of PROPAGATED_EVENTS) {
    bus.on(event, (payload) => {
      if (received.has(payload as object)) return;
      const envelope: Envelope = { origin: cluster.nodeId, event, payload };
      // A failed broadcast must not fail the publish: other hosts still read the new state on their next
      // request, only their cached views (schedules) wait for the next propagated event.
      const sent = cluster.publish(CHANNEL, envelope).catch(() => {});
      pending.add(sent);
      void sent.finally(() => pending.delete(sent));
    });
  }
  return async () => {
    await Promise.all(pending);
  };
}

/**
 * Re-emits on the local bus the events other hosts broadcast, so whatever reloads on a local publish
 * (schedules, caches) reloads on a remote one too.
 * @example
 * const stop = await followEvents(cluster, bus, received)
 */
export function followEvents(cluster: Cluster, bus: WeirBus, received: WeakSet<object>): Promise<() => Promise<void>> {
  return cluster.subscribe(CHANNEL, (message: Envelope) => {
    if (!message || message.origin === cluster.nodeId) return;
    if (!(PROPAGATED_EVENTS as readonly string[]).includes(message.event)) return;
    const payload = message.payload && typeof message.payload === 'object' ? message.payload : {};
    received.add(payload);
    bus.emit(message.event, payload);
  });
}
