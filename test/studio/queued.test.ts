// Why an execution waits, as the Studio says it: executions queued behind a concurrency limit of 1 (the test's
// own server holds the first call) read their rule, key and place in line in the list and on their page, then
// run once the server lets go; a debounced delivery says which execution its burst ran as, and links to it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync } from 'node:fs';
import { studioBrowser, studioHost, SHOTS } from './_studio.js';
import { callApi } from './_executions.js';
import { send, until } from '../host/_helpers.js';
import { publishWithSettings, recordingServer } from '../runtime/_admission.js';

const host = await studioHost();
const ui = await studioBrowser();
const server = await recordingServer();
test.after(async () => {
  // Calls still held (a test that failed midway) are let go, so the host's executions end and it can close.
  server.state.hold = false;
  server.release();
  await ui.close();
  await host.close();
  await server.close();
});

const json = { 'content-type': 'application/json' };
const deliver = async (token: string, body: unknown): Promise<string> => (await send(`${host.url}/trigger/${token}`, { body: JSON.stringify(body), headers: json })).json.executionId;
const statusOf = async (id: string) => (await callApi(host, 'GET', `/executions/${id}`)).json.status;

test('executions queued behind a concurrency limit say why in the list and on their page, and run once the slot is free', async () => {
  server.state.hold = true;
  try {
    const { id: workflowId, token } = await publishWithSettings(host.weir, 'per-tenant', server.url, { concurrency: { limit: 1, key: '{{ $input.body.key }}' } });
    const ids: string[] = [];
    for (let n = 0; n < 4; n++) ids.push(await deliver(token, { key: 't1', n }));
    await until(() => server.calls.length === 1, 10_000, 'the first to call');
    await until(async () => (await statusOf(ids[3])) === 'queued', 10_000, 'the last to be queued');

    const page = await ui.open(host, `#/flows/${workflowId}/executions`);
    // Each queued row says why, with the limit of the flow's settings (they load beside the list).
    const queuedRows = page.locator('tr.exec-row', { hasText: 'queued' });
    await queuedRows.filter({ hasText: 'Queued: concurrency limit 1 for key “t1”' }).nth(2).waitFor();
    assert.is(await queuedRows.count(), 3);
    await page.locator(`tr.exec-row[data-execution-id="${ids[3]}"]`).click();
    const why = page.getByRole('status', { name: 'Why queued' });
    // The place in line and the flow's settings load apart: the note is read once it has both.
    const reason = 'Queued: concurrency limit 1 for key “t1” (2 ahead): starts when a running one ends';
    await why.filter({ hasText: reason }).waitFor();
    assert.is(await why.textContent(), reason);
    await ui.shot(page, 'queued-reason');
    copyFileSync(`${SHOTS}queued-reason.png`, new URL('../../docs/studio/queued-reason.png', import.meta.url));

    // The first in line is next.
    await page.evaluate((id) => (location.hash = `#/executions/${id}`), ids[1]);
    await why.getByText('(next in line)', { exact: false }).waitFor();

    // The list of every flow's executions says the same: it reads the settings of the flows its queued rows are of.
    await page.evaluate(() => (location.hash = '#/executions'));
    const everyFlow = page.locator('tr.exec-row', { hasText: 'Queued: concurrency limit 1 for key “t1”' });
    await everyFlow.nth(2).waitFor();
    assert.is(await everyFlow.count(), 3);
    await ui.shot(page, 'queued-every-flow');

    // Let go: each runs in turn, and the page of the last turns to success without a reload.
    await page.evaluate((id) => (location.hash = `#/executions/${id}`), ids[3]);
    await why.getByText('(2 ahead)', { exact: false }).waitFor();
    server.state.hold = false;
    server.release();
    await page.locator('.exec-head .status-success').waitFor({ timeout: 20_000 });
    assert.is(await why.count(), 0, 'a started execution waits for nothing');
    assert.equal(server.calls.map((c) => c.n), [0, 1, 2, 3]);
    assert.equal(ui.errors, []);
  } finally {
    // Whatever happened, the calls held go on: the tests after this one call the same server.
    server.state.hold = false;
    server.release();
  }
});

test('executions over a rate limit say so, with their place in line; cancelled from the page, they never start', async () => {
  const { id: workflowId, token } = await publishWithSettings(host.weir, 'rate-limited', server.url, { rateLimit: { limit: 1, period: '1m' } });
  const ids: string[] = [];
  for (let n = 0; n < 3; n++) ids.push(await deliver(token, { key: 'r', n }));
  await until(async () => (await statusOf(ids[2])) === 'queued', 10_000, 'the last to be queued');
  const page = await ui.open(host, `#/flows/${workflowId}/executions/${ids[2]}`);
  const why = page.getByRole('status', { name: 'Why queued' });
  const reason = 'Queued: rate limit 1 per 1m (1 ahead): starts when the limit allows';
  await why.filter({ hasText: reason }).waitFor();
  assert.is(await why.textContent(), reason);
  for (const id of ids.slice(1)) {
    await page.evaluate((id) => (location.hash = `#/executions/${id}`), id);
    await page.locator('.exec-head .status-queued').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('.exec-head .status-cancelled').waitFor();
    assert.is(await why.count(), 0);
  }
  assert.equal(ui.errors, []);
});

test('a debounced burst: its run says it waits for quiet while it does; each other delivery says what the burst ran as, and links to it', async () => {
  const { id: workflowId, token } = await publishWithSettings(host.weir, 'debounced', server.url, { debounce: { period: '4s', key: '{{ $input.body.key }}' } });
  const ids: string[] = [];
  for (let n = 0; n < 3; n++) ids.push(await deliver(token, { key: 'd1', n }));
  const waiting = await ui.open(host, `#/executions/${ids[0]}`);
  const quiet = waiting.getByRole('status', { name: 'Why queued' });
  const reason = 'Queued: debounce 4s for key “d1”: runs once no delivery came for 4s, with the last input';
  await quiet.filter({ hasText: reason }).waitFor();
  assert.is(await quiet.textContent(), reason);
  await waiting.locator('.exec-head .status-success').waitFor({ timeout: 20_000 });
  // The burst runs as its first delivery's execution, with the last input.
  await until(async () => (await statusOf(ids[0])) === 'success', 15_000, 'the burst to run');
  assert.equal(await Promise.all(ids.slice(1).map(statusOf)), ['debounced', 'debounced']);

  const page = await ui.open(host, `#/flows/${workflowId}/executions`);
  await page.locator(`tr.exec-row[data-execution-id="${ids[2]}"]`, { hasText: `Collapsed into ${ids[0]}` }).click();
  const why = page.getByRole('status', { name: 'Why debounced' });
  assert.match(await why.textContent() ?? '', `Debounced: collapsed into ${ids[0]}, which ran with the last input of its burst.`);
  await ui.shot(page, 'debounced-into');
  await why.getByRole('link', { name: ids[0] }).click();
  await page.waitForFunction((id) => location.hash.endsWith(id), ids[0]);
  await page.locator('.exec-head .status-success').waitFor();
  assert.equal(ui.errors, []);
});

test.run();
