import type { IncomingMessage } from 'node:http';
import { WeirError } from '../../src/errors.js';

/** The default request body limit: 1 MiB (CONTRACT 5, `weir serve --max-body`). */
export const DEFAULT_MAX_BODY = 1024 * 1024;

const tooLarge = (max: number) =>
  new WeirError('PAYLOAD_TOO_LARGE', `request body is larger than ${max} bytes`, { hints: ['the host limit is set with `weir serve --max-body BYTES`'] });

/**
 * Reads a request body of at most `max` bytes. A Content-Length above the limit fails before a byte is
 * read; a streamed body fails as soon as it passes the limit, and reading stops there (the caller answers
 * 413 and closes the connection, so the rest is never read).
 * @example
 * const raw = await readBody(req, 1024 * 1024)
 */
export function readBody(req: IncomingMessage, max = DEFAULT_MAX_BODY): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > max) return Promise.reject(tooLarge(max));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        cleanup();
        req.pause();
        reject(tooLarge(max));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
