import { createHost, type Host, type HostDeps, type HostOptions } from '../host/index.js';

/**
 * The host core of a `--role worker` process: schedules and cluster events as on any host, but no intake.
 * Put behind HTTP (`--port`), it answers `/healthz` only.
 * @example
 * const host = workerHost(weir, { onError })
 * await host.start()
 */
export function workerHost(weir: HostDeps, options: HostOptions = {}): Host {
  return createHost(weir, { ...options, routes: ['healthz'] });
}
