import { WeirError, createHost, errorResponse, type Host, type HostDeps, type HostOptions } from '../../src/internal.js';

/** What each adapter's handler carries: its host and how it starts and stops. */
export interface HostLifecycle {
  host: Host;
  /** Settles once the host started (deliveries replayed, schedules armed). */
  ready: Promise<void>;
  /**
   * Refuses new requests (503), answers 503 to those still sending their body, waits for those being
   * handled and every execution, then stops the host.
   */
  close(): Promise<void>;
}

/** What {@link createLifecycle} returns to the adapter. */
export interface Lifecycle extends HostLifecycle {
  /** True once the host started: a request then skips awaiting `ready`. */
  readonly started: boolean;
  /** True once `close()` began: new requests get {@link shuttingDown}, answers close their connection. */
  readonly closing: boolean;
  /** Aborted by `close()`: bodies still arriving then get 503 instead of holding the shutdown. */
  readonly stopReading: AbortSignal;
  /** Counts a request as being handled until `handling` settles; `close()` waits for every one. */
  track<T>(handling: Promise<T>): Promise<T>;
}

/** The answer to a request that arrives once the host is shutting down. */
export const shuttingDown = () => errorResponse(new WeirError('UNAVAILABLE', 'the host is shutting down'));

/**
 * Starts the host (`options.host`, else one made here) and keeps the count of requests in flight, so that
 * both adapters shut down the same way: refuse new requests, cut short bodies still arriving, wait for those
 * being handled, then close the host (which waits for every execution).
 * @example
 * const life = createLifecycle(weir, options)
 * if (life.closing) return send(shuttingDown())
 * void life.track(serveOne(req, res))
 */
export function createLifecycle(weir: HostDeps, options: HostOptions & { host?: Host }): Lifecycle {
  const host = options.host ?? createHost(weir, options);
  let started = false;
  const ready = host.start().then(() => {
    started = true;
  });
  ready.catch(() => {}); // reported through `ready` to whoever awaits it; requests then fail one by one
  let active = 0;
  let closing = false;
  const idle: Array<() => void> = [];
  const reading = new AbortController();
  const finished = () => {
    if (--active === 0 && idle.length) idle.splice(0).forEach((f) => f());
  };

  return {
    host,
    ready,
    get started() {
      return started;
    },
    get closing() {
      return closing;
    },
    stopReading: reading.signal,
    track(handling) {
      active++;
      return handling.finally(finished);
    },
    async close() {
      closing = true;
      reading.abort();
      if (active) await new Promise<void>((r) => idle.push(r));
      await host.close();
    },
  };
}
