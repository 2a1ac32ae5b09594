import { WeirError } from '../../errors.js';
import type { KeyValueStorage, Storages } from '../../storage/index.js';
import { newId, newToken, sha256 } from '../../util/ids.js';
import { findByRef, mapLimit, readRecords } from '../../util/refs.js';
import { createBlobStore, type BlobSource } from '../objects/blobs.js';
import { contentTypeOf, isTextType } from '../objects/content-type.js';
import { createSearchIndex, type IndexedDoc, type SearchHit } from './search.js';
import { extractText } from './text.js';
import type { Knowledge, KnowledgeFolder, KnowledgeDocument } from '../../types/knowledge.js';

export type { Knowledge, KnowledgeFolder, KnowledgeDocument } from '../../types/knowledge.js';

export type { SearchHit } from './search.js';

export interface KnowledgeOptions {
  storage: Storages;
  /** The base of the URLs the host answers from outside (e.g. `https://hooks.example.com`), asked per URL. */
  publicBase(): string;
  /** Directory for document bytes (see `blobDir`); raw items in the cloud mount without one. */
  dir?: string;
}

const DOCS = 'weir knowledge list';

/**
 * The knowledge base: nested folders and documents (bytes in the blob store, metadata and extracted text in the
 * `cloud` mount), public URLs by token, and full-text search over text, markdown, HTML and JSON documents.
 * @example
 * const folder = await weir.knowledge.createFolder('policies')
 * const doc = await weir.knowledge.upload({ name: 'refunds.md', data: '# Refunds\nWithin 30 days.' }, folder.id)
 * await weir.knowledge.search('refund') // [{ id: doc.id, name: 'refunds.md', snippet: ... }]
 */
