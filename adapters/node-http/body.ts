import type { IncomingMessage } from 'node:http';
import { DEFAULT_MAX_BODY, WeirError, onAbort, tooLarge } from '../../src/internal.js';

/**
 * Reads a request body of at most `max` bytes. A Content-Length above the limit fails before a byte is
 * read; a streamed body fails as soon as it passes the limit, and reading stops there (the caller answers
 * 413 and closes the connection, dropping what still arrives: `answerAndLinger`). A request whose connection
 * closes before the body ended fails at once, and so does one still being read when `signal` aborts (the
 * host shutting down): neither can complete, so nothing waits on them.
 * @example
 * const raw = await readBody(req, 1024 * 1024)
 */
export function readBody(req: IncomingMessage, max = DEFAULT_MAX_BODY, signal?: AbortSignal): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > max) return Promise.reject(tooLarge(max));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (err: Error) => {
      cleanup();
      req.pause();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) fail(tooLarge(max));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onClose = () => fail(new Error('the connection closed before the request body ended'));
    let forget = () => {};
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', fail);
      req.off('close', onClose);
      forget();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', fail);
    req.on('close', onClose);
    if (signal) forget = onAbort(signal, () => fail(new WeirError('UNAVAILABLE', 'the host is shutting down')));
  });
}
