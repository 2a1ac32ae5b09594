import { WeirError } from '../../errors.js';
import type { LocalWorkflow } from './types.js';

/** The node types that run a published flow by the name or id in their `flow` (each run its own execution). */
const CALLERS = new Set(['call_flow', 'foreach']);

/**
 * Refuses (INVALID_CONFIG, exit 1) to publish a flow with a concurrency limit without a key that runs itself
 * (a `call_flow` or `foreach` naming it): each call waits for a slot while its caller holds one, so once the
 * callers hold them all (one run at limit 1), the calls wait forever. With a key, a call may take another
 * key's slot, so it is left to the flow.
 * @example
 * checkSelfCall(wf) // throws INVALID_CONFIG when call_flow-2 names wf itself under settings.concurrency {limit: 1}
 */
export function checkSelfCall(wf: LocalWorkflow): void {
  const limit = wf.config.settings?.concurrency;
  if (!limit || limit.key !== undefined) return;
  const details = wf.config.nodes.flatMap((node, i) => {
    const ref = CALLERS.has(node.type) ? node.config?.flow : undefined;
    if (ref !== wf.id && ref !== wf.name) return [];
    const message = `${node.id} runs this flow, whose concurrency limit ${limit.limit} counts its callers: the call would wait for a slot they hold, forever once they hold them all`;
    return [{ path: `nodes[${i}].config.flow`, message }];
  });
  if (!details.length) return;
  throw new WeirError('INVALID_CONFIG', `cannot publish "${wf.name}": ${details.map((d) => d.message).join('; ')}`, {
    details,
    hints: ['move the part that repeats into a flow of its own and call that one (its runs count against its own limit), or give settings.concurrency a key that the call\'s input changes'],
  });
}
