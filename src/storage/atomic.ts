import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, writeFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

let counter = 0;

/**
 * Writes a file so that readers see either the old or the new content, never a torn one: the bytes go to a
 * temporary sibling that is renamed over the target (rename is atomic within one file system).
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.${++counter}.tmp`;
  try {
    await writeFile(tmp, data);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(tmp, data);
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
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
export function writeFileSyncInDir(file: string, data: string | Uint8Array): void {
  try {
    writeFileSync(file, data);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, data);
  }
}

/** Temporary files left by a writer that died mid-write; listings skip them. */
export const isTempFile = (name: string): boolean => /\.\d+\.\d+\.tmp$/.test(name);
