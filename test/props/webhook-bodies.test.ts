// Issue #34, property 3: webhook bodies, over a real host on loopback (the library's node:http listener).
// CONTRACT sections 5 and 19: any bytes with any content type, content coding and charset get a 2xx or a 4xx,
// never a 5xx, a crash or a hang; `$input.rawBody` is the text exactly as sent for any UTF-8 body; JSON bodies
// round-trip; forms and multipart bodies parse to what reference encoders made (URLSearchParams, and FormData
// serialized by undici: `new Response(formData)`), file parts as {filename, contentType, size, base64}.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { chain, publish, startHost } from '../host/_helpers.js';
import { checkAsync } from './_props.js';

const FILE = 'webhook-bodies';
/** A request that takes longer than this has hung: every body here is small. */
const PER_REQUEST_MS = 5000;

let host: Awaited<ReturnType<typeof startHost>>;
let echo: string;
test.before(async () => {
  host = await startHost({ maxBody: 256 * 1024 });
  const c = chain('webhook_trigger', [{ type: 'respond', config: { status: 200, body: '{{ $input }}' } }]);
  echo = `${host.url}/trigger/${(await publish(host.weir, 'echo', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges)).token}`;
});
test.after(() => host.close());

/** Posts bytes to the echo flow within {@link PER_REQUEST_MS}; the echoed input when the answer is JSON. */
async function post(body: Uint8Array, headers: Record<string, string>) {
  const res = await fetch(echo, { method: 'POST', body: body as BodyInit, headers, signal: AbortSignal.timeout(PER_REQUEST_MS) });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

type Coding = 'identity' | 'gzip' | 'deflate' | 'deflate-raw' | 'br' | 'gzip, br';
const ENCODE: Record<Coding, (b: Uint8Array) => Uint8Array> = {
  identity: (b) => b,
  gzip: (b) => gzipSync(b),
  deflate: (b) => deflateSync(b),
  'deflate-raw': (b) => deflateRawSync(b),
  br: (b) => brotliCompressSync(b),
  'gzip, br': (b) => brotliCompressSync(gzipSync(b)),
};
/** The Content-Encoding header of a coding (raw deflate is sent as `deflate`, as some senders do). */
const header = (c: Coding) => (c === 'deflate-raw' ? 'deflate' : c);
const coding = fc.constantFrom<Coding>('identity', 'identity', 'gzip', 'deflate', 'deflate-raw', 'br', 'gzip, br');
/** Encodes bytes with a coding and the headers that say so. */
const encoded = (bytes: Uint8Array, c: Coding, type?: string) => ({ body: ENCODE[c](bytes), headers: { ...(type ? { 'content-type': type } : {}), ...(c === 'identity' ? {} : { 'content-encoding': header(c) }) } });

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((n) => String.fromCharCode(n)), maxLength: 40 });
const contentType = fc.oneof(
  fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'multipart/form-data', 'text/plain', 'text/csv', 'application/xml', 'text/xml', 'application/soap+xml', 'application/vnd.api+json', 'application/octet-stream', 'image/png', ''),
  fc.tuple(fc.constantFrom('text/plain', 'application/json', 'application/x-www-form-urlencoded', 'text/html'), fc.constantFrom('utf-8', 'UTF-8', '"utf-8"', 'iso-8859-1', 'windows-1252', 'utf-16le', 'shift_jis', 'klingon-8', '', '"')).map(([t, cs]) => `${t}; charset=${cs}`),
  printable,
);
const anyCoding = fc.oneof(coding.map((c) => ({ c, declared: header(c) })), fc.tuple(coding, fc.constantFrom('gzip', 'br', 'compress', 'x-gzip', 'identity', 'gzip, gzip', ' , ', 'zstd')).map(([c, declared]) => ({ c, declared })), printable.map((declared) => ({ c: 'identity' as Coding, declared })));
const anyBytes = fc.oneof(fc.uint8Array({ maxLength: 2048 }), fc.string({ unit: 'binary', maxLength: 300 }).map((s) => new TextEncoder().encode(s)), fc.jsonValue({ maxDepth: 3 }).map((v) => new TextEncoder().encode(JSON.stringify(v))));

