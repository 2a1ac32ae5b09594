import { basename } from 'node:path';
import { openInput } from '../files.js';
import { record, table } from '../output.js';
import type { GroupSpec } from '../types.js';

const docArg = { name: 'document-id', required: true };

const folders: GroupSpec = {
  name: 'folders',
  aliases: ['folder'],
  summary: 'knowledge folders (nested through a parent)',
  commands: [
    {
      name: 'list',
      aliases: ['ls'],
      summary: 'list folders',
      async run(ctx) {
        return { data: await (await ctx.weir()).knowledge.listFolders(), columns: ['id', 'name', 'parentId', 'createdAt'] };
      },
    },
    {
      name: 'create',
      summary: 'create a folder, optionally inside a parent folder',
      args: [{ name: 'name', required: true }, { name: 'parent-id' }],
      async run(ctx) {
        const f = await (await ctx.weir()).knowledge.createFolder(ctx.args.name!, ctx.args['parent-id']);
        return { data: f, text: `created folder ${f.name} (${f.id})` };
      },
    },
    {
      name: 'delete',
      aliases: ['rm'],
      summary: 'delete a folder (refused when not empty, unless --recursive)',
      args: [{ name: 'folder-id', required: true }],
      flags: { recursive: { type: 'boolean', alias: 'r', summary: 'also delete every document and folder inside it' } },
      async run(ctx) {
        const r = await (await ctx.weir()).knowledge.deleteFolder(ctx.args['folder-id']!, { recursive: ctx.flags.recursive });
        const extra = r.documents || r.folders ? ` with ${r.documents} document(s) and ${r.folders} folder(s)` : '';
        return { data: r, text: `deleted folder ${r.folder.name}${extra}` };
      },
    },
  ],
};

/** `weir knowledge` (alias `kb`): knowledge folders and their documents, plus full-text search. */
export const knowledge: GroupSpec = {
  name: 'knowledge',
  aliases: ['kb'],
  summary: 'Knowledge base documents and folders',
  commands: [
    {
      name: 'list',
      aliases: ['ls'],
      summary: 'list documents and folders',
      async run(ctx) {
        const { folders: fs, documents } = await (await ctx.weir()).knowledge.list();
        const rows = [
          ...fs.map((f) => ({ kind: 'folder', id: f.id, name: f.name, folder: f.parentId, contentType: null, size: null })),
          ...documents.map((d) => ({ kind: 'document', id: d.id, name: d.name, folder: d.folderId, contentType: d.contentType, size: d.size })),
        ];
        return { data: rows, columns: ['kind', 'id', 'name', 'folder', 'contentType', 'size'] };
      },
    },
    {
      name: 'get',
      summary: 'document details and content (text types)',
      args: [docArg],
      async run(ctx) {
        const doc = await (await ctx.weir()).knowledge.get(ctx.args['document-id']!);
        const { content, token, ...meta } = doc;
        return { data: doc, text: `${record(meta)}${content === undefined ? '' : `\n\n${content}`}` };
      },
    },
    {
      name: 'url',
      summary: 'public URL of the document (served by `weir serve`)',
      args: [docArg],
      async run(ctx) {
        const r = await (await ctx.weir()).knowledge.url(ctx.args['document-id']!);
        return { data: r, text: r.url };
      },
    },
    {
      name: 'upload',
      summary: 'upload a file, optionally into a folder',
      args: [{ name: 'file-path', required: true }, { name: 'folder-id' }],
      flags: {
        'content-type': { type: 'string', summary: 'content type (default: guessed from the file name)', placeholder: 'type' },
        name: { type: 'string', summary: 'document name (default: the file name)', placeholder: 'name' },
      },
      async run(ctx) {
        const file = ctx.args['file-path']!;
        const data = await openInput(ctx.io.cwd, file);
        const doc = await (await ctx.weir()).knowledge.upload({ name: ctx.flags.name ?? basename(file), data, contentType: ctx.flags['content-type'] }, ctx.args['folder-id']);
        return { data: doc, text: `uploaded ${doc.name} (${doc.id}, ${doc.size} bytes, ${doc.contentType})` };
      },
    },
    {
      name: 'delete',
      aliases: ['rm'],
      summary: 'delete a document',
      args: [docArg],
      async run(ctx) {
        const doc = await (await ctx.weir()).knowledge.delete(ctx.args['document-id']!);
        return { data: { id: doc.id, name: doc.name, deleted: true }, text: `deleted ${doc.name} (${doc.id})` };
      },
    },
    {
      name: 'search',
      summary: 'full-text search over text, markdown, HTML and JSON documents',
      args: [{ name: 'query', required: true, variadic: true }],
      flags: {
        limit: { type: 'number', alias: 'n', summary: 'at most this many results (default 10)', placeholder: 'n' },
        folder: { type: 'string', summary: 'only documents directly in this folder', placeholder: 'folder-id' },
      },
      async run(ctx) {
        const query = ctx.rest.join(' ');
        const hits = await (await ctx.weir()).knowledge.search(query, { limit: ctx.flags.limit, folder: ctx.flags.folder });
        return { data: hits, text: hits.length ? table(hits as unknown as Record<string, unknown>[], ['score', 'id', 'name', 'snippet']) : `no documents match "${query}"` };
      },
    },
    folders,
  ],
};
