import { defineNode, defineTrigger, type TriggerDefinition } from 'weir';

/** The config of a `job_trigger` node: the queue whose jobs start the flow. */
export interface JobTriggerConfig {
  queue: string;
}

/** An in-process job queue whose jobs start the published flows listening on it. */
export interface JobQueue {
  /** Adds a job; a started host runs it with each published flow whose `job_trigger` names this queue. */
  push(queue: string, job: unknown): void;
  /** The trigger kind to give `createWeir({ triggers })`. */
  trigger: TriggerDefinition;
}

/**
 * A queue of jobs and the trigger it feeds. Jobs pushed before a host starts wait for it; each job runs
 * once per flow listening on its queue, and a stopped trigger waits for the runs it started.
 */
export function createJobQueue(): JobQueue {
  const pending: Array<{ queue: string; job: unknown }> = [];
  let wake: (() => void) | undefined;

  const jobTrigger = defineNode<JobTriggerConfig>({
    type: 'job_trigger',
    trigger: true,
    docs: {
      summary: 'Starts the flow with each job pushed to its queue',
      output: 'The job, as pushed',
      example: { queue: 'signups' },
    },
    config: {
      type: 'object',
      properties: { queue: { type: 'string', minLength: 1, description: 'The queue whose jobs start this flow' } },
      required: ['queue'],
      additionalProperties: false,
    },
  });

  const trigger = defineTrigger({
    node: jobTrigger,
    async start(rt) {
      let stopped = false;
      const running = new Set<Promise<unknown>>();
      const drain = async () => {
        // `published()` holds only the flows that start with a job_trigger: read at each job, so a flow
        // published or unpublished meanwhile is followed without a restart.
        while (!stopped && pending.length > 0) {
          const next = pending.shift()!;
          for (const flow of await rt.published()) {
            const node = flow.config.nodes.find((n) => n.type === 'job_trigger');
            if (node?.config?.queue !== next.queue) continue;
            const run = rt.dispatcher.run({ flow, input: next.job, trigger: 'job' }).catch(rt.onError);
            running.add(run);
            void run.finally(() => running.delete(run));
          }
        }
      };
      wake = () => void drain().catch(rt.onError);
      wake();
      return async () => {
        stopped = true;
        wake = undefined;
        await Promise.all(running);
      };
    },
  });

  return {
    push(queue, job) {
      pending.push({ queue, job });
      wake?.();
    },
    trigger,
  };
}