test('any bytes, content type, coding and charset: a 2xx or a 4xx, never a 5xx or a hang', async () => {
  await checkAsync(
    'any body gets a 2xx or a 4xx',
    150,
    FILE,
    fc.asyncProperty(anyBytes, contentType, anyCoding, async (bytes, type, { c, declared }) => {
      const headers: Record<string, string> = { 'content-encoding': declared };
      if (type) headers['content-type'] = type;
      const r = await post(ENCODE[c](bytes), headers);
      assert.ok(r.status >= 200 && r.status < 500, `${r.status} ${r.text.slice(0, 300)}`);
      if (r.status >= 400) assert.type(r.json?.error?.message, 'string', r.text.slice(0, 300));
    }),
  );
  assert.is((await fetch(`${host.url}/healthz`)).status, 200);
});

test('any UTF-8 text body, in any coding: $input.rawBody is the text sent', async () => {
  const textType = fc.constantFrom(undefined, 'text/plain', 'text/plain; charset=utf-8', 'application/xml', 'text/csv; charset="UTF-8"', 'application/x-www-form-urlencoded');
  await checkAsync(
    'rawBody is the UTF-8 text sent',
    120,
    FILE,
    fc.asyncProperty(fc.string({ unit: 'binary', minLength: 1, maxLength: 400 }), textType, coding, async (text, type, c) => {
      const { body, headers } = encoded(new TextEncoder().encode(text), c, type);
      const r = await post(body, headers);
      assert.is(r.status, 200, r.text.slice(0, 300));
      assert.is(r.json.rawBody, text);
      if (type?.startsWith('text/') || type === 'application/xml') assert.is(r.json.body, text);
    }),
  );
});

test('a JSON body round-trips', async () => {
  const type = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/vnd.api+json');
  await checkAsync(
    'JSON bodies round-trip',
    120,
    FILE,
    fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), type, coding, async (value, t, c) => {
      const sent = JSON.stringify(value);
      const { body, headers } = encoded(new TextEncoder().encode(sent), c, t);
      const r = await post(body, headers);
      assert.is(r.status, 200, r.text.slice(0, 300));
      assert.is(r.json.rawBody, sent);
      assert.is(JSON.stringify(r.json.body), JSON.stringify(JSON.parse(sent)));
    }),
  );
});

// Latin-1 text without U+0080-U+009F: the WHATWG label iso-8859-1 means windows-1252, which maps those bytes
// elsewhere. UTF-16 text not starting with U+FEFF: a decoder takes a leading BOM as the byte order, not text.
const latin1Text = fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((n) => String.fromCharCode(n)), minLength: 1, maxLength: 60 });
const utf16Text = fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }).filter((s) => !s.startsWith('\ufeff'));
/** A form in a charset other than UTF-8: each byte of a name or value that is not a letter or digit as %XX. */
const formIn = (entries: Array<[string, string]>) => entries.map((kv) => kv.map((t) => [...Buffer.from(t, 'latin1')].map((b) => (/[A-Za-z0-9]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('')).join('=')).join('&');

test('text, JSON and forms in a declared charset decode to the text sent', async () => {
  const sample = fc.oneof(
    fc.tuple(latin1Text, fc.constantFrom('iso-8859-1', 'latin1', 'ISO-8859-1')).map(([t, cs]) => ({ kind: 'text' as const, text: t, bytes: Buffer.from(t, 'latin1'), cs })),
    fc.tuple(utf16Text, fc.constantFrom('utf-16le', 'UTF-16LE', '"utf-16le"')).map(([t, cs]) => ({ kind: 'text' as const, text: t, bytes: Buffer.from(t, 'utf16le'), cs })),
    fc.tuple(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('utf-16le')).map(([v, cs]) => ({ kind: 'json' as const, text: JSON.stringify(v), bytes: Buffer.from(JSON.stringify(v), 'utf16le'), cs })),
    fc.array(fc.tuple(latin1Text, latin1Text), { minLength: 1, maxLength: 4 }).map((entries) => ({ kind: 'form' as const, entries, text: formIn(entries), bytes: Buffer.from(formIn(entries), 'latin1'), cs: 'iso-8859-1' })),
  );
  await checkAsync(
    'charsets decode to the text sent',
    100,
    FILE,
    fc.asyncProperty(sample, coding, async (s, c) => {
      const type = { text: 'text/plain', json: 'application/json', form: 'application/x-www-form-urlencoded' }[s.kind];
      const { body, headers } = encoded(s.bytes, c, `${type}; charset=${s.cs}`);
      const r = await post(body, headers);
      assert.is(r.status, 200, r.text.slice(0, 300));
      assert.is(r.json.rawBody, s.text);
      const expected = s.kind === 'text' ? s.text : s.kind === 'json' ? JSON.parse(s.text) : grouped(s.entries);
      assert.is(JSON.stringify(r.json.body), JSON.stringify(expected));
    }),
  );
});

/** The object a form or multipart body parses to: a repeated name becomes an array of its values in order. */
function grouped<V>(entries: Array<[string, V]>): Record<string, V | V[]> {
  const out: Record<string, V | V[]> = {};
  for (const [k, v] of entries) {
    const prev = Object.hasOwn(out, k) ? out[k] : undefined;
    Object.defineProperty(out, k, { value: prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v], enumerable: true, configurable: true, writable: true });
  }
  return out;
}

const name = fc.oneof(fc.constantFrom('a', 'b', 'a b', 'é', '__proto__', 'constructor', 'x[]'), fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }));

