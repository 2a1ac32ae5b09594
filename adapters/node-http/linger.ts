import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { HostResponse } from '../../src/internal.js';
import { sendResponse } from './transport.js';

/**
 * How long a refused body is still read and dropped after its answer: until the client stops sending for
 * `idleMs`, `ms` after the answer at most, `bytes` at most. Enough for a client on any link to read the
 * answer and stop; bounded so a sender that never stops costs little.
 */
export const LINGER = { ms: 2000, idleMs: 500, bytes: 64 * 1024 * 1024 };

/**
 * Answers a request whose body is refused unread (413, or any error before the body was read) and closes its
 * connection the way servers do it (nginx's lingering close): the answer goes out with `Connection: close`, the
 * write side is closed (FIN), and what the client still sends is read and dropped within {@link LINGER} before
 * the socket is destroyed. Destroying at once, with the client's bytes unread, makes the kernel answer them
 * with a reset, and a client still writing its body (curl streaming a large upload) then fails on its next
 * write before it has read the answer.
 * @example
 * answerAndLinger(req, res, errorResponse(tooLarge(maxBody)))
 */
export function answerAndLinger(req: IncomingMessage, res: ServerResponse, answer: HostResponse): void {
  const socket = req.socket;
  // node:http ends a `Connection: close` answer with socket.destroySoon() (end, then destroy once the answer
  // is flushed), or with socket.end() where a socket has none: this socket only ends, and drains.
  socket.destroySoon = () => socket.end();
  drainThenDestroy(req, socket);
  sendResponse(res, answer, { connection: 'close' });
}

/** Reads and drops the rest of `req` until the client stops or a bound of {@link LINGER} is reached. */
function drainThenDestroy(req: IncomingMessage, socket: Socket): void {
  let dropped = 0;
  const stop = () => {
    clearTimeout(idle);
    clearTimeout(deadline);
    socket.destroy();
  };
  let idle = setTimeout(stop, LINGER.idleMs);
  const deadline = setTimeout(stop, LINGER.ms);
  socket.once('close', stop);
  // The body arrives through node's parser as `req` data (a listener here also keeps node from dumping it
  // unseen); once the request ends nothing more is owed.
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER.bytes) return stop();
    clearTimeout(idle);
    idle = setTimeout(stop, LINGER.idleMs);
  });
  req.once('end', stop);
  req.resume();
}
