import { once } from 'node:events';

/** Anything with `write` (a Writable, process.stdout, or a test's capture object). */
export interface WriteTarget {
  write(chunk: any): unknown;
  once?: (event: string, listener: () => void) => unknown;
}

/**
 * Copies chunks to a target with backpressure, without ending it (stdout must stay open).
 * @example
 * await copyTo(fs.createReadStream('big.bin'), process.stdout)
 */
export async function copyTo(source: AsyncIterable<unknown>, target: WriteTarget): Promise<number> {
  let bytes = 0;
  for await (const chunk of source) {
    bytes += (chunk as { length: number }).length;
    if (target.write(chunk) === false && typeof target.once === 'function') await once(target as any, 'drain');
  }
  return bytes;
}
