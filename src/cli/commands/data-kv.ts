import { WeirError } from '../../errors.js';
import { writeOutput } from '../files.js';
import { parseJson, readUserFile } from '../read-input.js';
import type { GroupSpec } from '../types.js';

const nsArg = { name: 'namespace-id', required: true };
const keyArg = { name: 'key', required: true };

/** `weir data kv`: KV namespaces (export/import round-trips). */
export const kv: GroupSpec = {
  name: 'kv',
  summary: 'KV namespaces of string values',
  commands: [
    {
      name: 'list',
      aliases: ['ls'],
      summary: 'list KV namespaces',
      async run(ctx) {
        return { data: await (await ctx.weir()).kv.list(), columns: ['name', 'id', 'description', 'createdAt'] };
      },
    },
    {
      name: 'init',
      summary: 'create a namespace',
      args: [{ name: 'name', required: true }, { name: 'description' }],
      async run(ctx) {
        const ns = await (await ctx.weir()).kv.init(ctx.args.name!, ctx.args.description);
        return { data: ns, text: `created KV namespace ${ns.name} (${ns.id})` };
      },
    },
    {
      name: 'delete',
      aliases: ['rm'],
      summary: 'delete a namespace and its keys',
      args: [nsArg],
      async run(ctx) {
        const ns = await (await ctx.weir()).kv.delete(ctx.args['namespace-id']!);
        return { data: ns, text: `deleted KV namespace ${ns.name}` };
      },
    },
    {
      name: 'keys',
      summary: 'list keys',
      args: [nsArg],
      async run(ctx) {
        const keys = await (await ctx.weir()).kv.keys(ctx.args['namespace-id']!);
        return { data: keys, text: keys.length ? keys.join('\n') : '(no keys)' };
      },
    },
    {
      name: 'get',
      summary: 'print a value',
      args: [nsArg, keyArg],
      async run(ctx) {
        const { args } = ctx;
        const value = await (await ctx.weir()).kv.getValue(args['namespace-id']!, args.key!);
        if (value === null) throw new WeirError('NOT_FOUND', `key "${args.key}" not found in KV namespace "${args['namespace-id']}"`);
        return { data: { namespace: args['namespace-id'], key: args.key, value }, text: value };
      },
    },
    {
      name: 'set',
      summary: "write a value (JSON text passed in single quotes is kept as given)",
      args: [nsArg, keyArg, { name: 'value', required: true }],
      async run(ctx) {
        const { args } = ctx;
        await (await ctx.weir()).kv.setValue(args['namespace-id']!, args.key!, args.value!);
        return { data: { namespace: args['namespace-id'], key: args.key, value: args.value }, text: `set ${args.key}` };
      },
    },
    {
      name: 'delete-key',
      summary: 'delete a key',
      args: [nsArg, keyArg],
      async run(ctx) {
        const { args } = ctx;
        if (!(await (await ctx.weir()).kv.deleteKey(args['namespace-id']!, args.key!))) {
          throw new WeirError('NOT_FOUND', `key "${args.key}" not found in KV namespace "${args['namespace-id']}"`);
        }
        return { data: { namespace: args['namespace-id'], key: args.key, deleted: true }, text: `deleted ${args.key}` };
      },
    },
    {
      name: 'export',
      summary: 'export to a JSON object of key -> value (stdout without a file)',
      args: [nsArg, { name: 'file' }],
      async run(ctx) {
        const data = await (await ctx.weir()).kv.export(ctx.args['namespace-id']!);
        const file = ctx.args.file;
        if (!file) return { data, text: JSON.stringify(data, null, 2) };
        await writeOutput(ctx.io.cwd, file, async (out) => void out.write(`${JSON.stringify(data, null, 2)}\n`));
        const keys = Object.keys(data).length;
        return { data: { namespace: ctx.args['namespace-id'], keys, file }, text: `exported ${keys} key${keys === 1 ? '' : 's'} to ${file}` };
      },
    },
    {
      name: 'import',
      summary: 'import keys from a JSON object file (as written by export)',
      args: [nsArg, { name: 'json-file', required: true }],
      async run(ctx) {
        const file = ctx.args['json-file']!;
        const obj = parseJson((await readUserFile(ctx.io.cwd, file)).toString('utf8'), file);
        const r = await (await ctx.weir()).kv.import(ctx.args['namespace-id']!, obj);
        return { data: r, text: `imported ${r.imported} key${r.imported === 1 ? '' : 's'} into ${r.namespace}` };
      },
    },
  ],
};
