import type { PublishedWorkflow } from '../../resources/workflows/index.js';
import { newExecutionId } from '../../resources/executions/ids.js';
import type { WeirBus } from '../../events.js';
import type { Dispatcher } from '../../runtime/dispatch.js';
import type { ExecutionLimiter } from '../../runtime/execution-limiter.js';

/** What starting telephony flows uses of the intake. */
export interface TelephonyIntake {
  limiter: Pick<ExecutionLimiter, 'ready'>;
  dispatcher: Pick<Dispatcher, 'run'>;
  bus: WeirBus;
}

/** One execution a telephony event started. */
export interface Started {
  executionId: string;
  workflowId: string;
  workflowName: string;
}

/**
 * Starts each flow on the event's input and returns with the execution ids once they are handed over:
 * providers want a quick answer (Twilio waits 15 s), so flows finish in the background, on the host's
 * shared limiter (bounded, drained on shutdown) and through the execution queue when one is configured.
 * A run that fails to start is reported on the bus as `telephony:error`; the executor records the rest.
 * @example
 * const started = await startFlows(intake, smsFlows(published, to), input, 'sms')
 */
export async function startFlows(intake: TelephonyIntake, flows: PublishedWorkflow[], input: unknown, trigger: 'sms' | 'call'): Promise<Started[]> {
  if (!flows.length) return [];
  const { limiter, dispatcher, bus } = intake;
  await limiter.ready();
  return flows.map((workflow) => {
    const executionId = newExecutionId();
    dispatcher
      .run({ flow: workflow, input, trigger, executionId, background: true })
      .catch((error: unknown) => bus.emit('telephony:error', { executionId, workflowId: workflow.id, trigger, error }));
    return { executionId, workflowId: workflow.id, workflowName: workflow.name };
  });
}
