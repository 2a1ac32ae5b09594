import { PassThrough } from 'node:stream';
import type { HostRequest, HostResponse } from '../../types/http.js';
import { onAbort } from '../../util/abort.js';

/** How often an idle stream sends a comment, so proxies and load balancers do not close it (they often cut at 30-60 s). */
export const HEARTBEAT_MS = 15_000;

/** An open server-sent event stream. */
export interface EventStream {
  /** The answer that carries the stream. */
  response: HostResponse;
  send(id: string, event: string, data: unknown): void;
  /** Ends the stream (the client sees it close). */
  end(): void;
  /** Called once when the stream ends, by `end` or because the client went away. */
  onClose(fn: () => void): void;
}

/**
 * Opens a `text/event-stream` answer: events written as they come, a heartbeat comment every
 * {@link HEARTBEAT_MS}, and everything stopped when the client goes away (the request's signal, or the
 * transport destroying the stream).
 * @example
 * const sse = openEventStream(req)
 * sse.send('a1-7', 'node:end', { nodeId: 'set-1' })
 * sse.onClose(() => unfollow())
 */
export function openEventStream(req: HostRequest): EventStream {
  const stream = new PassThrough();
  const closers: Array<() => void> = [];
  let closed = false;
  // Set below; a client gone already (its signal aborted) closes the stream before onAbort answers.
  let forget = () => {};
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    forget();
    closers.splice(0).forEach((fn) => fn());
    if (!stream.writableEnded) stream.end();
  };
  const heartbeat = setInterval(() => stream.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  if (req.signal) forget = onAbort(req.signal, close);
  stream.once('close', close);
  // A first comment sends the headers at once: the client knows the stream is open before any event.
  if (!closed) stream.write(': open\n\n');
  return {
    response: {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
      stream,
    },
    send(id, event, data) {
      if (!closed) stream.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end: close,
    onClose(fn) {
      if (closed) fn();
      else closers.push(fn);
    },
  };
}
