import type { BlobSource } from '../resources/objects/blobs.js';

/** An object's metadata. */
export interface ObjectInfo {
  key: string;
  size: number;
  contentType: string;
  modified: string;
  sha256: string;
}

/**
 * Key-addressed object storage (`weir.objects`): streamed files under the home on the fs driver.
 * @example
 * await weir.objects.put('reports/q1.csv', 'a,b\n1,2\n')
 * const { body, contentType } = await weir.objects.get('reports/q1.csv')
 */
export interface Objects {
  /** Objects whose key starts with `prefix`, sorted by key. */
  list(prefix?: string): Promise<ObjectInfo[]>;
  /** Metadata of one object. */
  head(key: string): Promise<ObjectInfo>;
  /** Metadata and a stream of the content. */
  stream(key: string): Promise<{
    info: ObjectInfo;
    stream: NodeJS.ReadableStream;
  }>;
  /** Metadata and the whole content in memory (for small objects and flow nodes). */
  get(key: string): Promise<ObjectInfo & {
    body: Buffer;
  }>;
  /** Writes an object (replacing any previous one); the content type defaults to a guess from the key. */
  put(key: string, data: BlobSource, options?: {
    contentType?: string;
  }): Promise<ObjectInfo>;
  /** Deletes an object. */
  remove(key: string): Promise<ObjectInfo>;
}
