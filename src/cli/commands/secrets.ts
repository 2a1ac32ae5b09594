import type { GroupSpec } from '../types.js';

const keyArg = { name: 'key', required: true };

/** `weir secrets`: seed 4.8 and CONTRACT 8 (encrypted at rest; `list` shows names only). */
export const secrets: GroupSpec = {
  name: 'secrets',
  aliases: ['secret'],
  summary: 'Organization secrets (available to flows as {{ $env.NAME }})',
  commands: [
    {
      name: 'list',
      aliases: ['ls'],
      summary: 'list secret names (never values)',
      async run(ctx) {
        return { data: await (await ctx.weir()).secrets.list(), columns: ['name', 'updatedAt'] };
      },
    },
    {
      name: 'set',
      summary: 'set a secret',
      args: [keyArg, { name: 'value', required: true }],
      async run(ctx) {
        const s = await (await ctx.weir()).secrets.set(ctx.args.key!, ctx.args.value!);
        return { data: s, text: `set secret ${s.name}` };
      },
    },
    {
      name: 'get',
      summary: 'print a secret value',
      args: [keyArg],
      async run(ctx) {
        const value = await (await ctx.weir()).secrets.get(ctx.args.key!);
        return { data: { name: ctx.args.key, value }, text: value };
      },
    },
    {
      name: 'delete',
      aliases: ['rm'],
      summary: 'delete a secret',
      args: [keyArg],
      async run(ctx) {
        const s = await (await ctx.weir()).secrets.delete(ctx.args.key!);
        return { data: { name: s.name, deleted: true }, text: `deleted secret ${s.name}` };
      },
    },
  ],
};
