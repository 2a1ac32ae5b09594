import { WeirError } from '../../errors.js';
import { table } from '../output.js';
import type { GroupSpec } from '../types.js';

const nameFlag = { name: { type: 'string' as const, summary: 'the interface (default: the one whose folder you are in)', placeholder: 'name' } };

/** `weir interface` (alias `i`): creates, lists and deploys interfaces (served under `/i/<name>/`). */
export const interfaces: GroupSpec = {
  name: 'interface',
  aliases: ['i', 'interfaces'],
  summary: 'Frontend interfaces that call flows',
  commands: [
    {
      name: 'init',
      summary: 'create ./<name>/ with a working page that calls a flow, and record the interface',
      flags: {
        name: { type: 'string', summary: 'interface name (required; also the folder name)', placeholder: 'name' },
        description: { type: 'string', summary: 'what it is for', placeholder: 'text' },
        type: { type: 'string', summary: 'external (public, default) or internal (needs the access token)', placeholder: 'type' },
        flow: { type: 'string', summary: 'the flow the page calls (default: the interface name)', placeholder: 'flow' },
      },
      async run(ctx) {
        const name: string | undefined = ctx.flags.name;
        if (!name) throw new WeirError('USAGE', 'missing option --name <name>', { hints: ['usage: weir interface init --name <name> [--description <text>] [--type external|internal]'] });
        const { join } = await import('node:path');
        const { scaffoldInterface } = await import('../../resources/interfaces/index.js');
        const weir = await ctx.weir();
        const dir = join(ctx.io.cwd, name);
        const record = await weir.interfaces.create({ name, type: ctx.flags.type, description: ctx.flags.description, dir });
        let files: string[];
        try {
          files = await scaffoldInterface(dir, { id: record.id, name, type: record.type, ...(record.description ? { description: record.description } : {}) }, ctx.flags.flow ?? name);
        } catch (err) {
          await weir.interfaces.remove(record.id);
          throw err;
        }
        return {
          data: { id: record.id, name, type: record.type, description: record.description ?? null, dir, files },
          text: `created interface ${name} (${record.id}, ${record.type}) in ./${name}/\n  files: ${files.join(', ')}\n  next: cd ${name} && weir interface deploy   (or: weir preview ${name})\n  both build with esbuild, an optional package: npm install esbuild`,
        };
      },
    },
    {
      name: 'list',
      aliases: ['ls'],
      summary: 'list all interfaces',
      async run(ctx) {
        const list = await (await ctx.weir()).interfaces.list();
        const rows = list.map((r) => ({ ...r, version: r.deployed?.version ?? null, path: r.deployed ? `/i/${r.name}/` : null }));
        return { data: list, text: table(rows, ['id', 'name', 'type', 'version', 'path', 'description']) };
      },
    },
    {
      name: 'deploy',
      summary: 'bundle the interface and store the build (served by `weir serve` at /i/<name>/)',
      flags: nameFlag,
      async run(ctx) {
        const weir = await ctx.weir();
        const r = await weir.interfaces.deploy(await weir.interfaces.folder(ctx.flags.name, ctx.io.cwd));
        return { data: r, text: `deployed ${r.name} (${r.id}) version ${r.version}: ${r.files.length} files, ${r.bytes} bytes\n  served at ${r.path}${r.type === 'internal' ? ' (with the access token)' : ''}` };
      },
    },
    {
      name: 'logs',
      summary: 'deploy and request logs of the current interface',
      flags: { ...nameFlag, lines: { type: 'number', alias: 'n', summary: 'how many lines (default 50)', placeholder: 'n' } },
      async run(ctx) {
        const weir = await ctx.weir();
        const ref = ctx.flags.name ?? (await weir.interfaces.folder(undefined, ctx.io.cwd)).manifest.id;
        const entries = await weir.interfaces.logs(ref, ctx.flags.lines ?? 50);
        return { data: entries, text: entries.length ? entries.map((e) => `${e.time} ${e.kind.padEnd(7)} ${e.message}`).join('\n') : '(no logs yet)' };
      },
    },
    {
      name: 'token',
      summary: "print the host's access token (needed to open internal interfaces)",
      async run(ctx) {
        const token = await (await ctx.weir()).interfaces.accessToken();
        return { data: { token }, text: token };
      },
    },
    {
      name: 'delete',
      aliases: ['rm'],
      summary: 'delete an interface record, its build and logs (the source folder stays)',
      args: [{ name: 'interface', required: true }],
      async run(ctx) {
        const r = await (await ctx.weir()).interfaces.remove(ctx.args.interface!);
        return { data: r, text: `deleted interface ${r.name} (${r.id})` };
      },
    },
  ],
};
