import type { WeirBus } from '../events.js';
import type { Storages } from '../storage/index.js';
import { cloudProbe, createFreshness } from './changes.js';

/** What {@link createFlowsWatch} returns. */
export interface FlowsWatch {
  /** Tells `listener` whenever the published flows may have changed; returns how to stop telling it. */
  on(listener: () => void): () => void;
  /** Stops watching and forgets every listener. */
  stop(): void;
}

/**
 * Follows changes of the published flows: at once from this bus (and, with a cluster, other hosts'), and
 * from other processes through a cheap storage probe every `watchMs` (re-read every tenth tick where the
 * storage has no probe). Nothing runs until the first listener.
 * @example
 * const watch = createFlowsWatch({ bus, storage })
 * const off = watch.on(() => scheduler.sync())
 */
export function createFlowsWatch(options: { bus: WeirBus; storage: Storages; watchMs?: number }): FlowsWatch {
  const listeners = new Set<() => void>();
  const stops: Array<() => void> = [];
  const changed = (): void => listeners.forEach((listener) => listener());

  function watch(): void {
    const events = ['workflow:published', 'workflow:deleted', 'workflow:synced'] as const;
    for (const e of events) options.bus.on(e, changed);
    stops.push(() => events.forEach((e) => options.bus.off(e, changed)));
    const fresh = createFreshness(cloudProbe(options.storage, ['workflows']));
    let seen: number | null = null;
    let polls = 0;
    const timer = setInterval(() => {
      const gen = fresh.check();
      if (gen === null ? ++polls % 10 === 0 : gen !== seen) changed();
      seen = gen;
    }, options.watchMs ?? 1000);
    timer.unref();
    stops.push(() => clearInterval(timer));
  }

  return {
    on(listener) {
      if (stops.length === 0) watch();
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stops.splice(0).forEach((stop) => stop());
      listeners.clear();
    },
  };
}
