import { join } from 'node:path';
import { fileSlotClaims } from '../cluster/file-claims.js';
import type { SlotPlace } from '../cluster/slots.js';
import { RETRY_MS } from './wake.js';

/** How long a claim file is kept: far longer than any attempt, short enough to leave no litter. */
const FILE_CLAIM_TTL_MS = 60 * 60 * 1000;

/**
 * The claim that lets one host of several sharing storage take a wake or a resume call: `SET NX PX` in Redis
 * with a cluster (for {@link RETRY_MS}, after which a host that took it and died is replaced), else an
 * exclusively created file per wait and attempt under `<home>/run/wait-claims` for several `weir serve` on
 * one home (attempts are `RETRY_MS` time buckets, so the next bucket replaces a host that died). Undefined
 * when nothing else can share the storage.
 * @example
 * createWaits({ ..., claim: waitClaim(weir) })
 */
export function waitClaim(place: SlotPlace): ((name: string, at: number) => Promise<boolean>) | undefined {
  const cluster = place.cluster;
  if (cluster) return (name) => cluster.claim(`wait:${name}`, RETRY_MS);
  if (place.home) return fileSlotClaims({ dir: join(place.home, 'run', 'wait-claims'), ttlMs: FILE_CLAIM_TTL_MS });
  return undefined;
}
