import type { Weir } from '../weir.js';

/** How long a slot claim is kept: far beyond any clock skew between hosts, short enough to leave no litter. */
const CLAIM_TTL_MS = 60 * 60 * 1000;

/**
 * The scheduler's slot claim of a cluster: every host computes the same slots, and `SET NX PX` on
 * `schedule:<flow>:<slot>` lets exactly one of them run each. A host that dies simply stops claiming; the
 * others go on with the next slot, so there is no hand-over gap. Undefined on a single host.
 * @example
 * createScheduler({ weir, runner, claim: slotClaim(weir) })
 */
export function slotClaim(weir: Pick<Weir, 'cluster'>): ((flowId: string, at: number) => Promise<boolean>) | undefined {
  const cluster = weir.cluster;
  if (!cluster) return undefined;
  return (flowId, at) => cluster.claim(`schedule:${flowId}:${at}`, CLAIM_TTL_MS);
}
