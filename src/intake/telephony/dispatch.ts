import type { PublishedWorkflow } from '../../resources/workflows/index.js';
import { newExecutionId } from '../../resources/executions/ids.js';
import type { Weir } from '../../weir.js';
import { startExecution } from '../execute.js';

/** One execution a telephony event started. */
export interface Started {
  executionId: string;
  workflowId: string;
  workflowName: string;
}

/**
 * Starts each flow on the event's input and returns with the execution ids once they are handed over:
 * providers want a quick answer (Twilio waits 15 s), so flows finish in the background, on the host's
 * shared runner (bounded, drained on shutdown) and through the execution queue when one is configured.
 * A run that fails to start is reported on the bus as `telephony:error`; the executor records the rest.
 * @example
 * const started = await startFlows(weir, smsFlows(published, to), input, 'sms')
 */
export async function startFlows(weir: Weir, flows: PublishedWorkflow[], input: unknown, trigger: 'sms' | 'call'): Promise<Started[]> {
  if (!flows.length) return [];
  const runner = weir.intake.runner;
  await runner.ready();
  return flows.map((workflow) => {
    const executionId = newExecutionId();
    runner
      .run(() => startExecution(weir, { workflow, input, trigger, executionId }))
      .catch((error: unknown) => weir.bus.emit('telephony:error', { executionId, workflowId: workflow.id, trigger, error }));
    return { executionId, workflowId: workflow.id, workflowName: workflow.name };
  });
}
