import { readUserFile } from '../read-input.js';
import { record } from '../output.js';
import type { GroupSpec } from '../types.js';

const idArg = { name: 'agent-id', required: true };

/** `weir agent`: agents (built-in agents are read-only). */
export const agent: GroupSpec = {
  name: 'agent',
  aliases: ['agents'],
  summary: 'AI agents of the organization',
  commands: [
    {
      name: 'list',
      aliases: ['ls'],
      summary: 'agents with id, name, type and category',
      async run(ctx) {
        return { data: await (await ctx.weir()).agents.list(), columns: ['id', 'name', 'type', 'category', 'builtIn'] };
      },
    },
    {
      name: 'get',
      summary: 'complete information including the system prompt',
      args: [idArg],
      async run(ctx) {
        const a = await (await ctx.weir()).agents.get(ctx.args['agent-id']!);
        const { systemPrompt, ...rest } = a;
        return { data: a, text: `${record(rest)}\nsystemPrompt:\n${systemPrompt || '(empty)'}` };
      },
    },
    {
      name: 'create',
      summary: 'create a custom agent',
      args: [{ name: 'id', required: true }, { name: 'name', required: true }, { name: 'description' }],
      flags: {
        type: { type: 'string', summary: 'agent type (default: assistant)', placeholder: 'type' },
        category: { type: 'string', summary: 'category (default: general)', placeholder: 'category' },
        prompt: { type: 'string', summary: 'system prompt text', placeholder: 'text' },
      },
      async run(ctx) {
        const { args, flags } = ctx;
        const a = await (await ctx.weir()).agents.create(args.id!, args.name!, args.description, { type: flags.type, category: flags.category, prompt: flags.prompt });
        return { data: a, text: `created agent ${a.id} (${a.name})` };
      },
    },
    {
      name: 'delete',
      aliases: ['rm'],
      summary: 'delete a custom agent (built-in agents refuse)',
      args: [idArg],
      async run(ctx) {
        const a = await (await ctx.weir()).agents.delete(ctx.args['agent-id']!);
        return { data: { id: a.id, deleted: true }, text: `deleted agent ${a.id}` };
      },
    },
    {
      name: 'prompt',
      summary: 'read or replace an agent\'s system prompt',
      commands: [
        {
          name: 'get',
          summary: 'print the system prompt',
          args: [idArg],
          async run(ctx) {
            const prompt = await (await ctx.weir()).agents.getPrompt(ctx.args['agent-id']!);
            return { data: { id: ctx.args['agent-id'], systemPrompt: prompt }, text: prompt };
          },
        },
        {
          name: 'set',
          summary: 'set the system prompt from a file',
          args: [idArg, { name: 'file', required: true }],
          async run(ctx) {
            const prompt = (await readUserFile(ctx.io.cwd, ctx.args.file!)).toString('utf8');
            const a = await (await ctx.weir()).agents.setPrompt(ctx.args['agent-id']!, prompt);
            return { data: { id: a.id, systemPrompt: a.systemPrompt }, text: `set the system prompt of ${a.id} (${prompt.length} characters)` };
          },
        },
      ],
    },
  ],
};
