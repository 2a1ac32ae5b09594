import { WeirError } from '../../errors.js';
import { readStdin, readUserFile, withoutFinalNewline } from '../read-input.js';
import type { CommandContext, GroupSpec } from '../types.js';

const keyArg = { name: 'key', required: true };

const HOW_TO_PASS = ['pass it on standard input: `weir secrets set <key> < value.txt` or `... | weir secrets set <key>`', 'or from a file: `weir secrets set <key> --file <path>`'];

/**
 * The value of `secrets set`: the argument, or (so it stays out of shell history and `ps`) standard input
 * when the argument is `-` or absent, or `--file`. Read text loses one final line end; an empty read is an
 * error, so a forgotten pipe never blanks a secret.
 */
async function secretValue(ctx: CommandContext): Promise<string> {
  const { value } = ctx.args;
  const file: string | undefined = ctx.flags.file;
  if (file !== undefined && value !== undefined) throw new WeirError('USAGE', 'give the value either as an argument or with --file, not both');
  if (value !== undefined && value !== '-') return value;
  const source = file ?? 'standard input';
  const text = file !== undefined ? (await readUserFile(ctx.io.cwd, file)).toString('utf8') : await readStdin(ctx.io.stdin);
  if (text === null) throw new WeirError('USAGE', 'no secret value: standard input is a terminal', { hints: HOW_TO_PASS });
  const read = withoutFinalNewline(text);
  if (!read) throw new WeirError('INVALID_INPUT', `no secret value: ${source} is empty`, { hints: HOW_TO_PASS });
  return read;
}

/** `weir secrets`: organization secrets, encrypted at rest; `list` shows names only. */
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
      summary: 'set a secret (value as argument, `-` or piped on standard input, or --file)',
      args: [keyArg, { name: 'value' }],
      flags: { file: { type: 'string', placeholder: 'path', summary: 'read the value from a file (one final newline is dropped)' } },
      async run(ctx) {
        const value = await secretValue(ctx);
        const s = await (await ctx.weir()).secrets.set(ctx.args.key!, value);
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
