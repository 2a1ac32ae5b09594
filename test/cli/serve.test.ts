import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { createListener } from '../../adapters/node-http/index.js';
import { createWeir } from '../../src/weir.js';
import { cli } from '../_utils.js';
import { chain, homeWith, publish, send, startServe, tmpDir, until } from '../host/_helpers.js';

test('weir serve prints its URL, answers /healthz, and on SIGTERM finishes the execution in flight, then exits 0', async () => {
  let token = '';
  let id = '';
  const home = await homeWith(async (weir) => {
    const c = chain('webhook_trigger', [{ type: 'delay', config: { ms: 700 } }, { type: 'respond', config: { status: 200, body: { done: true } } }]);
    ({ token, id } = await publish(weir, 'slow', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges));
  });
  const s = await startServe(home);
  assert.match(s.output(), /^weir listening on http:\/\/127\.0\.0\.1:\d+\n/);
  assert.is((await send(`${s.url}/healthz`, { method: 'GET' })).status, 200);

  const inFlight = send(`${s.url}/trigger/${token}`);
  const weir = await createWeir({ home });
  await until(async () => (await weir.executions.list({ workflowId: id })).some((e) => e.status === 'running'), 5000, 'the execution to start');
  await weir.close();
  const exited = s.stop('SIGTERM');
  const answer = await inFlight;
  assert.is(answer.status, 200);
  assert.equal(answer.json, { done: true });
  assert.is(await exited, 0);
  assert.match(s.output(), 'stopped');
  await fetch(`${s.url}/healthz`).then(
    () => assert.unreachable('the port is closed'),
    () => {},
  );
});

test('on SIGTERM right after many Respond answers, every answered execution has its record on disk', async () => {
  let token = '';
  let id = '';
  const home = await homeWith(async (weir) => {
    const c = chain('webhook_trigger', [{ type: 'respond', config: { status: 200, body: { n: '{{ body.n }}' } } }, { type: 'set', config: { values: { after: true } } }]);
    ({ token, id } = await publish(weir, 'answered', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges));
  });
  const s = await startServe(home);
  const json = { 'content-type': 'application/json' };
  const answers = await Promise.all(Array.from({ length: 200 }, (_, n) => send(`${s.url}/trigger/${token}`, { body: JSON.stringify({ n }), headers: json }))).finally(() => s.stop('SIGTERM'));
  assert.equal(answers.map((a) => [a.status, a.json.n]), answers.map((_, n) => [200, n]));
  assert.is(await s.stop('SIGTERM'), 0);
  const weir = await createWeir({ home });
  try {
    const stored = await weir.executions.list({ workflowId: id, limit: 500 });
    assert.equal(new Set(stored.map((e) => e.id)), new Set(answers.map((a) => a.headers.get('x-execution-id'))));
    assert.ok(stored.every((e) => e.status === 'success' && e.nodes['set-2']?.data !== undefined), 'each ran to its end');
  } finally {
    await weir.close();
  }
});

test('--max-body, --public-url and usage errors', async () => {
  let token = '';
  let id = '';
  const home = await homeWith(async (weir) => {
    ({ token, id } = await publish(weir, 'small', { type: 'webhook_trigger' }));
  });
  const s = await startServe(home, ['--max-body', '100', '--public-url', 'https://hooks.example.com/']);
  try {
    assert.match(s.output(), 'public URL https://hooks.example.com');
    assert.is((await send(`${s.url}/trigger/${token}`, { body: 'x'.repeat(99) })).status, 200);
    const big = await send(`${s.url}/trigger/${token}`, { body: 'x'.repeat(101) });
    assert.is(big.status, 413);
    assert.is(big.json.error.code, 'PAYLOAD_TOO_LARGE');
    const url = await cli(['workflows', 'webhook-url', id], { home });
    assert.is(url.stdout.split('\n')[0], `https://hooks.example.com/trigger/${token}`);
  } finally {
    await s.stop();
  }
  for (const [args, message] of [
    [['--tls-cert', 'cert.pem'], '--tls-cert and --tls-key go together'],
    [['--port', '70000'], '--port must be'],
    [['--max-body', '-5'], '--max-body must be'],
  ] as const) {
    const r = await cli(['serve', ...args], { home });
    assert.is(r.code, 2, args.join(' '));
    assert.match(r.stderr, message);
  }
});

