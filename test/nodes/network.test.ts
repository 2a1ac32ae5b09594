// Outgoing requests of http_request against a real `weir serve`: credentials never follow a redirect to
// another origin, and the default network policy keeps flows off "this host", link-local and metadata
// addresses in every way of writing them, while the host keeps answering /healthz.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWeir } from '../../src/weir.js';
import { cli, writeJson } from '../_utils.js';
import { chain, publish, send, startServe, tmpDir } from '../host/_helpers.js';

type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: string };

/** A server on 127.0.0.1 that records what it receives and answers with `answer` (or `{ok: true}`). */
async function recorder(answer?: (req: Seen) => { status: number; location?: string }) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const got = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(got);
      const a = answer?.(got) ?? { status: 200 };
      res.writeHead(a.status, { 'content-type': 'application/json', ...(a.location ? { location: a.location } : {}) });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, port: (server.address() as AddressInfo).port, close: () => server.close() };
}

/** A home holding one published webhook flow that sends the request its body describes; served by `weir serve`. */
async function serveFetcher(config?: Record<string, unknown>) {
  const home = tmpDir('weir-net-');
  // exposeErrors: the webhook answer carries the node's error (FORBIDDEN and its message), not "the flow failed".
  writeJson(home, 'weir.config.json', { ...config, webhook: { exposeErrors: true } });
  const weir = await createWeir({ home });
  const c = chain('webhook_trigger', [
    {
      type: 'http_request',
      config: { url: '{{ body.url }}', method: '{{ body.method ?? "GET" }}', headers: '{{ body.headers }}', body: '{{ body.payload }}', secretHeaders: ['X-Api-Key'], timeoutMs: 3000 },
    },
  ]);
  const { token } = await publish(weir, 'fetcher', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges);
  await weir.close();
  const host = await startServe(home);
  const fetchVia = (body: Record<string, unknown>) => send(`${host.url}/trigger/${token}`, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const healthy = async () => assert.is((await send(`${host.url}/healthz`, { method: 'GET' })).status, 200, '/healthz answers');
  return { host, fetchVia, healthy };
}

const CREDENTIALS = { Authorization: 'Bearer top-secret', Cookie: 'session=s3cr3t', 'Proxy-Authorization': 'Basic cHJveHk6cHc=', 'X-Api-Key': 'key-123', 'X-Trace': 'kept' };

test('a redirect to another origin drops Authorization, Cookie, Proxy-Authorization and secretHeaders; same origin keeps them', async () => {
  const target = await recorder();
  const start = await recorder((req) => ({ status: Number(new URL(req.url, 'http://x').searchParams.get('status') ?? 302), location: req.url.startsWith('/same') ? '/landed' : `${target.url}/landed` }));
  const { host, fetchVia, healthy } = await serveFetcher();
  try {
    const cross = await fetchVia({ url: `${start.url}/away`, headers: CREDENTIALS });
    assert.is(cross.status, 200, cross.text);
    const got = target.seen.at(-1)!;
    assert.is(got.url, '/landed');
    for (const name of ['authorization', 'cookie', 'proxy-authorization', 'x-api-key']) assert.is(got.headers[name], undefined, `${name} reached the other origin`);
    assert.is(got.headers['x-trace'], 'kept', 'other headers follow the redirect');
    assert.is(got.headers.host, new URL(target.url).host, 'the Host header names the new origin');
    assert.is(start.seen.at(-1)!.headers.authorization, 'Bearer top-secret', 'the first origin got the credentials');

    await fetchVia({ url: `${start.url}/same`, headers: CREDENTIALS });
    const same = start.seen.at(-1)!;
    assert.is(same.url, '/landed');
    assert.is(same.headers.authorization, 'Bearer top-secret');
    assert.is(same.headers['x-api-key'], 'key-123');
    await healthy();
  } finally {
    await host.stop();
    start.close();
    target.close();
  }
});

test('a redirect turns POST (301, 302, 303) and PUT (303) into a GET without the body; 307 and 308 repeat the request', async () => {
  const target = await recorder();
  const start = await recorder((req) => ({ status: Number(new URL(req.url, 'http://x').searchParams.get('status')), location: `${target.url}/landed` }));
  const { host, fetchVia } = await serveFetcher();
  try {
    const cases: Array<[string, number, string]> = [['POST', 301, 'GET'], ['POST', 302, 'GET'], ['POST', 303, 'GET'], ['PUT', 303, 'GET'], ['PUT', 302, 'PUT'], ['POST', 307, 'POST'], ['PUT', 308, 'PUT']];
    for (const [method, status, expected] of cases) {
      const r = await fetchVia({ url: `${start.url}/go?status=${status}`, method, payload: { order: 7 } });
      assert.is(r.status, 200, r.text);
      const got = target.seen.at(-1)!;
      assert.is(got.method, expected, `${method} after ${status}`);
      if (expected === 'GET') {
        assert.is(got.body, '', `${method} after ${status}: no body`);
        assert.is(got.headers['content-type'], undefined, `${method} after ${status}: no content type`);
      } else assert.equal(JSON.parse(got.body), { order: 7 }, `${method} after ${status}: body repeated`);
    }
  } finally {
    await host.stop();
    start.close();
    target.close();
  }
});

test('by default, every encoding of 0.0.0.0, link-local and metadata addresses is FORBIDDEN; loopback stays reachable', async () => {
  const local = await recorder();
  const { host, fetchVia, healthy } = await serveFetcher();
  const p = local.port;
  try {
    const blocked = [
      `http://0:${p}/`, `http://0x0:${p}/`, `http://00:${p}/`, `http://0.0.0.0:${p}/`, `http://[::]:${p}/`, `http://[::ffff:0.0.0.0]:${p}/`,
      'http://2852039166/', 'http://0xA9FEA9FE/', 'http://0251.0376.0251.0376/', 'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/', 'http://[::ffff:a9fe:a9fe]/', 'http://[fe80::1]/', 'http://169.254.170.2/v2/credentials',
      'http://[fd00:ec2::254]/', 'http://100.100.100.200/latest/meta-data/', 'http://192.0.0.192/latest/',
    ];
    for (const url of blocked) {
      const r = await fetchVia({ url });
      assert.is(r.json?.error?.code, 'FORBIDDEN', `${url}: ${r.text}`);
      assert.match(r.json.error.message, 'network.allow', `${url}: the message names the key that re-opens it`);
      await healthy();
    }
    assert.is(local.seen.length, 0, 'no request reached the local server through 0.0.0.0 or ::');
    const loopback = await fetchVia({ url: `http://localhost:${p}/ok` });
    assert.is(loopback.status, 200, loopback.text);
    assert.is(local.seen.length, 1, 'loopback is reachable by default');

    const redirected = await recorder(() => ({ status: 302, location: `http://0:${p}/` }));
    const hop = await fetchVia({ url: `${redirected.url}/` });
    assert.is(hop.json?.error?.code, 'FORBIDDEN', `a redirect hop is checked too: ${hop.text}`);
    assert.is(local.seen.length, 1);
    redirected.close();
  } finally {
    await host.stop();
    local.close();
  }
});

test('network.allow re-opens a default range; network.deny blocks loopback by name and number; bad lists stop the host', async () => {
  const local = await recorder();
  const { host, fetchVia, healthy } = await serveFetcher({ network: { allow: ['0.0.0.0/8'], deny: ['127.0.0.0/8', '::1'] } });
  try {
    const zero = await fetchVia({ url: `http://0:${local.port}/zero` });
    assert.is(zero.status, 200, zero.text);
    assert.is(local.seen.at(-1)?.url, '/zero', '0.0.0.0 reaches the local host once allowed');
    for (const url of [`http://localhost:${local.port}/`, `http://127.0.0.1:${local.port}/`, `http://0177.1:${local.port}/`, `http://[::1]:${local.port}/`]) {
      const r = await fetchVia({ url });
      assert.is(r.json?.error?.code, 'FORBIDDEN', `${url}: ${r.text}`);
      assert.match(r.json.error.message, 'network.deny');
    }
    assert.is(local.seen.length, 1);
    await healthy();
  } finally {
    await host.stop();
    local.close();
  }
  for (const network of [{ deny: ['10.0.0.0/33'] }, { allow: ['not-a-cidr'] }, { allow: '10.0.0.0/8' }]) {
    const home = tmpDir('weir-net-');
    writeJson(home, 'weir.config.json', { network });
    const r = await cli(['serve', '--port', '0'], { home });
    assert.is(r.code, 1, `${JSON.stringify(network)}: ${r.stderr}`);
    assert.match(r.stderr, /is not a CIDR range|must be a list of CIDR ranges|must be an array/);
    assert.match(r.stderr, 'deny' in network ? 'network.deny' : 'network.allow');
  }
});

test('a host name is checked on the address it resolves to (custom lookup)', async () => {
  const addresses: Record<string, string> = { 'metadata.test': '169.254.169.254', 'zero.test': '0.0.0.0', 'v6.test': 'fe80::1', 'aws6.test': 'fd00:ec2::254', 'mapped.test': '::ffff:169.254.169.254' };
  const weir = await createWeir({
    lookup: (hostname, options, callback) => {
      const address = addresses[hostname] ?? '127.0.0.1';
      const family = address.includes(':') ? 6 : 4;
      if ((options as { all?: boolean }).all) (callback as any)(null, [{ address, family }]);
      else (callback as any)(null, address, family);
    },
  });
  const c = chain('manual_trigger', [{ type: 'http_request', config: { url: '{{ $input.url }}', timeoutMs: 3000 } }]);
  try {
    for (const [name, address] of Object.entries(addresses)) {
      const r = await weir.executor.run({ workflow: { id: 'wf_dns', name: 'dns', config: { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, ...c.nodes], edges: c.edges } as never }, input: { url: `http://${name}/` }, trigger: 'manual' });
      assert.is(r.error?.code, 'FORBIDDEN', `${name}: ${JSON.stringify(r.error)}`);
      assert.match(r.error!.message, `${name} is ${address}`);
    }
  } finally {
    await weir.close();
  }
});

test.run();