test('a form body parses to what URLSearchParams encoded', async () => {
  await checkAsync(
    'forms parse as URLSearchParams encoded them',
    120,
    FILE,
    fc.asyncProperty(fc.array(fc.tuple(name, fc.string({ unit: 'binary', maxLength: 30 })), { minLength: 1, maxLength: 6 }), coding, async (entries, c) => {
      const sent = new URLSearchParams(entries).toString();
      const { body, headers } = encoded(new TextEncoder().encode(sent), c, 'application/x-www-form-urlencoded');
      const r = await post(body, headers);
      assert.is(r.status, 200, r.text.slice(0, 300));
      assert.is(JSON.stringify(r.json.body), JSON.stringify(grouped(entries)), sent);
      assert.is(r.json.rawBody, sent);
    }),
  );
});

// What the multipart encoding of the HTML standard (undici's FormData) does to names, values and file names:
// line breaks become CRLF, and in names and file names CR, LF and `"` are percent-escaped.
const crlf = (s: string) => s.replace(/\r?\n|\r/g, '\r\n');
const escaped = (s: string) => s.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
/**
 * Names in a part's header: any text but control characters other than CR and LF (which the encoder escapes);
 * a NUL there is a malformed header to busboy (400). File names as browsers send them: not a path either
 * (busboy keeps only the last segment, by design).
 */
const headerSafe = (s: string) => !/[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/.test(s);
const partName = fc.oneof(fc.constantFrom('a', 'b', 'a b', 'é', '__proto__', 'constructor', 'x[]', 'line\nbreak'), fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }).filter(headerSafe));
const fileName = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((s) => headerSafe(s) && !/[/\\]/.test(s));
const part = fc.oneof(
  fc.record({ kind: fc.constant('field' as const), value: fc.string({ unit: 'binary', maxLength: 40 }) }),
  fc.record({ kind: fc.constant('file' as const), bytes: fc.uint8Array({ maxLength: 600 }), filename: fileName, type: fc.constantFrom('', 'application/pdf', 'text/plain', 'image/png') }),
);

test('a multipart body parses to what FormData encoded, file parts as {filename, contentType, size, base64}', async () => {
  await checkAsync(
    'multipart parses as FormData encoded it',
    80,
    FILE,
    fc.asyncProperty(fc.array(fc.tuple(partName, part), { minLength: 1, maxLength: 5 }), coding, async (parts, c) => {
      const form = new FormData();
      const expected: Array<[string, unknown]> = [];
      for (const [n, p] of parts) {
        if (p.kind === 'field') {
          form.append(n, p.value);
          expected.push([escaped(crlf(n)), crlf(p.value)]);
        } else {
          form.append(n, new Blob([p.bytes], { type: p.type }), p.filename);
          const bytes = Buffer.from(p.bytes);
          expected.push([escaped(crlf(n)), { filename: escaped(p.filename), contentType: p.type || 'application/octet-stream', size: bytes.length, base64: bytes.toString('base64') }]);
        }
      }
      const wire = new Response(form);
      const { body, headers } = encoded(new Uint8Array(await wire.arrayBuffer()), c, wire.headers.get('content-type')!);
      const r = await post(body, headers);
      assert.is(r.status, 200, r.text.slice(0, 300));
      assert.is(JSON.stringify(r.json.body), JSON.stringify(grouped(expected)));
    }),
  );
});

test.run();
