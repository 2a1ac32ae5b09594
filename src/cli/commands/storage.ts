import { isTextType } from '../../resources/objects/content-type.js';
import { copyTo } from '../../util/streams.js';
import { openInput, streamToFile } from '../files.js';
import type { GroupSpec } from '../types.js';

const keyArg = { name: 'key', required: true };

/** `weir storage`: object storage (keys are path-like; traversal is refused). */
export const storage: GroupSpec = {
  name: 'storage',
  summary: 'Object storage',
  commands: [
    {
      name: 'ls',
      aliases: ['list'],
      summary: 'list objects, optionally under a prefix',
      args: [{ name: 'prefix' }],
      async run(ctx) {
        const list = await (await ctx.weir()).objects.list(ctx.args.prefix ?? '');
        return { data: list, columns: ['key', 'size', 'contentType', 'modified'] };
      },
    },
    {
      name: 'get',
      summary: 'read an object (to stdout without an output file)',
      args: [keyArg, { name: 'output-file' }],
      async run(ctx) {
        const objects = (await ctx.weir()).objects;
        const file = ctx.args['output-file'];
        if (ctx.json && !file) {
          // --json keeps stdout one document: text content as is, anything else base64.
          const o = await objects.get(ctx.args.key!);
          const { body, ...info } = o;
          const text = isTextType(o.contentType);
          return { data: { ...info, encoding: text ? 'utf8' : 'base64', content: body.toString(text ? 'utf8' : 'base64') } };
        }
        const { info, stream } = await objects.stream(ctx.args.key!);
        if (!file) {
          await copyTo(stream, ctx.io.stdout);
          return;
        }
        await streamToFile(ctx.io.cwd, file, stream);
        return { data: { ...info, file }, text: `wrote ${info.key} (${info.size} bytes) to ${file}` };
      },
    },
    {
      name: 'put',
      summary: 'write an object from a file (streamed)',
      args: [keyArg, { name: 'file', required: true }],
      flags: { 'content-type': { type: 'string', summary: 'content type (default: guessed from the key)', placeholder: 'type' } },
      async run(ctx) {
        const input = await openInput(ctx.io.cwd, ctx.args.file!);
        const info = await (await ctx.weir()).objects.put(ctx.args.key!, input, { contentType: ctx.flags['content-type'] });
        return { data: info, text: `stored ${info.key} (${info.size} bytes, ${info.contentType})` };
      },
    },
    {
      name: 'rm',
      aliases: ['delete'],
      summary: 'delete an object',
      args: [keyArg],
      async run(ctx) {
        const info = await (await ctx.weir()).objects.remove(ctx.args.key!);
        return { data: { key: info.key, deleted: true }, text: `deleted ${info.key}` };
      },
    },
  ],
};
