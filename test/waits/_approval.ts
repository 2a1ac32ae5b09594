// A node type of the tests' own that asks for approval once, through the interface any node (the `agent`
// node's tool calls) uses: it stores its progress, returns an approval Suspend, and when run again returns what
// it was given back. Each run appends a line to `config.marks` (a file), so a test counts the runs.
import { appendFileSync } from 'node:fs';
import { defineNode } from '../../src/nodes/define.js';
import { Suspend } from '../../src/flow/suspend.js';

export const askNode = defineNode<{ tool: string; input?: unknown; marks?: string }>({
  type: 'ask_approval',
  config: {
    type: 'object',
    required: ['tool'],
    properties: { tool: { type: 'string' }, input: {}, marks: { type: 'string' } },
    additionalProperties: false,
  },
  async run(ctx) {
    if (ctx.config.marks) appendFileSync(ctx.config.marks, `${ctx.approval ? (ctx.approval.approved ? 'approved' : 'denied') : 'asked'}\n`);
    if (ctx.approval) return { approval: ctx.approval, progress: ctx.progress };
    await ctx.saveProgress({ asked: ctx.config.tool });
    return new Suspend({ kind: 'approval', tool: ctx.config.tool, input: ctx.config.input ?? null });
  },
});
