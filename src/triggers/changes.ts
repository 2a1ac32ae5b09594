import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Storages } from '../storage/index.js';

/**
 * Tells whether watched storage prefixes changed. `signature()` returns a string that stays equal while
 * nothing changed, or null when this storage cannot tell cheaply (callers then read through, uncached).
 * A Redis deployment can plug in a pub/sub-fed probe with the same shape.
 */
export interface ChangeProbe {
  signature(): Promise<string | null>;
}

/** File timestamps are coarse (a clock tick); a directory changed this recently is not trusted yet. */
const SETTLE_NS = 1_000_000_000n;

/**
 * A probe over directories of the embedded fs driver: any create, replace (atomic rename) or delete of a
 * record changes its directory's mtime. One `stat` per directory answers "did anything change?", so a
 * host can cache published flows and still see another process's `publish` on the very next request.
 * Within a second of a change the timestamp may not have moved for a second write in the same clock tick,
 * so a recent mtime yields a fresh signature every time (callers reload until it settles).
 * @example
 * const probe = fsProbe(['/srv/weir/cloud/workflows'])
 * const before = await probe.signature()
 */
export function fsProbe(dirs: string[]): ChangeProbe {
  let unsettled = 0;
  return {
    async signature() {
      const now = BigInt(Date.now()) * 1_000_000n;
      const parts = await Promise.all(
        dirs.map(async (dir) => {
          try {
            const s = await stat(dir, { bigint: true });
            return now - s.mtimeNs < SETTLE_NS ? `~${++unsettled}` : String(s.mtimeNs);
          } catch {
            return '-';
          }
        }),
      );
      return parts.join(':');
    },
  };
}

/** A probe that cannot tell: every read goes to storage. */
export const noProbe: ChangeProbe = { signature: async () => null };

/**
 * The probe for prefixes of the `cloud` mount: the fs probe when the mount is weir's own fs driver,
 * else none (read through).
 * @example
 * const probe = cloudProbe(weir.storage, ['workflows', 'webhook-tokens'])
 */
export function cloudProbe(storage: Storages, prefixes: string[]): ChangeProbe {
  const driver = storage.cloud.getMount('').driver as { name?: string; options?: { base?: string } };
  if (driver.name !== 'weir-fs' || !driver.options?.base) return noProbe;
  return fsProbe(prefixes.map((p) => join(driver.options!.base!, p)));
}

/**
 * Turns a probe into generations. `check()` resolves once a probe that started after the call has
 * finished, with the generation number of the data as it is now (it grows on every change), or null when
 * the probe cannot tell. Concurrent calls share probes: at most one runs and one waits.
 * @example
 * const gen = await fresh.check(); if (gen !== cachedGen) reload()
 */
export function createFreshness(probe: ChangeProbe): { check(): Promise<number | null> } {
  let generation = 0;
  let last: string | null = null;
  let running: Promise<number | null> | null = null;
  let queued: Promise<number | null> | null = null;

  const start = (): Promise<number | null> => {
    queued = null;
    running = probe
      .signature()
      .then((sig) => {
        if (sig === null || sig !== last) generation++;
        last = sig;
        return sig === null ? null : generation;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };

  return {
    check() {
      if (!running) return start();
      queued ??= running.then(start, start);
      return queued;
    },
  };
}
