import { open, stat } from 'node:fs/promises';

/** Only the end of a big log is read for `logs -n`. */
const TAIL_BYTES = 4 * 1024 * 1024;

/**
 * The last `n` lines of a text file ([] when it does not exist).
 * @example
 * const lines = await tailLines('/home/.weir/devservers/shop.log', 50)
 */
export async function tailLines(file: string, n: number): Promise<string[]> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    return [];
  }
  const start = Math.max(0, size - TAIL_BYTES);
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(size - start);
    await fh.read(buf, 0, buf.length, start);
    const lines = buf.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (start > 0) lines.shift(); // a partial first line
    return n > 0 ? lines.slice(-n) : [];
  } finally {
    await fh.close();
  }
}

export interface FollowOptions {
  /** Start from this byte offset (usually the size when the tail was printed). */
  from: number;
  write(chunk: string): void;
  /** Following ends when this aborts (Ctrl-C) or `alive()` turns false (the server ended). */
  signal: AbortSignal;
  alive(): boolean;
  intervalMs?: number;
}

/**
 * Streams what is appended to a file until the signal aborts or the writer is gone. Polls the size: it works
 * the same on every file system (fs.watch misses appends on some).
 * @example
 * await followFile(log, { from: size, write: (s) => process.stdout.write(s), signal, alive: () => isAlive(pid) })
 */
export async function followFile(file: string, options: FollowOptions): Promise<void> {
  let offset = options.from;
  const step = async (): Promise<void> => {
    const size = await stat(file).then((s) => s.size, () => 0);
    if (size < offset) offset = 0; // truncated: a new server started on the same log
    if (size === offset) return;
    const fh = await open(file, 'r');
    try {
      const buf = Buffer.alloc(size - offset);
      await fh.read(buf, 0, buf.length, offset);
      offset = size;
      options.write(buf.toString('utf8'));
    } finally {
      await fh.close();
    }
  };
  while (!options.signal.aborted) {
    await step();
    if (!options.alive()) return step();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        options.signal.removeEventListener('abort', done);
        resolve();
      };
      const t = setTimeout(done, options.intervalMs ?? 200);
      options.signal.addEventListener('abort', done, { once: true });
    });
  }
}

/** The size of a file, 0 when absent. */
export const fileSize = (file: string) => stat(file).then((s) => s.size, () => 0);