export function createKnowledge({ storage, publicBase, dir }: KnowledgeOptions): Knowledge {
  const folders: KeyValueStorage = storage.view('cloud', 'knowledge:folders');
  const docs: KeyValueStorage = storage.view('cloud', 'knowledge:docs');
  const tokens: KeyValueStorage = storage.view('cloud', 'knowledge:tokens');
  const texts: KeyValueStorage = storage.view('cloud', 'knowledge:text');
  const blobs = createBlobStore({ dir, storage: storage.view('cloud', 'blobs:knowledge') });
  const index = createSearchIndex();

  const allFolders = async () => (await readRecords<KnowledgeFolder>(folders)).sort((a, b) => a.name.localeCompare(b.name));
  const allDocs = async () => (await readRecords<KnowledgeDocument>(docs)).sort((a, b) => a.name.localeCompare(b.name));
  const folder = async (ref: string) => findByRef(await allFolders(), ref, 'folder', 'weir knowledge folders list');
  const document = async (ref: string) => findByRef(await allDocs(), ref, 'document', DOCS);

  async function readText(id: string, limit = Infinity): Promise<Buffer> {
    const stream = await blobs.open(id);
    if (!stream) throw new WeirError('STORAGE', `document "${id}" has metadata but no content`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      chunks.push(Buffer.from(chunk as Buffer));
      if ((size += (chunk as Buffer).length) >= limit) break;
    }
    return Buffer.concat(chunks);
  }

  async function removeDoc(doc: KnowledgeDocument) {
    await docs.removeItem(doc.id);
    await Promise.all([tokens.removeItem(sha256(doc.token)), texts.removeItem(doc.id), blobs.remove(doc.id)]);
  }

  const api = {
    /** Every folder and document. */
    async list(): Promise<{ folders: KnowledgeFolder[]; documents: KnowledgeDocument[] }> {
      const [f, d] = await Promise.all([allFolders(), allDocs()]);
      return { folders: f, documents: d };
    },

    listFolders: allFolders,

    /** Creates a folder, optionally inside another (by id or name); names are unique within a parent. */
    async createFolder(name: string, parentRef?: string): Promise<KnowledgeFolder> {
      if (!name?.trim()) throw new WeirError('INVALID_INPUT', 'a folder name must not be empty');
      const parentId = parentRef ? (await folder(parentRef)).id : null;
      if ((await allFolders()).some((f) => f.name === name && f.parentId === parentId)) {
        throw new WeirError('EXISTS', `a folder named "${name}" already exists ${parentId ? `in ${parentId}` : 'at the top level'}`);
      }
      const f: KnowledgeFolder = { id: newId('fld'), name, parentId, createdAt: new Date().toISOString() };
      await folders.setItem(f.id, f);
      return f;
    },

    /**
     * Deletes a folder. A folder holding documents or folders is refused unless `recursive`, which deletes
     * everything below it.
     */
    async deleteFolder(ref: string, options: { recursive?: boolean } = {}): Promise<{ folder: KnowledgeFolder; documents: number; folders: number }> {
      const [fs, ds] = await Promise.all([allFolders(), allDocs()]);
      const target = findByRef(fs, ref, 'folder', 'weir knowledge folders list');
      const below = new Set([target.id]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const f of fs) if (f.parentId && below.has(f.parentId) && !below.has(f.id)) (below.add(f.id), (grew = true));
      }
      const inside = ds.filter((d) => d.folderId && below.has(d.folderId));
      if ((below.size > 1 || inside.length) && !options.recursive) {
        throw new WeirError('CONFLICT', `folder "${target.name}" is not empty (${inside.length} document(s), ${below.size - 1} folder(s))`, {
          hints: ['delete what it holds first, or pass --recursive to delete everything in it'],
        });
      }
      for (const d of inside) await removeDoc(d);
      for (const id of below) await folders.removeItem(id);
      return { folder: target, documents: inside.length, folders: below.size - 1 };
    },

    /** Uploads a document (bytes streamed to the blob store), optionally into a folder. */
    async upload(file: { name: string; data: BlobSource; contentType?: string }, folderRef?: string): Promise<KnowledgeDocument> {
      if (!file.name?.trim()) throw new WeirError('INVALID_INPUT', 'a document needs a name');
      const folderId = folderRef ? (await folder(folderRef)).id : null;
      const id = newId('doc');
      const { size, sha256: hash } = await blobs.write(id, file.data);
      const doc: KnowledgeDocument = {
        id,
        name: file.name,
        folderId,
        contentType: file.contentType || contentTypeOf(file.name),
        size,
        sha256: hash,
        token: newToken(),
        createdAt: new Date().toISOString(),
      };
      const text = extractText(await readText(id, 2 * 1024 * 1024), doc.contentType);
      if (text !== null) await texts.setItem(id, { text });
      await tokens.setItem(sha256(doc.token), { id });
      await docs.setItem(id, doc);
      return doc;
    },

    /** A document's metadata, plus its text for text types. */
    async get(ref: string): Promise<KnowledgeDocument & { content?: string }> {
      const doc = await document(ref);
      const text = isTextType(doc.contentType) ? (await readText(doc.id)).toString('utf8') : undefined;
      return { ...doc, ...(text === undefined ? {} : { content: text }) };
    },

    /** The public URL of a document: `<publicUrl>/kb/<token>`, answered by `weir serve`. */
    async url(ref: string): Promise<{ id: string; name: string; url: string }> {
      const doc = await document(ref);
      return { id: doc.id, name: doc.name, url: `${publicBase()}/kb/${doc.token}` };
    },

    /** Deletes a document (its public URL then answers 404). */
    async delete(ref: string): Promise<KnowledgeDocument> {
      const doc = await document(ref);
      await removeDoc(doc);
      return doc;
    },

    /** The document a public-URL token names, or null. */
    async byToken(token: string): Promise<KnowledgeDocument | null> {
      if (!/^[A-Za-z0-9_-]{16,}$/.test(token)) return null;
      const ref = await tokens.getItem<{ id: string }>(sha256(token));
      const doc = ref && typeof ref === 'object' ? await docs.getItem<KnowledgeDocument>(ref.id) : null;
      return doc && typeof doc === 'object' && doc.token === token ? doc : null;
    },

    /** A stream of a document's bytes. */
    async open(id: string): Promise<NodeJS.ReadableStream> {
      const stream = await blobs.open(id);
      if (!stream) throw new WeirError('NOT_FOUND', `document "${id}" has no content`);
      return stream;
    },

    /** Full-text search over text, markdown, HTML and JSON documents (optionally within one folder). */
    async search(query: string, options: { limit?: number; folder?: string } = {}): Promise<SearchHit[]> {
      if (!query?.trim()) throw new WeirError('INVALID_INPUT', 'a search query must not be empty');
      const folderId = options.folder ? (await folder(options.folder)).id : undefined;
      const all = await allDocs();
      const indexed = (await mapLimit(all, 32, async (d) => ({ d, t: await texts.getItem<{ text: string }>(d.id) }))).filter((x) => x.t && typeof x.t.text === 'string');
      const signature = indexed.map(({ d }) => `${d.id}:${d.sha256}:${d.folderId}`).join(',');
      const items: IndexedDoc[] = indexed.map(({ d, t }) => ({ id: d.id, name: d.name, folderId: d.folderId, text: t!.text }));
      const hits = await index.search(items, signature, query, folderId ? Number.MAX_SAFE_INTEGER : options.limit ?? 10);
      return folderId ? hits.filter((h) => h.folderId === folderId).slice(0, options.limit ?? 10) : hits;
    },
  };
  return api;
}
