import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, type Socket } from 'node:net';
import { publish, startHost } from '../host/_helpers.js';

type Host = Awaited<ReturnType<typeof startHost>>;
let host: Host;
let path: string;
const LIMIT = 64 * 1024;

test.before(async () => {
  host = await startHost({ maxBody: LIMIT, headersTimeoutMs: 300, requestTimeoutMs: 600 });
  const f = await publish(host.weir, 'limits', { type: 'webhook_trigger' });
  path = `/trigger/${f.token}`;
});

test.after(() => host.close());

/** A raw connection: what the server sent, and when it closed. */
function raw(): Promise<{ socket: Socket; received(): string; closed: Promise<number> }> {
  const { port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('error', () => {}); // a reset after the answer is expected
      const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now())));
      resolve({ socket, received: () => text, closed });
    });
    socket.once('error', reject);
  });
}

const head = (extra: string) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${extra}\r\n`;

test('a Content-Length over the limit: 413 at once, before the body is sent', async () => {
  const c = await raw();
  c.socket.write(head(`Content-Length: ${100 * 1024 * 1024}\r\n`));
  c.socket.write(Buffer.alloc(16 * 1024, 0x20));
  const closedAt = await c.closed;
  assert.match(c.received(), /^HTTP\/1\.1 413 /);
  assert.match(c.received(), /PAYLOAD_TOO_LARGE/);
  assert.match(c.received(), /connection: close/i);
  assert.ok(closedAt > 0, 'the connection is closed instead of reading 100 MiB');
});

test('a streamed body that passes the limit: 413 and the connection is closed, the rest never read', async () => {
  const c = await raw();
  c.socket.write(head('Transfer-Encoding: chunked\r\n'));
  const chunk = Buffer.alloc(16 * 1024, 0x20);
  // Twice the limit, then the client stalls without ever ending the body.
  for (let sent = 0; sent < 2 * LIMIT; sent += chunk.length) c.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
  await c.closed;
  assert.match(c.received(), /^HTTP\/1\.1 413 /);
});

test('a body under the limit is accepted', async () => {
  const res = await fetch(`${host.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(LIMIT - 100) }) });
  assert.is(res.status, 200);
});

test('slow headers: answered 408 and dropped after the headers timeout', async () => {
  const c = await raw();
  const started = Date.now();
  c.socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
  await c.closed;
  const took = Date.now() - started;
  assert.match(c.received(), /^HTTP\/1\.1 408 /);
  assert.ok(took >= 250 && took < 3000, `closed after ${took} ms`);
});

test('a slow body: answered 408 and dropped after the request timeout', async () => {
  const c = await raw();
  const started = Date.now();
  c.socket.write(head('Content-Length: 100\r\n'));
  c.socket.write('{"a":');
  await c.closed;
  const took = Date.now() - started;
  assert.match(c.received(), /^HTTP\/1\.1 408 /);
  assert.ok(took >= 500 && took < 3000, `closed after ${took} ms`);
});

test.run();
