import { defineNode } from '../../nodes/define.js';

/** The trigger type of an error flow: what `settings.errorFlow` of another flow may name. */
export const ERROR_TRIGGER = 'error_trigger';

/** Whether a config is an error flow's (its trigger is `error_trigger`). */
export const isErrorFlow = (config: { nodes: Array<{ type: string }> }): boolean => config.nodes.some((n) => n.type === ERROR_TRIGGER);

/**
 * Starts an error flow: run when an execution of a flow naming it in `settings.errorFlow` ends in `error`,
 * or by hand (`weir workflows run`) with an input of that shape, to try it.
 */
export const errorTrigger = defineNode({
  type: ERROR_TRIGGER,
  trigger: true,
  docs: {
    summary: 'Starts an error flow: runs when an execution of a flow whose `settings.errorFlow` names this flow ends in error (never by a webhook or schedule; by hand with `weir workflows run` to try it)',
    output: '`{ execution: { id, workflowId, workflowName, failedNode, error: { code, message, status? } }, input }`: the failed execution and its trigger input',
    example: {},
  },
  config: { type: 'object', properties: {}, additionalProperties: false },
});
