import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { isTempFile } from '../storage/atomic.js';

/** One stored thing as `weir doctor` counts it: a storage key or a home-relative path, its size when known. */
export interface Entry {
  /** A storage key (`executions:runs:wf_1:…`) or, for files outside the mounts, a `/`-separated path. */
  name: string;
  /** Bytes on disk; null when the store cannot tell cheaply (Redis). */
  bytes: number | null;
  /** When the file was last written (files only). */
  mtimeMs?: number;
}

/**
 * The files under `dir` (temporary files of unfinished atomic writes left out, folders in `skip` not entered),
 * each named by its path relative to `root` joined with `separator`.
 * @example
 * await filesUnder('/srv/weir/cloud', '/srv/weir/cloud', ':') // [{ name: 'executions:runs:wf_1:…', bytes: 812 }, …]
 */
export async function filesUnder(dir: string, root: string, separator: string, skip: ReadonlySet<string> = new Set()): Promise<Entry[]> {
  const out: Entry[] = [];
  const walk = async (at: string): Promise<void> => {
    const entries = await readdir(at, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [];
      throw err;
    });
    await Promise.all(
      entries.map(async (entry) => {
        const path = join(at, entry.name);
        if (entry.isDirectory()) return skip.has(path) ? undefined : walk(path);
        if (!entry.isFile() || isTempFile(entry.name)) return;
        const s = await stat(path).catch(() => null);
        if (s) out.push({ name: relative(root, path).split(sep).join(separator), bytes: s.size, mtimeMs: s.mtimeMs });
      }),
    );
  };
  await walk(dir);
  return out;
}
