import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../../src/weir.js';
import { inferSchema, variablePaths } from '../../../src/triggers/webhook/infer-schema.js';
import { cli, flow, writeJson } from '../../_utils.js';
import { send, startServe, tmpDir } from '../../host/_helpers.js';

let home: string;
let serveStop: () => Promise<number | null>;
let serveUrl: string;

test.before(async () => {
  home = tmpDir('weir-capture-');
  const s = await startServe(home);
  serveStop = s.stop;
  serveUrl = s.url;
});

test.after(async () => {
  await serveStop();
});

const json = async (args: string[]) => {
  const r = await cli([...args, '--json'], { home });
  if (r.code !== 0) throw new Error(`weir ${args.join(' ')}: exit ${r.code} ${r.stderr}`);
  return r.json();
};

test('capture session through the CLI against a running host: idle -> listening -> captured -> accepted', async () => {
  const { id } = await json(['workflows', 'create', 'orders-hook']);
  assert.is((await json(['workflows', 'get', id])).webhookFormat, null);
  assert.match((await cli(['workflows', 'get', id], { home })).stdout, 'webhookFormat: not confirmed');
  const url = await cli(['workflows', 'webhook-url', id], { home });
  assert.is(url.code, 0);
  const link = url.stdout.split('\n')[0];
  assert.ok(link.startsWith(`${serveUrl}/trigger/`), `${link} is on the running host`);
  assert.match(url.stdout, 'Format Confirmed: no');
  assert.match(url.stdout, 'Webhook Trigger Enabled: no');

  assert.is((await json(['workflows', 'webhook-poll', id])).state, 'idle');
  const early = await cli(['workflows', 'webhook-accept', id], { home });
  assert.is(early.code, 1);
  assert.match(early.stderr, 'nothing captured to accept (session is idle)');
  assert.is((await cli(['workflows', 'webhook-decline', id], { home })).code, 1);

  const unpublished = await send(link, { body: '{}', headers: { 'content-type': 'application/json' } });
  assert.is(unpublished.status, 404, 'not listening and not published');

  const listen = await cli(['workflows', 'webhook-listen', id], { home });
  assert.is(listen.code, 0);
  assert.match(listen.stdout, '5 minutes');
  const polled = await cli(['workflows', 'webhook-poll', id], { home });
  assert.match(polled.stdout, /State: listening \(\d+m \d\ds left/);
  assert.is((await cli(['workflows', 'webhook-accept', id], { home })).code, 1, 'accept only from captured');

  const body = { order: { id: 7, lines: [{ name: 'tea', qty: 2 }] }, paid: true };
  const captured = await send(`${link}?source=shop`, { method: 'PUT', body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-shop': 'north' } });
  assert.is(captured.status, 200);
  assert.equal(captured.json, { captured: true });

  const poll = await json(['workflows', 'webhook-poll', id]);
  assert.is(poll.state, 'captured');
  assert.is(poll.request.method, 'PUT');
  assert.equal(poll.request.body, body);
  assert.equal(poll.request.query, { source: 'shop' });
  assert.is(poll.request.headers['x-shop'], 'north');
  assert.ok(Date.parse(poll.request.capturedAt) > 0);
  const pollText = await cli(['workflows', 'webhook-poll', id], { home });
  assert.match(pollText.stdout, 'State: captured');
  assert.match(pollText.stdout, 'Captured: PUT at');
  assert.match(pollText.stdout, '"qty": 2');

  const accepted = await json(['workflows', 'webhook-accept', id]);
  assert.ok(accepted.variables.includes('body.order.lines[0].name'));
  assert.ok(accepted.variables.includes('body.paid'));
  assert.ok(accepted.variables.includes("headers['x-shop']"));
  assert.ok(accepted.variables.includes('query.source'));
  assert.ok(accepted.variables.includes('method'));
  assert.is(accepted.schema.properties.body.properties.order.properties.lines.items.properties.qty.type, 'integer');
  assert.is((await json(['workflows', 'webhook-poll', id])).state, 'idle');

  // The accepted format is part of the flow: `get` shows it (JSON and text).
  const got = await json(['workflows', 'get', id]);
  assert.equal(Object.keys(got.webhookFormat).sort(), ['confirmedAt', 'schema', 'variables']);
  assert.equal(got.webhookFormat.variables, accepted.variables);
  assert.equal(got.webhookFormat.schema, accepted.schema);
  assert.is(got.webhookFormat.confirmedAt, accepted.confirmedAt);
  const gotText = await cli(['workflows', 'get', id], { home });
  assert.match(gotText.stdout, `webhookFormat: confirmed ${accepted.confirmedAt}, ${accepted.variables.length} variables\n`);
  for (const path of ['body.order.lines[0].name', 'body.paid', "headers['x-shop']", 'query.source']) assert.match(gotText.stdout, `\n  {{ ${path} }}\n`, path);

  const confirmed = await cli(['workflows', 'webhook-url', id], { home });
  assert.match(confirmed.stdout, 'Format Confirmed: yes');
  assert.match(confirmed.stdout, 'Webhook Trigger Enabled: no');

  // The captured request never ran the flow.
  const weir = await createWeir({ home });
  try {
    assert.is((await weir.executions.list({ workflowId: id })).length, 0);
  } finally {
    await weir.close();
  }

  writeJson(home, 'hook.json', flow({ type: 'webhook_trigger' }));
  assert.is((await cli(['workflows', 'save', id, 'hook.json'], { home })).code, 0);
  assert.is((await cli(['workflows', 'publish', id], { home })).code, 0);
  const enabled = await json(['workflows', 'webhook-url', id]);
  assert.is(enabled.webhookTriggerEnabled, true);
  assert.is(enabled.formatConfirmed, true);
  assert.is(enabled.url, link);
  const live = await send(link, { body: '{"n":1}', headers: { 'content-type': 'application/json' } });
  assert.is(live.status, 200);
  assert.ok(live.json.executionId, 'published and not listening: the flow runs');
});

test('decline from listening or captured goes back to idle; a published flow is captured, not run', async () => {
  const { id } = await json(['workflows', 'create', 'decline-hook']);
  writeJson(home, 'decline.json', flow({ type: 'webhook_trigger' }));
  await cli(['workflows', 'save', id, 'decline.json'], { home });
  await cli(['workflows', 'publish', id], { home });
  const { url } = await json(['workflows', 'webhook-url', id]);

  await json(['workflows', 'webhook-listen', id]);
  assert.is((await json(['workflows', 'webhook-decline', id])).state, 'idle');

  await json(['workflows', 'webhook-listen', id]);
  const r = await send(url, { body: 'plain text', headers: { 'content-type': 'text/plain' } });
  assert.equal(r.json, { captured: true });
  assert.is((await json(['workflows', 'webhook-poll', id])).request.body, 'plain text');
  assert.is((await json(['workflows', 'webhook-decline', id])).state, 'idle');
  const after = await cli(['workflows', 'webhook-accept', id], { home });
  assert.is(after.code, 1);
  assert.is((await cli(['workflows', 'webhook-url', id], { home })).stdout.includes('Format Confirmed: no'), true);
});

test('a listening window that ran out reads expired; accept is refused, requests go to the flow again', async () => {
  const { id } = await json(['workflows', 'create', 'expired-hook']);
  const weir = await createWeir({ home });
  try {
    const past = new Date(Date.now() - 60_000).toISOString();
    await weir.storage.view('cloud', 'webhook-capture').setItem(id, { state: 'listening', startedAt: past, expiresAt: past });
  } finally {
    await weir.close();
  }
  const poll = await cli(['workflows', 'webhook-poll', id], { home });
  assert.match(poll.stdout, 'State: expired');
  assert.is((await cli(['workflows', 'webhook-accept', id], { home })).code, 1);
  const { url } = await json(['workflows', 'webhook-url', id]);
  assert.is((await send(url)).status, 404, 'unpublished and no longer listening');
});

test('schema inference and variable paths of nested samples', () => {
  const sample = { body: { a: { b: 1.5 }, list: [{ name: 'x' }, { name: 'y', extra: true }], empty: [] }, headers: { 'x-custom': 'v' }, query: {}, method: 'POST' };
  assert.equal(variablePaths(sample), ['body.a.b', 'body.list[0].name', 'body.empty', "headers['x-custom']", 'query', 'method']);
  const schema = inferSchema(sample) as any;
  assert.is(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.equal(schema.properties.body.properties.list.items.required, ['name']);
  assert.is(schema.properties.body.properties.list.items.properties.extra.type, 'boolean');
  assert.is(schema.properties.body.properties.a.properties.b.type, 'number');
});

test.run();
