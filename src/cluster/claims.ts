import { join } from 'node:path';
import type { Cluster } from './index.js';
import { fileClaims } from './file-claims.js';

/** How long a claim is kept: far beyond any clock skew between hosts, short enough to leave no litter. */
export const CLAIM_TTL_MS = 60 * 60 * 1000;

/** What a claim is for: a schedule's fire time, resuming a dead process's execution, waking a wait. */
export type ClaimKind = 'schedule' | 'resume' | 'wait';

/** Where claims can be shared: the cluster (Redis), else the home. */
export interface ClaimPlace {
  cluster: Pick<Cluster, 'claim'> | null;
  home?: string;
}

/** Claims `name` at time `at` for this host alone; false when another host has it. */
export type Claim = (name: string, at: number) => Promise<boolean>;

/** Where the claims of a kind live on a home (shared by every `weir serve` on it). */
export const claimDir = (home: string, kind: ClaimKind = 'schedule') => join(home, 'run', `${kind}-claims`);

/**
 * The one claim mechanism of hosts sharing a cluster or a home: exactly one host gets each `(name, at)`.
 * With a cluster, `SET NX PX` on `<kind>:<name>` in Redis (a schedule's key also carries the fire time: each
 * one is claimed anew) held `redisTtlMs` (default an hour; a wait's is its retry time, after which a host
 * that took it and died is replaced); on a home, an exclusively created file per name and time under
 * `<home>/run/<kind>-claims`. A host that dies simply stops claiming: the others go on with the next time.
 * Undefined when nothing else can share this weir's storage (every claim is this host's).
 * @example
 * const claim = createClaim({ cluster, home }, 'schedule')
 * if (!claim || (await claim('wf_1', Date.parse('2026-11-01T06:30:00Z')))) fire()
 */
export function createClaim(place: ClaimPlace, kind: ClaimKind, redisTtlMs = CLAIM_TTL_MS): Claim | undefined {
  const cluster = place.cluster;
  if (cluster) {
    return kind === 'schedule' ? (name, at) => cluster.claim(`${kind}:${name}:${at}`, redisTtlMs) : (name) => cluster.claim(`${kind}:${name}`, redisTtlMs);
  }
  if (place.home) return fileClaims({ dir: claimDir(place.home, kind), ttlMs: CLAIM_TTL_MS });
  return undefined;
}

/**
 * One line for the host's log saying how its schedules are shared with other hosts.
 * @example
 * logger.info({}, scheduleSharing(weir))
 */
export function scheduleSharing(place: ClaimPlace): string {
  if (place.cluster) return 'schedules: fire times are claimed in Redis, so each runs on one host of the cluster';
  if (place.home) return `schedules: fire times are claimed in ${claimDir(place.home)}, so each runs once across the weir serve processes on this home`;
  return 'schedules: run by this process only';
}
