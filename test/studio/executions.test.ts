// The Studio's executions in real Chromium: a flow's list filling live, one execution on the graph (live,
// failing), cancel, retry, rerun with an edited input, Try it, and call_flow's parent and child linked.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { studioBrowser, studioHost } from './_studio.js';
import { callApi, publishChain, publishOrders } from './_executions.js';

const host = await studioHost();
const ui = await studioBrowser();
const orders = await publishOrders(host.weir);
const hook = `${host.url}/trigger/${orders.token}`;
test.after(async () => {
  await ui.close();
  await host.close();
});

const post = (body: unknown) => fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const row = (page: Page, text: string) => page.locator('tr.exec-row', { hasText: text });
const idOf = async (page: Page) => (await page.evaluate(() => location.hash)).split('/').pop()!;

let page: Page;
let failedId: string;

test("a flow's executions appear live: a webhook call adds a running row that turns success, no reload", async () => {
  page = await ui.open(host, `#/flows/${orders.id}/executions`);
  await page.getByRole('table', { name: 'Executions' }).waitFor();
  await page.getByText('No executions yet.').waitFor();
  await page.evaluate(() => ((window as any).notReloaded = true));
  const answered = post({ amount: 42 });
  await row(page, 'running').waitFor();
  await row(page, 'success').waitFor();
  assert.is((await answered).status, 200);
  assert.is(await page.locator('tr.exec-row').count(), 1);
  assert.ok(await page.evaluate(() => (window as any).notReloaded), 'the page was not reloaded');
  await Promise.all([post({ amount: 7 }), post({ amount: 19, fail: true, card: '4000' })]);
  await row(page, 'error').waitFor();
  await page.locator('tr.exec-row', { hasText: 'success' }).nth(1).waitFor();
  await ui.shot(page, 'executions-list');
  assert.equal(ui.errors, []);
});

test('a running execution opened from the list is drawn on the graph and its nodes turn as they run', async () => {
  void post({ amount: 5 });
  await row(page, 'running').click();
  await page.locator('[data-testid="node-delay-1"] .status-running').waitFor();
  assert.is(await page.locator('[data-testid="node-webhook_trigger-1"] .status').textContent(), 'success');
  await ui.shot(page, 'execution-live');
  await page.locator('[data-testid="node-code-1"] .status-success').waitFor();
  await page.locator('.exec-head .status-success').waitFor();
  // Every node stays drawn as statuses change under it (React Flow hides a node it lost the size of).
  for (const node of await page.locator('.react-flow__node').all()) assert.ok(await node.isVisible(), `${await node.getAttribute('data-id')} is hidden`);
  assert.match(await page.locator('[data-testid="node-delay-1"] .wnode-ms').textContent() ?? '', /\d(\.\d)? s$/);
  await page.locator('[data-testid="node-code-1"]').click();
  const panel = page.getByRole('complementary', { name: 'Node code-1' });
  await panel.getByText('charged').waitFor();
  assert.match(await panel.textContent() ?? '', /Attempts1/);
  assert.equal(ui.errors, []);
});

