import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cli, cliInProcess, startServe, tmpDir, writeJson } from '../_utils.js';

// `weir workflows templates` and `weir workflows create <name> --template <t>`: every template saves valid,
// publishes and runs as its summary says.

const TEMPLATES = ['webhook-to-respond', 'schedule-to-http', 'signed-github-webhook', 'form-to-table'];

/**
 * Creates a workflow from a template (published with `--publish`) and returns its id and webhook token: through
 * the CLI in this process, as the setup of a test of what the flow then does.
 */
async function fromTemplate(home: string, name: string, template: string, publish = true) {
  const r = await cliInProcess(['f', 'create', name, '--template', template, ...(publish ? ['--publish'] : []), '--json'], { home });
  assert.is(r.code, 0, `${template}: ${r.stderr}`);
  assert.equal(r.json().status, publish ? 'synced' : 'draft');
  return (await cliInProcess(['f', 'get', name, '--json'], { home })).json() as { id: string; webhookToken: string; config: any };
}

test('templates lists each template with its trigger and a summary', async () => {
  const [listed, text] = await Promise.all([cli(['f', 'templates', '--json'], { home: tmpDir() }), cli(['f', 'templates'], { home: tmpDir() })]);
  const list = listed.json();
  assert.equal(list.map((t: any) => t.name), TEMPLATES);
  assert.equal(list.map((t: any) => t.trigger), ['webhook_trigger', 'schedule_trigger', 'webhook_trigger', 'webhook_trigger']);
  assert.ok(list.every((t: any) => t.summary.length > 20));
  assert.match(text.stdout, /^NAME +TRIGGER +SUMMARY\nwebhook-to-respond +webhook_trigger +a webhook/);
});

test('every template creates a draft that saves again as it is, with what to do next', async () => {
  // A home per template, all at once: create and save are the `weir` processes tested, the get between is read here.
  await Promise.all(
    TEMPLATES.map(async (template) => {
      const home = tmpDir();
      const r = await cli(['f', 'create', `t-${template}`, '--template', template], { home });
      assert.is(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^created workflow wf_\\w+ \\(t-${template}, draft\\) from template ${template}\\nnext:\\n  weir `));
      const { config } = (await cliInProcess(['f', 'get', `t-${template}`, '--json'], { home })).json();
      const saved = await cli(['f', 'save', `t-${template}`, writeJson(home, `${template}.json`, config)], { home });
      assert.is(saved.code, 0, `${template}: ${saved.stderr}`);
    }),
  );
});

test('an unknown template fails (exit 1) naming the closest and listing all, and creates nothing', async () => {
  const home = tmpDir();
  const [r, part] = await Promise.all([cli(['f', 'create', 'x', '--template', 'form-to-tabel'], { home }), cli(['f', 'create', 'x', '--template', 'webhook'], { home })]);
  assert.is(r.code, 1);
  assert.match(r.stderr, 'error: unknown template "form-to-tabel"; did you mean "form-to-table"?');
  assert.match(r.stderr, `hint: templates: ${TEMPLATES.join(', ')}`);
  assert.match(part.stderr, 'did you mean "webhook-to-respond" or "signed-github-webhook"?');
  assert.equal((await cli(['f', 'list', '--json'], { home })).json(), []);
});

test('schedule-to-http with its URL pointed at a server calls it when run', async () => {
  const got: Array<{ method?: string; type?: string; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      got.push({ method: req.method, type: req.headers['content-type'], body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const home = tmpDir();
    const { config } = await fromTemplate(home, 'pinger', 'schedule-to-http', false);
    config.nodes.find((n: any) => n.id === 'http_request-1').config.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ping`;
    assert.is((await cliInProcess(['f', 'save', 'pinger', writeJson(home, 'pinger.json', config)], { home })).code, 0);
    assert.is((await cliInProcess(['f', 'publish', 'pinger'], { home })).code, 0);
    const r = await cli(['f', 'run', 'pinger', '--published', '--json'], { home });
    assert.is(r.code, 0, r.stderr);
    assert.equal(r.json().result.status, 200);
    assert.is(got.length, 1);
    assert.equal([got[0].method, got[0].type], ['POST', 'application/json']);
    assert.ok(!Number.isNaN(Date.parse(JSON.parse(got[0].body).firedAt)), got[0].body);
  } finally {
    server.close();
  }
});

test('the webhook templates answer real requests through weir serve', async () => {
  const home = tmpDir();
  const secret = 'it-is-a-secret';
  const greeter = await fromTemplate(home, 'greeter', 'webhook-to-respond');
  const github = await fromTemplate(home, 'github', 'signed-github-webhook');
  const form = await fromTemplate(home, 'contact', 'form-to-table');
  assert.is((await cliInProcess(['secrets', 'set', 'GITHUB_WEBHOOK_SECRET', secret], { home })).code, 0);
  assert.is((await cliInProcess(['data', 'tables', 'init', 'user.submissions'], { home })).code, 0);
  const s = await startServe(home);
  try {
    const post = (token: string, body: string, headers: Record<string, string>) => fetch(`${s.url}/trigger/${token}`, { method: 'POST', headers, body });

    const hello = await post(greeter.webhookToken, '{"name":"Ada"}', { 'content-type': 'application/json' });
    assert.equal([hello.status, await hello.json()], [200, { greeting: 'Hello, Ada!' }]);

    const event = JSON.stringify({ action: 'opened', number: 7 });
    const signed = (delivery: string, signature: string) =>
      post(github.webhookToken, event, { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-github-delivery': delivery, 'x-hub-signature-256': signature });
    const good = await signed('d-1', `sha256=${createHmac('sha256', secret).update(event).digest('hex')}`);
    assert.equal([good.status, await good.json()], [200, { received: 'pull_request', delivery: 'd-1' }]);
    const forged = await signed('d-2', `sha256=${createHmac('sha256', 'another secret').update(event).digest('hex')}`);
    assert.is(forged.status, 401);

    const saved = await post(form.webhookToken, new URLSearchParams({ name: 'Ada', email: 'ada@example.com', message: 'Hi & bye' }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    const answer = await saved.json();
    assert.equal([saved.status, answer.saved], [201, true]);
    const rows = await cli(['data', 'tables', 'query', 'user.submissions', 'SELECT id, name, email, message FROM "user.submissions"', '--json'], { home });
    assert.equal(rows.json(), [{ id: answer.id, name: 'Ada', email: 'ada@example.com', message: 'Hi & bye' }]);
  } finally {
    await s.stop();
  }
});

test.run();
