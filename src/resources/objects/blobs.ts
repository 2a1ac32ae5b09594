import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { WeirConfig } from '../../config.js';
import type { KeyValueStorage } from '../../storage/index.js';
import { newToken } from '../../util/ids.js';

/** Bytes to store: text, a buffer, or a stream (streamed to disk without buffering on the fs driver). */
export type BlobSource = string | Uint8Array | NodeJS.ReadableStream;

/** Content bytes addressed by a storage-safe id (`[A-Za-z0-9_-]`). */
export interface BlobStore {
  /** Writes (or replaces, atomically) a blob and returns its size and SHA-256. */
  write(id: string, source: BlobSource): Promise<{ size: number; sha256: string }>;
  /** A stream of the blob, or null when absent. */
  open(id: string): Promise<NodeJS.ReadableStream | null>;
  remove(id: string): Promise<void>;
}

/**
 * Where blobs go as plain files: `<home>/<name>` when the cloud mount is the default fs driver under the home;
 * otherwise blobs are raw items in the cloud mount (Redis and the like), which are buffered.
 * @example
 * const dir = blobDir({ home, config, injected: false }, 'objects') // '/srv/weir/objects'
 */
export function blobDir(opts: { home?: string; config: WeirConfig; injected: boolean }, name: string): string | undefined {
  const cloud = opts.config.storage?.cloud;
  const defaultFs = !cloud || (cloud.driver === 'fs' && cloud.base === undefined);
  return opts.home && !opts.injected && defaultFs ? join(opts.home, name) : undefined;
}

/** Counts and hashes bytes as they pass. */
function measure() {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ size, sha256: hash.digest('hex') }) };
}

const toStream = (source: BlobSource): NodeJS.ReadableStream =>
  typeof source === 'string' || source instanceof Uint8Array ? Readable.from([Buffer.from(source)]) : source;

/**
 * A blob store: files under `dir` (streamed through a temporary file renamed into place) or raw items in
 * `storage` when there is no dir.
 * @example
 * const blobs = createBlobStore({ dir: '/srv/weir/objects', storage: storage.view('cloud', 'blobs:objects') })
 * await blobs.write('ab12', fs.createReadStream('big.bin'))
 */
export function createBlobStore({ dir, storage }: { dir?: string; storage: KeyValueStorage }): BlobStore {
  if (!dir) {
    return {
      async write(id, source) {
        const chunks: Buffer[] = [];
        const m = measure();
        await pipeline(toStream(source), m.stream, async function* (src) {
          for await (const chunk of src) chunks.push(chunk as Buffer);
        });
        await storage.setItemRaw(id, Buffer.concat(chunks));
        return m.result();
      },
      async open(id) {
        const raw = await storage.getItemRaw<Uint8Array>(id);
        return raw ? Readable.from([Buffer.from(raw)]) : null;
      },
      async remove(id) {
        await storage.removeItem(id);
      },
    };
  }
  const pathOf = (id: string) => join(dir, id.slice(0, 2), id);
  return {
    async write(id, source) {
      const file = pathOf(id);
      await mkdir(dirname(file), { recursive: true });
      const tmp = `${file}.${newToken(6)}.tmp`;
      const m = measure();
      try {
        await pipeline(toStream(source), m.stream, createWriteStream(tmp));
        await rename(tmp, file);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
      return m.result();
    },
    async open(id) {
      const stream = createReadStream(pathOf(id));
      // Wait for the open so a missing file is `null` here rather than an error event later.
      return new Promise((resolve, reject) => {
        stream.once('open', () => resolve(stream));
        stream.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(null) : reject(err)));
      });
    },
    async remove(id) {
      await rm(pathOf(id), { force: true });
    },
  };
}
