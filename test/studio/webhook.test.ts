// The Studio's webhook tab in real Chromium: the URL and its copy button, Publish for a flow that is not live,
// and the capture session end to end (listen with its countdown, a request posted from here, accept or decline).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { cli, flow } from '../_utils.js';
import { chain, homeWith, publish, startServe } from '../host/_helpers.js';
import { studioBrowser } from './_studio.js';

// A real `weir serve`, so the webhook URL is the one the host records for itself (its own port).
const webhook = { type: 'webhook_trigger', config: { respondImmediately: false } };
const echo = chain('webhook_trigger', [{ type: 'respond', config: { status: 200, body: '{{ $input.body }}' } }]);
const flows: Record<string, { id: string; token: string }> = {};
const home = await homeWith(async (weir) => {
  flows.orders = await publish(weir, 'orders', webhook, echo.nodes, echo.edges);
  flows.signups = await publish(weir, 'signups', webhook, echo.nodes, echo.edges);
  const draft = await weir.workflows.create('drafted', undefined, { config: flow(webhook, echo.nodes, echo.edges) as any });
  flows.drafted = { id: draft.id, token: draft.webhookToken };
});
const serve = await startServe(home);
const host = { url: serve.url, token: (await cli(['interface', 'token'], { home })).stdout.trim() };
const ui = await studioBrowser();
test.after(async () => {
  await ui.close();
  await serve.stop();
});

/** The management API as a script would call it (bearer token), for what the page should agree with. */
async function apiGet(path: string) {
  const res = await fetch(`${host.url}/api/v1${path}`, { headers: { authorization: `Bearer ${host.token}` } });
  assert.is(res.status, 200, `GET ${path}`);
  return res.json();
}

const { orders, signups, drafted: draft } = flows;

/** Opens a flow's webhook tab once its URL is shown. */
async function openWebhook(id: string): Promise<Page> {
  const page = await ui.open(host, `#/flows/${id}/webhook`);
  await page.getByRole('textbox', { name: 'Webhook URL' }).waitFor();
  return page;
}

/** Starts listening and waits until the countdown runs. */
async function listen(page: Page) {
  await page.getByRole('button', { name: 'Listen', exact: true }).click();
  const timer = page.getByRole('timer', { name: 'Time left' });
  await timer.waitFor();
  const first = (await timer.textContent())!;
  assert.match(first, /^[45]:\d\d$/, 'a five-minute window');
  await page.waitForFunction((t) => document.querySelector('[role=timer]')?.textContent !== t, first);
  return first;
}

test('the URL of a published webhook flow is live; Copy puts exactly that URL on the clipboard', async () => {
  const page = await openWebhook(orders.id);
  const info = await apiGet(`/workflows/${orders.id}/webhook`);
  assert.is(info.url, `${host.url}/trigger/${orders.token}`);
  assert.is(await page.getByRole('textbox', { name: 'Webhook URL' }).inputValue(), info.url);
  await page.getByText('A request to this URL runs the published flow.').waitFor();
  await page.getByRole('button', { name: 'Copy the webhook URL' }).click();
  await page.getByRole('button', { name: 'Copy the webhook URL' }).getByText('Copied').waitFor();
  assert.is(await page.evaluate(() => navigator.clipboard.readText()), info.url);
  await ui.shot(page, 'webhook-url');
  assert.equal(ui.errors, []);
  await page.context().close();
});

