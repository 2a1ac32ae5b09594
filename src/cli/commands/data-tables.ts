import { WeirError } from '../../errors.js';
import { openInput, progress, writeOutput } from '../files.js';
import { record, table } from '../output.js';
import { parseJson, readUserFile } from '../read-input.js';
import type { GroupSpec } from '../types.js';

const tableArg = { name: 'table-id', required: true };
const rowArgs = [tableArg, { name: 'row-id', required: true }, { name: 'primary-key', required: true }];

/** `weir data tables`: user tables (names start with `user.`) and read-only system tables. */
export const tables: GroupSpec = {
  name: 'tables',
  aliases: ['table'],
  summary: 'SQL tables (names start with "user.")',
  commands: [
    {
      name: 'list',
      aliases: ['ls'],
      summary: 'tables with name, type and read-only status',
      async run(ctx) {
        const list = await (await ctx.weir()).tables.list();
        return { data: list, columns: ['name', 'type', 'readOnly', 'id', 'description'] };
      },
    },
    {
      name: 'init',
      summary: 'create a user table; the name must start with "user."',
      args: [{ name: 'name', required: true }, { name: 'description' }],
      flags: { schema: { type: 'string', summary: 'JSON file with columns and indexes (default: id, createdAt, updatedAt, growing on insert)', placeholder: 'file' } },
      async run(ctx) {
        const schema = ctx.flags.schema ? parseJson((await readUserFile(ctx.io.cwd, ctx.flags.schema)).toString('utf8'), ctx.flags.schema) : undefined;
        const meta = await (await ctx.weir()).tables.init(ctx.args.name!, ctx.args.description, schema);
        return { data: meta, text: `created table ${meta.name} (${meta.id})` };
      },
    },
    {
      name: 'get',
      summary: 'table details: columns, indexes, row count',
      args: [tableArg],
      async run(ctx) {
        const t = await (await ctx.weir()).tables.get(ctx.args['table-id']!);
        const { columns, indexes, ...meta } = t;
        const text = [record(meta), `\ncolumns:\n${table(columns as unknown as Record<string, unknown>[], ['name', 'type', 'primaryKey', 'notNull'])}`];
        if (indexes.length) text.push(`\nindexes:\n${table(indexes as unknown as Record<string, unknown>[], ['name', 'columns', 'unique'])}`);
        return { data: t, text: text.join('\n') };
      },
    },
    {
      name: 'delete',
      aliases: ['rm'],
      summary: 'delete a table and its rows',
      args: [tableArg],
      async run(ctx) {
        const meta = await (await ctx.weir()).tables.delete(ctx.args['table-id']!);
        return { data: meta, text: `deleted table ${meta.name}` };
      },
    },
    {
      name: 'query',
      summary: 'run SQL against the table (dotted names in double quotes: SELECT * FROM "user.orders")',
      args: [tableArg, { name: 'sql', required: true }],
      flags: {
        params: { type: 'string', summary: 'JSON array (for ?) or object (for :name) of bound parameters', placeholder: 'json' },
        timeout: { type: 'number', summary: 'time limit of the statement in ms, longer or shorter (default tables.timeoutMs, 30000)', placeholder: 'ms' },
      },
      async run(ctx) {
        const params = ctx.flags.params === undefined ? [] : parseJson(ctx.flags.params, '--params');
        const limitMs = ctx.flags.timeout;
        if (limitMs !== undefined && !(Number.isSafeInteger(limitMs) && limitMs >= 1)) {
          throw new WeirError('USAGE', '--timeout must be a whole number of milliseconds, 1 or more', { hints: ['for example --timeout 60000 (one minute)'] });
        }
        const r = await (await ctx.weir()).tables.execute(ctx.args['table-id']!, ctx.args.sql!, params, { limitMs });
        if (r.reader) return { data: r.rows, text: r.rows.length ? table(r.rows, r.columns) : '(no rows)' };
        return { data: { changes: r.changes }, text: `${r.changes} row${r.changes === 1 ? '' : 's'} changed` };
      },
    },
    {
      name: 'insert',
      summary: 'insert a row given as JSON',
      args: [tableArg, { name: 'json', required: true }],
      async run(ctx) {
        const row = await (await ctx.weir()).tables.insert(ctx.args['table-id']!, parseJson(ctx.args.json!, 'the row'));
        return { data: row };
      },
    },
    {
      name: 'update',
      summary: 'update the row whose <primary-key> column equals <row-id>',
      args: [...rowArgs, { name: 'json', required: true }],
      async run(ctx) {
        const { args } = ctx;
        const row = await (await ctx.weir()).tables.update(args['table-id']!, args['row-id']!, args['primary-key']!, parseJson(args.json!, 'the update'));
        return { data: row };
      },
    },
    {
      name: 'delete-row',
      summary: 'delete the row whose <primary-key> column equals <row-id>',
      args: rowArgs,
      async run(ctx) {
        const { args } = ctx;
        const r = await (await ctx.weir()).tables.deleteRow(args['table-id']!, args['row-id']!, args['primary-key']!);
        return { data: r, text: `deleted row ${r.deleted} from ${r.table}` };
      },
    },
    {
      name: 'export',
      summary: 'export to CSV (stdout without a file)',
      args: [tableArg, { name: 'file' }],
      async run(ctx) {
        const weir = await ctx.weir();
        const ref = ctx.args['table-id']!;
        const file = ctx.args.file;
        if (file) {
          const rows = await writeOutput(ctx.io.cwd, file, (out) => weir.tables.export(ref, out));
          return { data: { table: ref, rows, file }, text: `exported ${rows} row${rows === 1 ? '' : 's'} to ${file}` };
        }
        if (!ctx.json) {
          await weir.tables.export(ref, ctx.io.stdout);
          return;
        }
        // --json keeps stdout one document: the CSV goes inside it.
        let csv = '';
        const rows = await weir.tables.export(ref, { write: (chunk: Buffer | string) => (csv += chunk) });
        return { data: { table: ref, rows, csv } };
      },
    },
    {
      name: 'import',
      summary: 'import rows from a CSV file (header names the columns; all rows or none)',
      args: [tableArg, { name: 'csv-file', required: true }],
      async run(ctx) {
        const input = await openInput(ctx.io.cwd, ctx.args['csv-file']!);
        const line = progress(ctx.io.stderr, (n) => `importing: ${n} rows`);
        try {
          const r = await (await ctx.weir()).tables.import(ctx.args['table-id']!, input, { onProgress: line.tick });
          return { data: r, text: `imported ${r.rows} row${r.rows === 1 ? '' : 's'} into ${r.table}` };
        } finally {
          line.done();
        }
      },
    },
  ],
};
