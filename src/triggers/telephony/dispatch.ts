import { WeirError } from '../../errors.js';
import type { PublishedWorkflow } from '../../resources/workflows/index.js';
import { newId } from '../../util/ids.js';
import type { Weir } from '../../weir.js';

/** One execution a telephony event started. */
export interface Started {
  executionId: string;
  workflowId: string;
  workflowName: string;
}

/** The executor's entry point as the telephony routes use it (CONTRACT: `weir.run(ref, input, options)`). */
type Runner = (ref: string, input: unknown, options: { published: true; trigger: 'sms' | 'call'; executionId: string }) => Promise<unknown>;

/**
 * Starts each flow on the event's input and returns at once with the execution ids: providers want a quick
 * answer (Twilio waits 15 s), so the flows finish in the background, recorded by the executor.
 * A run that cannot even start is reported on the bus as `telephony:error`.
 * @example
 * const started = startFlows(weir, smsFlows(published, to), input, 'sms')
 */
export function startFlows(weir: Weir, flows: PublishedWorkflow[], input: unknown, trigger: 'sms' | 'call'): Started[] {
  const run = (weir as unknown as { run?: Runner }).run;
  if (flows.length && !run) throw new WeirError('UNAVAILABLE', 'this weir instance has no executor to run flows');
  return flows.map((flow) => {
    const executionId = newId('exec');
    run!(flow.id, input, { published: true, trigger, executionId }).catch((error: unknown) =>
      weir.bus.emit('telephony:error', { executionId, workflowId: flow.id, trigger, error }),
    );
    return { executionId, workflowId: flow.id, workflowName: flow.name };
  });
}
