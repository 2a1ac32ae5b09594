import type { BlobSource } from '../resources/objects/blobs.js';
import type { SearchHit } from '../resources/knowledge/search.js';

export interface KnowledgeFolder {
  id: string;
  name: string;
  parentId: string | null;
  createdAt: string;
}

export interface KnowledgeDocument {
  id: string;
  name: string;
  folderId: string | null;
  contentType: string;
  size: number;
  sha256: string;
  /** The unguessable part of the public URL (`/kb/<token>`). */
  token: string;
  createdAt: string;
}

/**
 * The knowledge base (`weir.knowledge`): folders, documents, public URLs by token, full-text search.
 * @example
 * const doc = await weir.knowledge.upload({ name: 'refunds.md', data: '# Refunds\nWithin 30 days.' })
 * await weir.knowledge.search('refund') // [{ id: doc.id, name: 'refunds.md', snippet: ... }]
 */
export interface Knowledge {
  /** Every folder and document. */
  list(): Promise<{
    folders: KnowledgeFolder[];
    documents: KnowledgeDocument[];
  }>;
  listFolders(): Promise<KnowledgeFolder[]>;
  /** Creates a folder, optionally inside another (by id or name); names are unique within a parent. */
  createFolder(name: string, parentRef?: string): Promise<KnowledgeFolder>;
  /**
   * Deletes a folder. A folder holding documents or folders is refused unless `recursive`, which deletes
   * everything below it.
   */
  deleteFolder(ref: string, options?: {
    recursive?: boolean;
  }): Promise<{
    folder: KnowledgeFolder;
    documents: number;
    folders: number;
  }>;
  /** Uploads a document (bytes streamed to the blob store), optionally into a folder. */
  upload(file: {
    name: string;
    data: BlobSource;
    contentType?: string;
  }, folderRef?: string): Promise<KnowledgeDocument>;
  /** A document's metadata, plus its text for text types. */
  get(ref: string): Promise<KnowledgeDocument & {
    content?: string;
  }>;
  /** The public URL of a document: `<publicUrl>/kb/<token>`, answered by `weir serve`. */
  url(ref: string): Promise<{
    id: string;
    name: string;
    url: string;
  }>;
  /** Deletes a document (its public URL then answers 404). */
  delete(ref: string): Promise<KnowledgeDocument>;
  /** The document a public-URL token names, or null. */
  byToken(token: string): Promise<KnowledgeDocument | null>;
  /** A stream of a document's bytes. */
  open(id: string): Promise<NodeJS.ReadableStream>;
  /** Full-text search over text, markdown, HTML and JSON documents (optionally within one folder). */
  search(query: string, options?: {
    limit?: number;
    folder?: string;
  }): Promise<SearchHit[]>;
}
