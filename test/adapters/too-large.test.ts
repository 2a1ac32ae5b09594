// A sender streaming a body far over the limit reads its 413 every time (issue #34): the host answers,
// closes its side and drops what still arrives for a bounded time before it closes the connection, instead
// of closing with the client's bytes unread (the kernel then resets the connection, and a client still
// writing, such as curl, failed on its next write before it read the answer: 1 try in 5 at 1 GB).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from 'node:net';
import { LINGER } from '../../adapters/node-http/linger.js';
import { publish, startHost } from '../host/_helpers.js';

type Host = Awaited<ReturnType<typeof startHost>>;
let host: Host;
let path: string;
const LIMIT = 64 * 1024;
const STREAM = 200 * 1024 * 1024;
const TRIES = 5;

test.before(async () => {
  host = await startHost({ maxBody: LIMIT });
  const f = await publish(host.weir, 'too-large', { type: 'webhook_trigger' });
  path = `/trigger/${f.token}`;
});
test.after(() => host.close());

interface Outcome {
  /** The first final status line read (1xx skipped), or ''. */
  status: string;
  /** A socket error (a reset, a broken pipe), or ''. */
  error: string;
  sent: number;
  ms: number;
}

/**
 * Streams a body of `STREAM` bytes as fast as the connection takes it (chunked, or with its Content-Length),
 * reading at the same time; like curl, it stops sending once it has read a final answer, unless `ignoreAnswer`.
 */
function stream(framing: 'chunked' | 'length', ignoreAnswer = false): Promise<Outcome> {
  const started = Date.now();
  const socket = connect(Number(new URL(host.url).port), '127.0.0.1');
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const frame = framing === 'chunked' ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
  const out: Outcome = { status: '', error: '', sent: 0, ms: 0 };
  let text = '';
  let stopped = false;
  const pump = () => {
    while (!stopped && out.sent < STREAM) {
      out.sent += chunk.length;
      if (!socket.write(frame)) return void socket.once('drain', pump);
    }
  };
  socket.on('connect', () => {
    const length = framing === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${STREAM}`;
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n${length}\r\n\r\n`);
    pump();
  });
  socket.on('data', (d) => {
    text += d;
    out.status ||= /HTTP\/1\.1 ([2-5]\d\d)/.exec(text)?.[1] ?? '';
    if (out.status && !ignoreAnswer && !stopped) {
      stopped = true;
      socket.end();
    }
  });
  socket.on('error', (err: NodeJS.ErrnoException) => (out.error ||= err.code ?? err.message));
  return new Promise((resolve) => socket.once('close', () => resolve({ ...out, ms: Date.now() - started })));
}

for (const framing of ['chunked', 'length'] as const) {
  test(`streaming 200 MB (${framing}): every try reads the 413, with no reset, and the host reads no more than it must`, async () => {
    for (let i = 0; i < TRIES; i++) {
      const got = await stream(framing);
      const what = `try ${i + 1}: ${JSON.stringify(got)}`;
      assert.is(got.status, '413', what);
      assert.is(got.error, '', what);
      assert.ok(got.sent < STREAM, what);
    }
  });
}

test('a sender that never stops after its 413 is cut off within the bound', async () => {
  const got = await stream('chunked', true);
  const what = JSON.stringify(got);
  assert.is(got.status, '413', what);
  assert.ok(got.ms < LINGER.ms + 1500, what);
  assert.ok(got.sent < LIMIT + LINGER.bytes + 32 * 1024 * 1024, `the host stopped reading near its bound: ${what}`);
});

test('the host still answers after the lingering connections', async () => {
  const res = await fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
  assert.is(res.status, 200);
});

test.run();