test("keyboard: arrows and Enter open the failed execution, and its failing node's error reads on the page", async () => {
  await page.locator('tr.exec-row').first().focus();
  const rows = await page.locator('tr.exec-row').allTextContents();
  const errorAt = rows.findIndex((t) => t.includes('error'));
  for (let i = 0; i < errorAt; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const alert = page.getByRole('alert', { name: 'Execution error' });
  await alert.waitFor();
  assert.match(await alert.textContent() ?? '', /Failed at code-1.*card declined: 4000/);
  failedId = await idOf(page);
  assert.match(failedId, /^exec_/);
  // Enter on a focused node opens it, as a click does.
  await page.locator('.react-flow__node[data-id="code-1"]').focus();
  await page.keyboard.press('Enter');
  const nodeError = page.getByRole('alert', { name: 'Node error' });
  await nodeError.waitFor();
  assert.match(await nodeError.textContent() ?? '', /card declined: 4000/);
  assert.match(await nodeError.locator('code').textContent() ?? '', /^[A-Z_]+$/);
  await ui.shot(page, 'execution-error');
  assert.equal(ui.errors, []);
});

test('retry makes a new execution linked to the failed one; rerun with an edited input succeeds', async () => {
  await page.getByRole('button', { name: 'Retry' }).click();
  await page.waitForFunction((old) => !location.hash.endsWith(old), failedId);
  const retryId = await idOf(page);
  const related = page.getByRole('navigation', { name: 'Related executions' });
  await related.getByRole('link', { name: failedId }).waitFor();
  assert.match(await related.textContent() ?? '', `Retries ${failedId}`);
  await page.getByRole('alert', { name: 'Execution error' }).waitFor();

  await page.getByRole('button', { name: 'Rerun…' }).click();
  const dialog = page.getByRole('dialog', { name: `Rerun ${retryId}` });
  const input = dialog.getByLabel('Input (JSON)');
  assert.equal(JSON.parse(await input.inputValue()).body, { amount: 19, fail: true, card: '4000' });
  await input.fill('{"body": {"amount": 19, "fail": tru');
  await dialog.getByText('Not JSON').waitFor();
  assert.ok(await dialog.getByRole('button', { name: 'Run' }).isDisabled());
  await input.fill(JSON.stringify({ body: { amount: 23 }, headers: {}, query: {}, method: 'POST' }));
  await dialog.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction((old) => !location.hash.endsWith(old), retryId);
  await page.locator('.exec-head .status-success').waitFor();
  await related.getByRole('link', { name: retryId }).waitFor();
  const rerunId = await idOf(page);
  const stored = await callApi(host, 'GET', `/executions/${rerunId}`);
  assert.is(stored.json.rerunOf, retryId);
  assert.equal(stored.json.nodes['code-1'].data, { charged: 23 });
  await page.locator('[data-testid="node-code-1"]').click();
  await page.getByRole('complementary', { name: 'Node code-1' }).getByText('23', { exact: true }).waitFor();
  await ui.shot(page, 'execution-rerun');
  assert.equal(ui.errors, []);
});

test('cancel a waiting execution from the page', async () => {
  const approval = await publishChain(host.weir, 'approval', 'manual_trigger', [{ type: 'wait', id: 'wait-1', config: { for: '1h' } }, { type: 'set', config: { values: { approved: true } } }]);
  const ran = await callApi(host, 'POST', `/workflows/${approval.id}/run`, { input: { order: 7 } });
  assert.is(ran.json.status, 'waiting');
  await page.evaluate((id) => (location.hash = `#/executions/${id}`), ran.json.id);
  await page.locator('.exec-head .status-waiting').waitFor();
  await page.locator('[data-testid="node-wait-1"] .status-waiting').waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.locator('.exec-head .status-cancelled').waitFor();
  assert.is((await callApi(host, 'GET', `/executions/${ran.json.id}`)).json.status, 'cancelled');
  assert.is(await page.getByRole('button', { name: 'Cancel' }).count(), 0);
  await ui.shot(page, 'execution-cancelled');
  assert.equal(ui.errors, []);
});

test("Try it runs the draft with typed JSON, a captured request or a past execution's input, and shows each node's result", async () => {
  await page.evaluate((id) => (location.hash = `#/flows/${id}/editor`), orders.id);
  await page.getByRole('button', { name: 'Try it' }).click();
  const dialog = page.getByRole('dialog', { name: 'Try the draft' });
  const input = dialog.getByLabel('Input (JSON)');
  await page.waitForFunction(() => (document.querySelector('.input-editor textarea') as HTMLTextAreaElement)?.value.includes('"headers"'));

  // A captured request fills the input.
  await callApi(host, 'POST', `/workflows/${orders.id}/capture/listen`, {});
  await post({ amount: 64, from: 'capture' });
  await dialog.getByRole('button', { name: 'Captured request' }).click();
  await dialog.getByText('The captured request.').waitFor();
  assert.equal(JSON.parse(await input.inputValue()).body, { amount: 64, from: 'capture' });
  await callApi(host, 'POST', `/workflows/${orders.id}/capture/decline`, {});

  // So does a past execution's input.
  await dialog.getByRole('button', { name: 'A past execution…' }).click();
  await dialog.getByRole('list', { name: 'Past executions' }).getByRole('button').first().click();
  assert.ok(JSON.parse(await input.inputValue()).body.amount > 0);

  await input.fill(JSON.stringify({ body: { amount: 3 }, headers: {}, query: {}, method: 'POST' }));
  await dialog.getByRole('button', { name: 'Run the draft' }).click();
  await page.waitForFunction(() => /#\/flows\/[^/]+\/executions\/exec_/.test(location.hash));
  await page.locator('.exec-head .status-success').waitFor();
  for (const id of ['webhook_trigger-1', 'delay-1', 'code-1']) await page.locator(`[data-testid="node-${id}"] .status-success`).waitFor();
  assert.match(await page.locator('.exec-head').textContent() ?? '', /draft/);
  const summary = page.getByRole('complementary', { name: 'Run summary' });
  assert.equal(await summary.getByRole('table', { name: 'Nodes' }).locator('tr').count(), 3);
  await summary.getByRole('button', { name: 'code-1' }).click();
  await page.getByRole('complementary', { name: 'Node code-1' }).getByText('charged').waitFor();
  await ui.shot(page, 'execution-tryit');
  assert.equal(ui.errors, []);
});

test("a run that ends before the list's event stream connects is listed once it does, without a reload", async () => {
  const quick = await publishChain(host.weir, 'quick', 'manual_trigger', [{ type: 'set', config: { values: { ok: true } } }]);
  const late = await ui.open(host, '#/flows');
  // The stream is held at the network until the run has ended: the first page was read before the run.
  let connecting!: () => void;
  const asked = new Promise<void>((resolve) => (connecting = resolve));
  let letGo!: () => void;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  await late.route('**/api/v1/workflows/*/events', async (route) => {
    connecting();
    await held;
    await route.continue();
  });
  await late.evaluate((id) => (location.hash = `#/flows/${id}/executions`), quick.id);
  await late.getByText('No executions yet.').waitFor();
  await asked;
  const ran = await callApi(host, 'POST', `/workflows/${quick.id}/run`, { input: {}, published: true });
  assert.is(ran.json.status, 'success');
  assert.is(await late.locator('tr.exec-row').count(), 0, 'the first page was read before the run');
  letGo();
  await late.locator(`tr.exec-row[data-execution-id="${ran.json.id}"]`, { hasText: 'success' }).waitFor();
  assert.is(await late.locator('tr.exec-row').count(), 1);
  // And the stream, once open, still adds what comes next.
  const next = await callApi(host, 'POST', `/workflows/${quick.id}/run`, { input: {}, published: true });
  await late.locator(`tr.exec-row[data-execution-id="${next.json.id}"]`, { hasText: 'success' }).waitFor();
  assert.is(await late.locator('tr.exec-row').count(), 2);
  await late.context().close();
  assert.equal(ui.errors, []);
});

test("a call_flow parent and its child execution link to each other", async () => {
  await publishChain(host.weir, 'child', 'manual_trigger', [{ type: 'set', config: { values: { doubled: 2 } } }]);
  const parent = await publishChain(host.weir, 'parent', 'manual_trigger', [{ type: 'call_flow', id: 'call_flow-1', config: { flow: 'child' } }]);
  const ran = await callApi(host, 'POST', `/workflows/${parent.id}/run`, { input: {}, published: true });
  assert.is(ran.json.status, 'success');
  const childId = ran.json.children[0].executionId;
  await page.evaluate((id) => (location.hash = `#/executions/${id}`), ran.json.id);
  const related = page.getByRole('navigation', { name: 'Related executions' });
  await related.getByRole('link', { name: childId }).click();
  await page.waitForFunction((id) => location.hash.endsWith(id), childId);
  await page.locator('.exec-head').getByText('child', { exact: true }).waitFor();
  assert.match(await related.textContent() ?? '', `Started by ${ran.json.id} (node call_flow-1)`);
  await ui.shot(page, 'execution-child');
  await related.getByRole('link', { name: ran.json.id }).click();
  await page.waitForFunction((id) => location.hash.endsWith(id), ran.json.id);
  await page.locator('[data-testid="node-call_flow-1"]').click();
  await page.getByRole('complementary', { name: 'Node call_flow-1' }).getByRole('link', { name: childId }).waitFor();
  assert.equal(ui.errors, []);
});

test.run();
