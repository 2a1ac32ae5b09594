import { callerStatus, WeirError } from '../errors.js';
import { childOf } from '../flow/children.js';
import { check, defineNode, type Problem } from './define.js';
import { service } from './resources/common.js';

/** How deep `call_flow` may nest: a flow calling itself stops here instead of running forever. */
export const MAX_CALL_DEPTH = 8;

/**
 * `{"flow": "<name or id>", "input": {...}}`: runs the published copy of another flow (recorded
 * as its own execution, trigger `call_flow`, listed in this execution's `children`) and outputs its result;
 * its failure fails this node.
 */
export const callFlowNode = defineNode<{ flow: string; input?: unknown }>({
  type: 'call_flow',
  docs: {
    summary: 'Runs the published copy of another flow as its own execution; its failure fails this node',
    output: "The called flow's result",
    example: { flow: 'send-invoice', input: { orderId: '{{ $input.id }}' } },
  },
  config: {
    type: 'object',
    properties: {
      flow: { type: 'string', description: 'The name or id of the published flow to run' },
      input: { description: "The called flow's input (default {})" },
    },
    required: ['flow'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    check.required(config, 'flow', problems);
    return problems;
  },
  async run(ctx) {
    const depth = (ctx.execution.depth as number) + 1;
    if (depth > MAX_CALL_DEPTH) {
      throw new WeirError('RULE', `call_flow: flows nest more than ${MAX_CALL_DEPTH} deep (does a flow call itself?)`);
    }
    const record = await service(ctx, 'run')(String(ctx.config.flow), ctx.config.input ?? {}, { published: true, trigger: 'call_flow', signal: ctx.signal, depth, parent: childOf(ctx.execution, ctx.node.id) });
    ctx.log(`called ${record.workflowName} (${record.workflowId}): execution ${record.id}, ${record.status}`);
    if (record.status !== 'success') {
      const e = record.error;
      // A status the called flow threw on purpose answers the caller as it was thrown, message included.
      const status = callerStatus(e);
      if (status) throw new WeirError('EXECUTION_FAILED', e!.message, { status });
      throw new WeirError(record.status === 'cancelled' ? 'CANCELLED' : 'EXECUTION_FAILED', `call_flow: ${record.workflowName} failed: ${e?.message ?? record.status}`);
    }
    return record.result;
  },
});
