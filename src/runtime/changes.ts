import { statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { WeirBus } from '../events.js';
import type { Storages } from '../storage/index.js';

/**
 * Tells whether watched storage prefixes changed. `signature()` returns a string that stays equal while
 * nothing changed, or null when this storage cannot tell cheaply (callers then read through, uncached).
 * It is synchronous so the hot path pays no round trip; a Redis deployment can plug in a probe fed by
 * pub/sub (a counter bumped per message) with the same shape.
 */
export interface ChangeProbe {
  signature(): string | null;
}

/** File timestamps are coarse (a clock tick); a directory changed this recently is not trusted yet. */
const SETTLE_MS = 1000;
/** One stat round serves every request handled within this long (they all arrived before it ran). */
const REUSE_MS = 1;

/**
 * A probe over directories of the embedded fs driver: any create, replace (atomic rename) or delete of a
 * record changes its directory's mtime, so one `stat` per directory answers "did anything change?" and a
 * host can cache published flows yet see another process's `publish` on the very next request.
 * Within a second of a change the timestamp may not have moved for a second write in the same clock tick,
 * so a recent mtime yields a fresh signature every time (callers reload until it settles).
 * @example
 * const probe = fsProbe(['/srv/weir/cloud/workflows'])
 * const before = probe.signature()
 */
export function fsProbe(dirs: string[]): ChangeProbe {
  let unsettled = 0;
  let memo: string | null = null;
  let memoAt = -Infinity;
  const one = (dir: string, now: number): string => {
    const s = statSync(dir, { throwIfNoEntry: false });
    if (!s) return '-';
    return now - s.mtimeMs < SETTLE_MS ? `~${++unsettled}` : String(s.mtimeMs);
  };
  return {
    signature() {
      const t = performance.now();
      if (memo !== null && t - memoAt < REUSE_MS) return memo;
      const now = Date.now();
      memo = dirs.map((d) => one(d, now)).join(':');
      memoAt = t;
      return memo;
    },
  };
}

/** A probe that cannot tell: every read goes to storage. */
export const noProbe: ChangeProbe = { signature: () => null };

/** What changes the flow caches: writes of this process, and (through the cluster) publish/unpublish and capture of others. */
const CACHE_EVENTS = ['workflow:created', 'workflow:saved', 'workflow:published', 'workflow:deleted', 'workflow:synced', 'webhook:capture'] as const;

/**
 * A probe fed by the event bus, for storage whose changes cannot be seen locally (Redis): the signature
 * moves on every change event (this process's writes, and the publish/unpublish/capture events a cluster
 * re-emits from other hosts) and at least every `maxAgeMs`, so a change no event announced (a message lost
 * while Redis reconnected) is seen within that time.
 * @example
 * const probe = eventProbe(weir.bus)
 */
export function eventProbe(bus: WeirBus, maxAgeMs = 1000): ChangeProbe {
  let changes = 0;
  for (const event of CACHE_EVENTS) bus.on(event, () => void changes++);
  return { signature: () => `${changes}:${Math.floor(performance.now() / maxAgeMs)}` };
}

/**
 * The probe for prefixes of the `cloud` mount: the fs probe when the mount is weir's own fs driver,
 * else none (read through).
 * @example
 * const probe = cloudProbe(weir.storage, ['workflows', 'webhook-tokens'])
 */
export function cloudProbe(storage: Storages, prefixes: string[]): ChangeProbe {
  const dir = storage.dir('cloud');
  return dir ? fsProbe(prefixes.map((p) => join(dir, p))) : noProbe;
}

/**
 * Turns a probe into generations: `check()` returns a number that grows on every change, or null when
 * the probe cannot tell.
 * @example
 * const gen = fresh.check(); if (gen !== cachedGen) reload()
 */
export function createFreshness(probe: ChangeProbe): { check(): number | null } {
  let generation = 0;
  let last: string | null = null;
  return {
    check() {
      const sig = probe.signature();
      if (sig === null || sig !== last) generation++;
      last = sig;
      return sig === null ? null : generation;
    },
  };
}
