import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { defineDriver } from 'unstorage';
import { WeirError } from '../errors.js';
import { createFileOnce, isTempFile, overwrite, overwriteSync, writeFileAtomic, writeFileAtomicSync } from './atomic.js';

/**
 * Records up to this many characters are written synchronously (see `setItem`); larger ones go through the
 * thread pool. 64 KiB was tried: in isolation a Respond-flow host then spent less CPU per request, but in
 * the host bench's later rounds (the disk busy with the durable host's files) the synchronous writes of
 * whole execution batches doubled it, while 16 KiB held steady in every round (figures: docs/performance.md).
 */
const SYNC_WRITE_MAX = 16 * 1024;

export interface FsDriverOptions {
  base: string;
}

/**
 * The embedded default driver: one file per key under `base`, written atomically (no torn file after a kill -9).
 * unstorage's own `fs` driver writes in place, so a kill -9 mid-write could leave half a record.
 */
export const fsDriver = defineDriver((opts: FsDriverOptions) => {
  const base = resolve(opts.base);
  const toPath = (key: string): string => {
    const file = resolve(base, key.replace(/:/g, sep));
    if (file !== base && !file.startsWith(base + sep)) throw new Error(`storage key escapes its mount: ${key}`);
    return file;
  };
  const readOrNull = async (key: string, encoding?: 'utf8') => {
    try {
      return encoding ? await readFile(toPath(key), encoding) : await readFile(toPath(key));
    } catch (err) {
      if (['ENOENT', 'EISDIR', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return null;
      throw err;
    }
  };
  // One file per key: a key cannot hold a value and be the folder of longer keys at once (`a` and `a:b`).
  // The file system's ENOTDIR/EISDIR would name a temporary file; this names the keys.
  const written = async (key: string, write: () => unknown): Promise<void> => {
    try {
      await write();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTDIR' && code !== 'EISDIR' && code !== 'EEXIST') throw err;
      const why = code === 'EISDIR' ? 'keys beneath it hold values' : 'a key above it holds a value';
      throw new WeirError('CONFLICT', `storage key ${JSON.stringify(key)} cannot be written: ${why}, and the fs driver keeps one file per key`, { cause: err });
    }
  };
  const walk = async (dir: string, prefix: string, out: string[]): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    await Promise.all(
      entries.map(async (entry) => {
        const key = prefix ? `${prefix}:${entry.name}` : entry.name;
        if (entry.isDirectory()) await walk(join(dir, entry.name), key, out);
        else if (!isTempFile(entry.name)) out.push(key);
      }),
    );
  };
  return {
    name: 'weir-fs',
    options: opts,
    async hasItem(key) {
      try {
        return (await stat(toPath(key))).isFile();
      } catch {
        return false;
      }
    },
    getItem: (key) => readOrNull(key, 'utf8'),
    // Batch reads (listings) read small records synchronously: one syscall chain per file instead of three
    // thread-pool round trips, several times faster for the hundreds of records a listing reads.
    getItems(items) {
      return items.map(({ key }) => {
        try {
          return { key, value: readFileSync(toPath(key), 'utf8') };
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { key, value: null };
          throw err;
        }
      });
    },
    getItemRaw: (key) => readOrNull(key),
    // Small records (execution records, indexes) are written synchronously: open/write/close/rename on the
    // thread pool cost about twice the CPU of the system calls themselves, and the calling thread waits
    // less than a thread-pool round trip. Large values keep the async path so the event loop stays free.
    // `{ inPlace: true }`: the file is overwritten where it is (see `overwrite`), for callers that tell a torn
    // value from a whole one.
    async setItem(key, value, opts?: { inPlace?: boolean }) {
      await written(key, () => {
        const large = typeof value !== 'string' || value.length > SYNC_WRITE_MAX;
        if (opts?.inPlace && typeof value === 'string') return large ? overwrite(toPath(key), value) : overwriteSync(toPath(key), value);
        if (large) return writeFileAtomic(toPath(key), value);
        writeFileAtomicSync(toPath(key), value);
      });
    },
    async setItemRaw(key, value) {
      await written(key, () => writeFileAtomic(toPath(key), value));
    },
    /** Writes `value` only where `key` is absent: true for exactly one writer across processes (see `setItemIfAbsent`). */
    async setItemIfAbsent(key: string, value: string): Promise<boolean> {
      let created = false;
      await written(key, async () => (created = await createFileOnce(toPath(key), value)));
      return created;
    },
    // One unlink on the calling thread, like a small write: `rm` would first stat the path on the thread pool
    // to tell a folder from a file, and a key is always a file. An absent one (a checkpoint's second copy,
    // most often) is told by `existsSync`, several times cheaper than the exception of unlink.
    async removeItem(key) {
      try {
        const file = toPath(key);
        if (existsSync(file)) unlinkSync(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    },
    async getMeta(key) {
      try {
        const s = await stat(toPath(key));
        return { atime: s.atime, mtime: s.mtime, size: s.size };
      } catch {
        return null;
      }
    },
    async getKeys(prefix) {
      const out: string[] = [];
      // Only a whole-segment prefix (`a:b:`) narrows the walk; unstorage filters the rest.
      const dirKey = prefix?.endsWith(':') ? prefix.slice(0, -1) : '';
      await walk(dirKey ? toPath(dirKey) : base, dirKey, out);
      return out;
    },
    async clear(prefix) {
      await rm(prefix ? toPath(prefix) : base, { recursive: true, force: true });
    },
  };
});
