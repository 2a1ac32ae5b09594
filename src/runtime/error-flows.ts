import type { WeirBus } from '../events.js';
import type { ExecutionRecord, RunState } from '../flow/types.js';
import { newExecutionId } from '../resources/executions/ids.js';
import type { PublishedWorkflow } from '../resources/workflows/types.js';
import { ERROR_TRIGGER, isErrorFlow } from '../triggers/error/node.js';
import type { FlowRef } from '../types/trigger.js';
import type { Dispatcher } from './dispatch.js';
import type { ExecutionLimiter } from './execution-limiter.js';

/** The trigger kind an error flow's executions record. */
export const ERROR_FLOW_TRIGGER_KIND = 'error';

/** Options of {@link createErrorFlows}. */
export interface ErrorFlowsOptions {
  /** The published copy of a flow by id or name, or null (the flow index's cache). */
  published(ref: string): Promise<PublishedWorkflow | null>;
  /** Whether a local draft of this id or name exists: an unpublished error flow is told apart from a missing one. */
  hasDraft(ref: string): Promise<boolean>;
  dispatcher: Pick<Dispatcher, 'queued' | 'run' | 'enqueue'>;
  /** Holds a slot while an error flow is handed to the queue, so a shutdown waits for the hand-over. */
  limiter: Pick<ExecutionLimiter, 'run'>;
  bus: WeirBus;
}

/**
 * What an error flow is given: the failed execution (its failed node apart from its error) and its trigger
 * input.
 * @example
 * errorFlowInput(record) // { execution: { id: 'exec_…', workflowId, workflowName, failedNode: 'http_request-1', error: { code, message } }, input: { … } }
 */
export function errorFlowInput(record: ExecutionRecord) {
  const { node, ...error } = record.error ?? { code: 'EXECUTION_FAILED', message: 'the execution failed' };
  return {
    execution: { id: record.id, workflowId: record.workflowId, workflowName: record.workflowName, failedNode: node ?? null, error },
    input: record.input,
  };
}

/**
 * Error flows (`settings.errorFlow`): an `execution:end` hook, placed before persistence, that fires on every
 * execution ending in `error` here, whatever started it (a trigger, a manual run, `call_flow`, a retry, a
 * resumed run; a queue worker's runs end here too). It looks the error flow up (the published copy, trigger
 * `error_trigger`) and records on the failed execution `errorFlow: {flow, executionId}`, or
 * `{flow, problem}` with the `error-flow:failed` event when it cannot run. The error flow then runs as its
 * own execution in the background (on the queue when there is one): the failed run's caller never waits for
 * it. A failed error flow fires nothing, nor does any execution it started, directly or through `call_flow`
 * and `foreach` children (their records carry `underErrorFlow`, set by the `execution:start` hook): an error
 * flow that calls a flow naming it as its error flow would otherwise loop.
 * @example
 * const errorFlows = createErrorFlows({ published: runtime.index.published, hasDraft, dispatcher, limiter, bus })
 * executor.hooks['execution:start'].unshift(errorFlows.start)
 * executor.hooks['execution:end'].unshift(errorFlows.end)
 */
export function createErrorFlows(options: ErrorFlowsOptions) {
  const { dispatcher, limiter, bus } = options;

  /** The published error flow `ref` names, or why it cannot run. */
  async function find(ref: string): Promise<{ flow: FlowRef } | { problem: string }> {
    const pub = await options.published(ref);
    if (!pub) {
      return (await options.hasDraft(ref))
        ? { problem: `error flow "${ref}" is not published: publish it with \`weir workflows publish ${ref}\`` }
        : { problem: `no flow "${ref}": settings.errorFlow must name a published flow whose trigger is ${ERROR_TRIGGER}` };
    }
    if (!isErrorFlow(pub.config)) return { problem: `flow "${ref}" cannot be an error flow: its published trigger is not ${ERROR_TRIGGER}` };
    return { flow: { id: pub.id, name: pub.name, version: pub.version, config: pub.config, hash: pub.hash } };
  }

  const tell = (record: ExecutionRecord, flow: string, problem: string) =>
    bus.emit('error-flow:failed', { executionId: record.id, workflowId: record.workflowId, workflowName: record.workflowName, errorFlow: flow, problem });

  /** Starts the error flow without waiting for it; a start that fails is told on the bus. */
  function fire(record: ExecutionRecord, flow: FlowRef, executionId: string): void {
    const event = { flow, input: errorFlowInput(record), trigger: ERROR_FLOW_TRIGGER_KIND, executionId, background: true };
    const started = dispatcher.queued ? limiter.run(() => dispatcher.enqueue(event)) : dispatcher.run(event);
    started.catch((err) => tell(record, flow.name, `error flow execution ${executionId} could not start: ${(err as Error).message}`));
  }

  return {
    /** Marks an error flow's execution (before it is stored, before its nodes start children): its lineage starts here. */
    start(run: RunState): void {
      if (!run.record.underErrorFlow && isErrorFlow(run.options.workflow.config)) run.record.underErrorFlow = run.record.id;
    },
    async end(run: RunState): Promise<void> {
      const { record } = run;
      const ref = run.options.workflow.config.settings?.errorFlow;
      if (record.status !== 'error' || !ref || record.underErrorFlow || isErrorFlow(run.options.workflow.config)) return;
      let found: Awaited<ReturnType<typeof find>>;
      try {
        found = await find(ref);
      } catch (err) {
        found = { problem: `error flow "${ref}" could not be looked up: ${(err as Error).message}` };
      }
      if ('problem' in found) {
        record.errorFlow = { flow: ref, problem: found.problem };
        tell(record, ref, found.problem);
        return;
      }
      const executionId = newExecutionId();
      record.errorFlow = { flow: found.flow.name, executionId };
      fire(record, found.flow, executionId);
    },
  };
}
