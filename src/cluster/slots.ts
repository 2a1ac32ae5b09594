import { join } from 'node:path';
import type { Cluster } from './index.js';
import { fileSlotClaims } from './file-claims.js';

/** How long a slot claim is kept: far beyond any clock skew between hosts, short enough to leave no litter. */
const CLAIM_TTL_MS = 60 * 60 * 1000;

/** Where the schedule slot claims of a home live (shared by every `weir serve` on it). */
export const claimDir = (home: string) => join(home, 'run', 'schedule-claims');

/** Where the claims to resume an unfinished execution live. */
const resumeClaimDir = (home: string) => join(home, 'run', 'resume-claims');

/** Where schedule slots can be shared: the cluster (Redis), else the home. */
export interface SlotPlace {
  cluster: Pick<Cluster, 'claim'> | null;
  home?: string;
}

/**
 * The scheduler's slot claim: every host computes the same slots and exactly one of them runs each. With a
 * cluster, `SET NX PX` on `schedule:<flow>:<slot>` in Redis; on a home, an exclusively created file per flow
 * and slot under `<home>/run/schedule-claims`, so several `weir serve` processes on one home fire each slot
 * once. A host that dies simply stops claiming; the others go on with the next slot, so there is no
 * hand-over gap. Undefined for a weir without a home or cluster (nothing else can share its schedules).
 * @example
 * createScheduler({ storage, bus, workflows, fire, claim: slotClaim(weir) })
 */
export function slotClaim(weir: SlotPlace): ((flowId: string, at: number) => Promise<boolean>) | undefined {
  const cluster = weir.cluster;
  if (cluster) return (flowId, at) => cluster.claim(`schedule:${flowId}:${at}`, CLAIM_TTL_MS);
  if (weir.home) return fileSlotClaims({ dir: claimDir(weir.home), ttlMs: CLAIM_TTL_MS });
  return undefined;
}

/**
 * The claim to resume an execution whose process died, once: hosts that find it at the same time claim
 * `<execution>~<the dead process's boot id>` (Redis with a cluster, else a file on the home) and only the
 * winner resumes it. `at` is when the execution started (old claims are swept by it). Without a home or
 * cluster nothing else can see the execution, and every claim succeeds.
 * @example
 * if (await resumeClaim(weir)(`${record.id}~${owner.boot}`, Date.parse(record.startedAt))) resume(record)
 */
export function resumeClaim(weir: SlotPlace): (name: string, at: number) => Promise<boolean> {
  const cluster = weir.cluster;
  if (cluster) return (name) => cluster.claim(`resume:${name}`, CLAIM_TTL_MS);
  if (weir.home) return fileSlotClaims({ dir: resumeClaimDir(weir.home), ttlMs: CLAIM_TTL_MS });
  return async () => true;
}

/**
 * One line for the host's log saying how its schedules are shared with other hosts.
 * @example
 * logger.info({}, slotSharing(weir))
 */
export function slotSharing(weir: SlotPlace): string {
  if (weir.cluster) return 'schedules: slots are claimed in Redis, so each slot runs on one host of the cluster';
  if (weir.home) return `schedules: slots are claimed in ${claimDir(weir.home)}, so each slot runs once across the weir serve processes on this home`;
  return 'schedules: run by this process only';
}
