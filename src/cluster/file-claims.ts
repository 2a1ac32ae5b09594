import { mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Options of {@link fileClaims}. */
export interface FileClaimsOptions {
  /** The folder holding one empty file per claim (shared by every process on the home). */
  dir: string;
  /** Claims of times older than this are removed (they can no longer be contested). */
  ttlMs: number;
  now?: () => number;
}

/**
 * Claims on a file system of one name at one time (a schedule's fire time, a wait's due time): the first
 * process to create `<time>-<name>` exclusively (`open(..., 'wx')`, atomic on local disks and NFSv3+) does
 * that work, every other gets EEXIST and skips it. Nothing is owned beyond one time, so a host that dies (even
 * by SIGKILL) blocks nothing: the others claim the next times. Claims of old times made long ago are swept now
 * and then (the time leads the file name), by a claim and, once this process claimed anything, every quarter
 * of `ttlMs` even when it claims nothing more.
 * @example
 * const claim = fileClaims({ dir: join(home, 'run', 'schedule-claims'), ttlMs: 3_600_000 })
 * if (await claim('wf_1', Date.parse('2026-11-01T06:30:00Z'))) run()
 */
export function fileClaims(options: FileClaimsOptions): (name: string, at: number) => Promise<boolean> {
  const { dir, ttlMs } = options;
  const now = options.now ?? Date.now;
  let sweptAt = 0;
  // Armed by the first claim: an idle process sweeps too, so the claims of its last busy hour go.
  let idleSweep: ReturnType<typeof setInterval> | null = null;

  async function create(file: string): Promise<boolean> {
    try {
      await (await open(file, 'wx')).close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  async function sweep(): Promise<void> {
    const before = now() - ttlMs;
    for (const name of await readdir(dir)) {
      const file = join(dir, name);
      // An old time claimed lately (a catch-up run at start) stays until its claim is old too.
      if (Number(name.slice(0, name.indexOf('-'))) >= before) continue;
      // Another host's sweep may have taken the file already.
      const made = await stat(file).catch(() => null);
      if (made && made.mtimeMs < before) await unlink(file).catch(() => {});
    }
  }

  return async (flowId, at) => {
    const file = join(dir, `${at}-${encodeURIComponent(flowId)}`);
    let mine: boolean;
    try {
      mine = await create(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await mkdir(dir, { recursive: true });
      mine = await create(file);
    }
    if (mine && now() - sweptAt > ttlMs / 4) {
      sweptAt = now();
      // Losing a sweep only leaves files for the next one; it never affects the time being claimed.
      void sweep().catch(() => {});
    }
    if (!idleSweep) {
      idleSweep = setInterval(() => void sweep().catch(() => {}), ttlMs / 4);
      idleSweep.unref();
    }
    return mine;
  };
}
