import { WeirError } from '../../errors.js';
import { checkObjectKey, hashKey } from '../../storage/keys.js';
import type { KeyValueStorage, Storages } from '../../storage/index.js';
import { readRecords } from '../../util/refs.js';
import { createBlobStore, type BlobSource } from './blobs.js';
import { contentTypeOf } from './content-type.js';
import type { Objects, ObjectInfo } from '../../types/objects.js';

export type { Objects, ObjectInfo } from '../../types/objects.js';

export { contentTypeOf, isTextType } from './content-type.js';
export { blobDir, createBlobStore, type BlobStore, type BlobSource } from './blobs.js';

export interface ObjectsOptions {
  storage: Storages;
  /** Directory for object bytes (streamed files); without one, bytes are raw items in the cloud mount. */
  dir?: string;
}

/**
 * Key-addressed object storage. Metadata lives in the `cloud` mount (`objects:<sha256 of key>`); bytes go to
 * `<home>/objects/` as files (streamed, never buffered whole) when the cloud mount is the default fs driver,
 * else to raw items under `blobs:objects`. Keys are path-like with no traversal (no `..` segments, no leading `/`).
 * @example
 * await weir.objects.put('reports/q1.csv', fs.createReadStream('q1.csv'))
 * const { info, stream } = await weir.objects.stream('reports/q1.csv')
 */
export function createObjects({ storage, dir }: ObjectsOptions): Objects {
  const meta: KeyValueStorage = storage.view('cloud', 'objects');
  const blobs = createBlobStore({ dir, storage: storage.view('cloud', 'blobs:objects') });

  async function head(key: string): Promise<ObjectInfo> {
    const info = await meta.getItem<ObjectInfo>(hashKey(checkObjectKey(key)));
    if (!info || typeof info !== 'object') throw new WeirError('NOT_FOUND', `object "${key}" not found`, { hints: ['run `weir storage ls` to see keys'] });
    return info;
  }

  async function stream(key: string): Promise<{ info: ObjectInfo; stream: NodeJS.ReadableStream }> {
    const info = await head(key);
    const body = await blobs.open(hashKey(key));
    if (!body) throw new WeirError('STORAGE', `object "${key}" has metadata but no content`, { hints: ['put it again or remove it'] });
    return { info, stream: body };
  }

  return {
    /** Objects whose key starts with `prefix`, sorted by key. */
    async list(prefix = ''): Promise<ObjectInfo[]> {
      const all = await readRecords<ObjectInfo>(meta);
      return all.filter((o) => typeof o.key === 'string' && o.key.startsWith(prefix)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },

    /** Metadata of one object. */
    head,

    /** Metadata and a stream of the content. */
    stream,

    /** Metadata and the whole content in memory (for small objects and flow nodes). */
    async get(key: string): Promise<ObjectInfo & { body: Buffer }> {
      const { info, stream: s } = await stream(key);
      const chunks: Buffer[] = [];
      for await (const chunk of s) chunks.push(Buffer.from(chunk as Buffer));
      return { ...info, body: Buffer.concat(chunks) };
    },

    /** Writes an object (replacing any previous one); the content type defaults to a guess from the key. */
    async put(key: string, data: BlobSource, options: { contentType?: string } = {}): Promise<ObjectInfo> {
      const id = hashKey(checkObjectKey(key));
      const { size, sha256 } = await blobs.write(id, data);
      const info: ObjectInfo = { key, size, contentType: options.contentType || contentTypeOf(key), modified: new Date().toISOString(), sha256 };
      await meta.setItem(id, info);
      return info;
    },

    /** Deletes an object. */
    async remove(key: string): Promise<ObjectInfo> {
      const info = await head(key);
      const id = hashKey(key);
      await meta.removeItem(id);
      await blobs.remove(id);
      return info;
    },
  };
}