test('webhook-url and kb url follow one rule: http://127.0.0.1:8787 with no host running, else publicUrl', async () => {
  let id = '';
  let token = '';
  let doc = '';
  const home = await homeWith(async (weir) => {
    ({ id, token } = await publish(weir, 'offline', { type: 'webhook_trigger' }));
    doc = (await weir.knowledge.upload({ name: 'faq.md', data: '# FAQ' })).id;
  });
  const r = await cli(['workflows', 'webhook-url', id], { home });
  assert.is(r.stdout.split('\n')[0], `http://127.0.0.1:8787/trigger/${token}`);
  assert.match(r.stdout, 'Webhook Trigger Enabled: yes');
  assert.match((await cli(['kb', 'url', doc], { home })).stdout, /^http:\/\/127\.0\.0\.1:8787\/kb\/[\w-]+\n$/);
  writeFileSync(join(home, 'weir.config.json'), JSON.stringify({ publicUrl: 'https://weir.example.com/' }));
  assert.is((await cli(['workflows', 'webhook-url', id], { home })).stdout.split('\n')[0], `https://weir.example.com/trigger/${token}`);
  assert.match((await cli(['kb', 'url', doc], { home })).stdout, /^https:\/\/weir\.example\.com\/kb\/[\w-]+\n$/);
});

test('HTTPS with a certificate made by openssl', async () => {
  let id = '';
  let doc = '';
  const home = await homeWith(async (weir) => {
    ({ id } = await publish(weir, 'secure', { type: 'webhook_trigger' }));
    doc = (await weir.knowledge.upload({ name: 'faq.md', data: '# FAQ' })).id;
  });
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(home, 'key.pem'), '-out', join(home, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const s = await startServe(home, ['--tls-cert', join(home, 'cert.pem'), '--tls-key', join(home, 'key.pem')]);
  try {
    assert.match(s.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = readFileSync(join(home, 'cert.pem'));
    const status = await new Promise<number>((resolve, reject) => {
      request(`${s.url}/healthz`, { ca }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end();
    });
    assert.is(status, 200);
    // The running host's own URL, https as it serves, for webhook and knowledge URLs alike.
    assert.ok((await cli(['workflows', 'webhook-url', id], { home })).stdout.startsWith(`${s.url}/trigger/`));
    assert.ok((await cli(['kb', 'url', doc], { home })).stdout.startsWith(`${s.url}/kb/`));
  } finally {
    await s.stop();
  }
});

test('workflows run --published runs the published copy, not the draft', async () => {
  let id = '';
  const home = await homeWith(async (weir) => {
    const c = chain('manual_trigger', [{ type: 'set', config: { values: { from: 'published', n: '{{ $input.n }}' } } }]);
    ({ id } = await publish(weir, 'versions', { type: 'manual_trigger' }, c.nodes, c.edges));
    await weir.workflows.save(id, { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, { id: 'set-1', type: 'set', config: { values: { from: 'draft' } } }], edges: [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }] });
  });
  const pub = await cli(['workflows', 'run', id, '--published', '--input', '{"n": 3}', '--json'], { home });
  assert.is(pub.code, 0, pub.stderr);
  assert.equal(pub.json().result, { from: 'published', n: 3 });
  const draft = await cli(['workflows', 'run', id, '--json'], { home });
  assert.equal(draft.json().result, { from: 'draft' });
});

test('createListener mounts in an existing node:http app; other paths go to next()', async () => {
  const weir = await createWeir({ home: tmpDir('weir-embed-') });
  const { token } = await publish(weir, 'embedded', { type: 'webhook_trigger', config: { respondImmediately: false } }, [{ id: 'respond-1', type: 'respond', config: { status: 200, body: { hello: '{{ body.name }}' } } }], [{ id: 'e1', source: 'webhook_trigger-1', target: 'respond-1' }]);
  const listener = createListener(weir, { schedules: false });
  const app = createServer((req, res) =>
    listener(req, res, () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`app: ${req.url}`);
    }),
  );
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(app.address() as { port: number }).port}`;
  try {
    assert.is((await send(`${base}/shop/cart`, { method: 'GET' })).text, 'app: /shop/cart');
    const hook = await send(`${base}/trigger/${token}`, { body: '{"name":"ada"}', headers: { 'content-type': 'application/json' } });
    assert.equal(hook.json, { hello: 'ada' });
    assert.is((await send(`${base}/healthz`, { method: 'GET' })).status, 200);
  } finally {
    await new Promise((r) => app.close(r));
    await listener.close();
    await weir.close();
  }
});

test.run();
