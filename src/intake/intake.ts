import type { Weir } from '../weir.js';
import { createFlowIndex } from './flow-index.js';
import { createInterfaceEvents } from './interface.js';
import { createRunner, type RunnerOptions } from './runner.js';
import { createWebhooks } from './webhook.js';

export type Intake = ReturnType<typeof createIntake>;

/**
 * What a weir instance needs to take events from outside: one execution runner (bounded, drained on
 * shutdown), one cache of published flows, the webhook intake and the interface events. Creating it does
 * no I/O: the journal opens when a host starts or the first durable delivery arrives.
 * @example
 * weir.intake = createIntake({ weir })
 * await weir.intake.start()          // replays unfinished deliveries
 * await weir.intake.close()          // waits for running executions
 */
export function createIntake(options: { weir: Weir } & RunnerOptions) {
  const { weir } = options;
  const runner = createRunner(options);
  const index = createFlowIndex({ weir });
  const webhooks = createWebhooks({ weir, runner, index });
  const events = createInterfaceEvents({ weir, runner, index });
  return {
    runner,
    index,
    webhooks,
    events,
    /** Replays deliveries a killed host left behind; resolves with how many. */
    start: () => webhooks.start(),
    /** Waits for every execution started through the intake, then closes the journal. */
    close: () => webhooks.close(),
  };
}
