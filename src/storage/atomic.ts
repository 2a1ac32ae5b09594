import { closeSync, constants, ftruncateSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { link, mkdir, open, rename, writeFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

let counter = 0;

/** Writes `data` to a temporary sibling of `file` (making its folder if need be) and returns the sibling's path. */
async function writeSibling(file: string, data: string | Uint8Array): Promise<string> {
  const tmp = `${file}.${process.pid}.${++counter}.tmp`;
  try {
    await writeFile(tmp, data);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(tmp, data);
  }
  return tmp;
}

/**
 * Writes a file so that readers see either the old or the new content, never a torn one: the bytes go to a
 * temporary sibling that is renamed over the target (rename is atomic within one file system).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = await writeSibling(file, data);
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Creates `file` holding `data` unless a file of that name exists: true for exactly one of any number of
 * callers, in any process on the same file system. The bytes go to a temporary sibling that is then linked
 * in under the name (a link fails when the name exists, atomically on local disks and NFS), so a reader never
 * sees a partial file and a kill -9 leaves at most a temporary file that listings skip.
 * @example
 * if (await createFileOnce('/srv/weir/cloud/workflow-versions/wf_1/4', '{}')) publishAs(4)
 */
export async function createFileOnce(file: string, data: string | Uint8Array): Promise<boolean> {
  const tmp = await writeSibling(file, data);
  try {
    await link(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * {@link writeFileAtomic} without leaving the calling thread: for small records, where the four thread-pool
 * round trips of the async version cost several times the CPU of the system calls themselves.
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.${++counter}.tmp`;
  writeFileSyncInDir(tmp, data);
  try {
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** `writeFileSync` that creates the parent folder when it does not exist yet (a write in place, not atomic). */
function writeFileSyncInDir(file: string, data: string | Uint8Array): void {
  try {
    writeFileSync(file, data);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, data);
  }
}

/** Open for writing, created when absent, not truncated: {@link overwrite} cuts the file to its new length itself. */
const OVERWRITE = constants.O_WRONLY | constants.O_CREAT;

/**
 * Overwrites a file where it is (created when absent): cut to the new length, then written from its start,
 * without the temporary file and rename of {@link writeFileAtomic}. Creating a file and freeing the one a
 * rename replaces cost ext4 10 to 20 times this write. A reader may see a torn value, and so may a kill -9
 * mid-write leave one: the pages are written in order, so a torn file holds the start of the new value
 * and, past the tear, what was there before. Only for callers that tell a torn value from a whole one.
 */
export function overwriteSync(file: string, data: string): void {
  const bytes = Buffer.from(data);
  let fd: number;
  try {
    fd = openSync(file, OVERWRITE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(file), { recursive: true });
    fd = openSync(file, OVERWRITE);
  }
  try {
    ftruncateSync(fd, bytes.length);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at, at);
  } finally {
    closeSync(fd);
  }
}

/** {@link overwriteSync} on the thread pool, for large values. */
export async function overwrite(file: string, data: string): Promise<void> {
  const bytes = Buffer.from(data);
  const handle = await open(file, OVERWRITE).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
    await mkdir(dirname(file), { recursive: true });
    return open(file, OVERWRITE);
  });
  try {
    await handle.truncate(bytes.length);
    for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at, bytes.length - at, at)).bytesWritten;
  } finally {
    await handle.close();
  }
}

/** Temporary files left by a writer that died mid-write; listings skip them. */
export const isTempFile = (name: string): boolean => /\.\d+\.\d+\.tmp$/.test(name);