test('an unpublished flow says it must be published first; its Publish button makes the URL live', async () => {
  const before = await fetch(`${host.url}/trigger/${draft.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.is(before.status, 404, 'not live yet');
  const page = await openWebhook(draft.id);
  await page.getByText('The flow must be published first').waitFor();
  await page.getByText('it is not published with a webhook trigger').waitFor();
  await ui.shot(page, 'webhook-unpublished');
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByText('A request to this URL runs the published flow.').waitFor();
  assert.is(await page.getByText('The flow must be published first').count(), 0);
  assert.is((await apiGet(`/workflows/${draft.id}/webhook`)).live, true);
  const after = await fetch(`${host.url}/trigger/${draft.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hi":1}' });
  assert.is(after.status, 200, 'the URL runs the flow now');
  assert.equal(await after.json(), { hi: 1 });
  // The flow's header follows: the publish synced it.
  await page.locator('.page-head .status-synced').waitFor();
  assert.equal(ui.errors, []);
  await page.context().close();
});

test('capture: Listen counts down, a posted request appears with its inferred variables, Accept saves the format', async () => {
  const page = await openWebhook(orders.id);
  await page.getByText('None yet: capture a request and accept it.').waitFor();
  await listen(page);
  await ui.shot(page, 'webhook-listening');

  const url = `${host.url}/trigger/${orders.token}?ref=mail`;
  const sent = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-source': 'studio-test' }, body: JSON.stringify({ order: { id: 42, items: [{ sku: 'A1', qty: 2 }] }, customer: 'Ada' }) });
  assert.is(sent.status, 200);

  const captured = page.getByRole('region', { name: 'Captured request' });
  await captured.waitFor();
  assert.is(await page.getByRole('timer').count(), 0, 'the countdown ended with the capture');
  assert.is(await captured.locator('.method').textContent(), 'POST');
  const body = (await captured.getByLabel('Body').textContent())!;
  assert.equal(JSON.parse(body), { order: { id: 42, items: [{ sku: 'A1', qty: 2 }] }, customer: 'Ada' });
  assert.match(body, '\n  "order": {', 'pretty-printed');
  assert.is(await captured.getByRole('table', { name: 'Headers' }).getByRole('row', { name: /x-source/ }).getByRole('cell').textContent(), 'studio-test');
  assert.is(await captured.getByRole('table', { name: 'Query' }).getByRole('row', { name: /ref/ }).getByRole('cell').textContent(), 'mail');
  const inferred = await page.getByRole('list', { name: 'Inferred variables' }).getByRole('listitem').allTextContents();
  for (const v of ['method', "headers['x-source']", 'query.ref', 'body.order.id', 'body.order.items[0].sku', 'body.order.items[0].qty', 'body.customer']) {
    assert.ok(inferred.includes(v), `${v} in ${inferred.join(', ')}`);
  }
  await page.getByRole('button', { name: 'Accept' }).scrollIntoViewIfNeeded();
  await ui.shot(page, 'webhook-captured');

  await page.getByRole('button', { name: 'Accept' }).click();
  await page.getByRole('region', { name: 'Accepted format' }).getByText('format confirmed').waitFor();
  const shown = await page.getByRole('list', { name: 'Accepted variables' }).getByRole('listitem').allTextContents();
  const saved = (await apiGet(`/workflows/${orders.id}`)).webhookFormat;
  assert.equal(shown, saved.variables, 'the page shows the saved variables');
  assert.equal(shown, inferred, 'Accept saved what the page showed before');
  assert.is(await page.getByRole('region', { name: 'Captured request' }).count(), 0);
  await page.getByRole('button', { name: 'Listen', exact: true }).waitFor();
  await page.locator('.facts dd').nth(1).getByText('yes').waitFor();
  await ui.shot(page, 'webhook-accepted');
  assert.equal(ui.errors, []);
  await page.context().close();
});

test('capture: Decline discards the captured request and saves no format; Stop listening ends a window', async () => {
  const page = await openWebhook(signups.id);
  await listen(page);
  const sent = await fetch(`${host.url}/trigger/${signups.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"ada@example.com"}' });
  assert.is(sent.status, 200);
  await page.getByRole('region', { name: 'Captured request' }).waitFor();
  await page.getByRole('list', { name: 'Inferred variables' }).getByText('body.email').waitFor();
  await page.getByRole('button', { name: 'Decline' }).click();
  await page.getByRole('button', { name: 'Listen', exact: true }).waitFor();
  assert.is(await page.getByRole('region', { name: 'Captured request' }).count(), 0);
  await page.getByText('None yet: capture a request and accept it.').waitFor();
  assert.is((await apiGet(`/workflows/${signups.id}`)).webhookFormat, null);
  const idle = await fetch(`${host.url}/api/v1/workflows/${signups.id}/capture/poll`, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' }, body: '{}' });
  assert.is((await idle.json()).state, 'idle');

  await listen(page);
  await page.getByRole('button', { name: 'Stop listening' }).click();
  await page.getByRole('button', { name: 'Listen', exact: true }).waitFor();
  assert.is(await page.getByRole('timer').count(), 0);
  assert.equal(ui.errors, []);
  await page.context().close();
});

test('a session started elsewhere (here: the CLI) shows up listening when the tab opens', async () => {
  assert.is((await cli(['workflows', 'webhook-listen', 'signups'], { home })).code, 0);
  const page = await openWebhook(signups.id);
  await page.getByRole('timer', { name: 'Time left' }).waitFor();
  await page.getByRole('button', { name: 'Stop listening' }).click();
  await page.getByRole('button', { name: 'Listen', exact: true }).waitFor();
  assert.equal(ui.errors, []);
  await page.context().close();
});

test.run();
