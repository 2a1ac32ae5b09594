import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WeirError } from '../../src/index.js';
import { chain, memoryWeir, runConfig } from '../flow/_flows.js';

/** A loopback server answering each request with what it received; `/redirect` sends to `/echo`. */
async function echoServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c);
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/echo?from=redirect' }).end();
      return;
    }
    if (req.url === '/text') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'x-served-by': 'echo' });
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test('http_request: method, headers and JSON body out; status, headers and parsed body back; redirects followed', async () => {
  const { url, server } = await echoServer();
  const weir = await memoryWeir();
  const r = await runConfig(
    weir,
    chain([{ id: 'http_request-1', type: 'http_request', config: { method: 'post', url: `${url}/echo?q={{ $input.q }}`, headers: { 'X-Token': 't-{{ $input.q }}' }, body: { hello: '{{ $input.q }}' } } }]),
    { q: 'abc' },
  );
  assert.is(r.status, 'success', JSON.stringify(r.error));
  const data = r.result as { status: number; headers: Record<string, string>; body: any };
  assert.is(data.status, 200);
  assert.is(data.headers['x-served-by'], 'echo');
  assert.is(data.body.method, 'POST');
  assert.is(data.body.url, '/echo?q=abc');
  assert.is(data.body.headers['x-token'], 't-abc');
  assert.is(data.body.headers['content-type'], 'application/json');
  assert.equal(JSON.parse(data.body.body), { hello: 'abc' });

  const redirected = await runConfig(weir, chain([{ id: 'http_request-1', type: 'http_request', config: { url: `${url}/redirect` } }]));
  assert.is((redirected.result as any).body.url, '/echo?from=redirect');
  const text = await runConfig(weir, chain([{ id: 'http_request-1', type: 'http_request', config: { url: `${url}/text` } }]));
  assert.equal({ status: (text.result as any).status, body: (text.result as any).body }, { status: 503, body: 'busy' }, 'a non-2xx status is data, not a failure');
  server.close();
  await weir.close();
});

test('http_request: network.deny blocks addresses, by IP literal and by resolved name', async () => {
  const { url, server } = await echoServer();
  const port = new URL(url).port;
  const weir = await memoryWeir({ config: { network: { deny: ['127.0.0.0/8', '::1/128', '169.254.169.254/32'] } } });
  for (const target of [`http://127.0.0.1:${port}/echo`, `http://localhost:${port}/echo`, 'http://169.254.169.254/latest/meta-data']) {
    const r = await runConfig(weir, chain([{ id: 'http_request-1', type: 'http_request', config: { url: target, timeoutMs: 2000 } }]));
    assert.is(r.status, 'error', target);
    assert.is(r.error?.code, 'FORBIDDEN', `${target}: ${r.error?.message}`);
    assert.match(r.error!.message, 'network.deny');
  }
  server.close();
  await weir.close();
  await memoryWeir({ config: { network: { deny: ['not-a-cidr'] } } }).then(
    () => assert.unreachable('a bad CIDR fails when the instance is created'),
    (err) => assert.is(err.code, 'INVALID_CONFIG'),
  );
});

test('http_request: an unreachable host and a slow answer fail clearly', async () => {
  const weir = await memoryWeir();
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  closed.close();
  const refused = await runConfig(weir, chain([{ id: 'http_request-1', type: 'http_request', config: { url: `http://127.0.0.1:${port}/` } }]));
  assert.is(refused.error?.code, 'PROVIDER');
  assert.match(refused.error!.message, 'ECONNREFUSED');
  const slow = createServer(() => {});
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  const r = await runConfig(weir, chain([{ id: 'http_request-1', type: 'http_request', config: { url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`, timeoutMs: 100 } }]));
  assert.is(r.error?.code, 'TIMEOUT');
  slow.closeAllConnections();
  slow.close();
  await weir.close();
});

test('call_flow runs the published copy by name or id, returns its result, and stops runaway recursion', async () => {
  const weir = await memoryWeir();
  const callee = await weir.workflows.create('double');
  await weir.workflows.save(callee.id, chain([{ id: 'set-1', type: 'set', config: { values: { twice: '{{ $input.n * 2 }}' } } }]));
  const caller = chain([{ id: 'call_flow-1', type: 'call_flow', config: { flow: 'double', input: { n: '{{ $input.n }}' } } }]);
  const unpublished = await runConfig(weir, caller, { n: 4 });
  assert.is(unpublished.error?.code, 'NOT_FOUND');
  await weir.workflows.publish(callee.id);
  const byName = await runConfig(weir, caller, { n: 4 });
  assert.equal(byName.result, { twice: 8 });
  const byId = await runConfig(weir, chain([{ id: 'call_flow-1', type: 'call_flow', config: { flow: callee.id, input: { n: 1 } } }]));
  assert.equal(byId.result, { twice: 2 });
  const child = (await weir.executions.list({ workflowId: callee.id }))[0];
  assert.is(child.trigger, 'call_flow');

  const loop = await weir.workflows.create('loop');
  await weir.workflows.save(loop.id, chain([{ id: 'call_flow-1', type: 'call_flow', config: { flow: 'loop' } }]));
  await weir.workflows.publish(loop.id);
  const r = await weir.run('loop', {}, { published: true });
  assert.is(r.status, 'error');
  assert.match(r.error!.message, 'nest more than 8 deep');
  await weir.close();
});

test('delay waits and passes its input on; respond and set check their config at save time', async () => {
  const weir = await memoryWeir();
  const started = Date.now();
  const r = await runConfig(weir, chain([{ id: 'set-1', type: 'set', config: { values: { x: 1 } } }, { id: 'delay-1', type: 'delay', config: { ms: '{{ $input.ms }}' } }]), { ms: 60 });
  assert.ok(Date.now() - started >= 60);
  assert.equal(r.result, { x: 1 });
  const { id } = await weir.workflows.create('invalid');
  try {
    await weir.workflows.save(
      id,
      chain([
        { id: 'set-1', type: 'set', config: {} },
        { id: 'delay-1', type: 'delay', config: { ms: -1 } },
        { id: 'respond-1', type: 'respond', config: { status: 99, headers: 'x' } },
        { id: 'http_request-1', type: 'http_request', config: { method: 'FETCH' } },
        { id: 'condition-1', type: 'condition', config: { rules: { method: [{ var: 'input' }, 'constructor'] } } },
        { id: 'code-1', type: 'code', config: {} },
        { id: 'code-2', type: 'code', config: { code: 'return "a\u0000b"' } },
        { id: 'call_flow-1', type: 'call_flow', config: {} },
      ]),
    );
    assert.unreachable();
  } catch (err) {
    const text = ((err as WeirError).details as Array<{ path: string; message: string }>).map((p) => `${p.path}: ${p.message}`).join('\n');
    for (const expected of ['values: set-1: "values" is required', 'ms: delay-1: "ms" must be', 'status: respond-1', 'headers: respond-1', 'url: http_request-1', 'method: http_request-1', 'rules.method: condition-1: the json-logic operator "method" is not allowed', 'code: code-1', 'code: code-2: the code holds a NUL character', 'flow: call_flow-1']) {
      assert.match(text, expected);
    }
  }
  await weir.close();
});

test.run();
