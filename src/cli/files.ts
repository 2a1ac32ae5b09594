import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { WeirError } from '../errors.js';
import { copyTo } from '../util/streams.js';

/** A stream of a file named on the command line (relative to the CLI's cwd); missing -> NOT_FOUND. */
export async function openInput(cwd: string, file: string): Promise<NodeJS.ReadableStream> {
  const path = resolve(cwd, file);
  const s = await stat(path).catch(() => null);
  if (!s) throw new WeirError('NOT_FOUND', `file not found: ${file}`);
  if (!s.isFile()) throw new WeirError('INVALID_INPUT', `not a file: ${file}`);
  return createReadStream(path);
}

/**
 * Streams chunks into a file named on the command line and waits until they are on disk.
 * @example
 * await writeOutput(ctx.io.cwd, 'out.csv', (out) => weir.tables.export('user.t', out))
 */
export async function writeOutput<T>(cwd: string, file: string, fill: (out: NodeJS.WritableStream) => Promise<T>): Promise<T> {
  const out = createWriteStream(resolve(cwd, file));
  const opened = once(out, 'open');
  try {
    await opened;
    const result = await fill(out);
    out.end();
    await once(out, 'finish');
    return result;
  } catch (err) {
    out.destroy();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw new WeirError('INVALID_INPUT', `cannot write ${file}: ${(err as Error).message}`);
    throw err;
  }
}

/** Copies a stream into a file named on the command line; returns the byte count. */
export const streamToFile = (cwd: string, file: string, source: AsyncIterable<unknown>) => writeOutput(cwd, file, (out) => copyTo(source, out));

/** A throttled progress line on stderr, only when stderr is a terminal; `done()` clears it. */
export function progress(stderr: { write(s: string): unknown; isTTY?: boolean }, label: (n: number) => string) {
  if (!stderr.isTTY) return { tick: undefined, done() {} };
  let last = 0;
  return {
    tick(n: number) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      stderr.write(`\r${label(n)}`);
    },
    done() {
      if (last) stderr.write('\r\x1b[K');
    },
  };
}
