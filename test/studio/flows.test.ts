import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { seedFlows } from './_flows.js';
import { studioBrowser, studioHost } from './_studio.js';

const host = await studioHost();
const ids = await seedFlows(host);
const ui = await studioBrowser();
test.after(async () => {
  await ui.close();
  await host.close();
});

const row = (page: Page, name: string) => page.locator('table.flows tbody tr').filter({ has: page.getByRole('link', { name, exact: true }) });
const names = (page: Page) => page.locator('table.flows tbody tr .flow-name').allTextContents();
/**
 * The console errors since the last call, but for the browser's own line about an answer the test asked for
 * (the 409 a taken name gets, shown in the dialog).
 */
const consoleErrors = (status?: number) => ui.errors.splice(0).filter((e) => !(status && e.includes(`status of ${status}`)));

test('the list shows each flow with its trigger, sync status, last execution and errors of the last 24 h', async () => {
  const page = await ui.open(host);
  await row(page, 'orders-to-slack').waitFor();
  assert.equal(await names(page), ['new-idea', 'nightly-cleanup', 'orders-to-slack', 'signup-form']);
  const cells = async (name: string) => (await row(page, name).locator('td').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  const orders = await cells('orders-to-slack');
  assert.equal(orders.slice(0, 3), ['orders-to-slack Posts each new order to the sales channel', 'webhook_trigger', 'synced']);
  assert.match(orders[3], /^success (just now|\d+ min ago)$/);
  assert.is(orders[4], '0');
  const cleanup = await cells('nightly-cleanup');
  assert.equal(cleanup.slice(1, 3), ['manual_trigger', 'synced']);
  assert.match(cleanup[3], /^error /);
  assert.is(cleanup[4], '2');
  assert.equal((await cells('signup-form')).slice(1, 5), ['webhook_trigger', 'dirty', 'never run', '0']);
  assert.equal((await cells('new-idea')).slice(1, 5), ['manual_trigger', 'draft', 'never run', '0']);
  await ui.shot(page, 'flows-list');
  // The last execution links to it.
  await row(page, 'nightly-cleanup').getByRole('link', { name: /last execution: error/ }).click();
  await page.waitForFunction((id) => location.hash.startsWith(`#/flows/${id}/executions/`), ids['nightly-cleanup']);
  assert.equal(consoleErrors(), []);
  await page.context().close();
});

test('the search box filters by name, description and trigger type', async () => {
  const page = await ui.open(host);
  const search = page.getByRole('searchbox', { name: 'Search flows' });
  await row(page, 'orders-to-slack').waitFor();
  await search.fill('webhook');
  await page.getByText('2 of 4').waitFor();
  assert.equal(await names(page), ['orders-to-slack', 'signup-form']);
  await search.fill('stale carts');
  await page.getByText('1 of 4').waitFor();
  assert.equal(await names(page), ['nightly-cleanup']);
  await search.fill('SLACK');
  await page.getByText('1 of 4').waitFor();
  assert.equal(await names(page), ['orders-to-slack']);
  await ui.shot(page, 'flows-search');
  await search.fill('invoices');
  await page.getByText('No flow matches "invoices".').waitFor();
  assert.is(await page.locator('table.flows').count(), 0);
  await search.fill('');
  await page.getByText('new-idea').waitFor();
  assert.is((await names(page)).length, 4);
  assert.equal(consoleErrors(), []);
  await page.context().close();
});

test('New flow creates an empty draft and opens it; a taken name is refused in the dialog with its hint', async () => {
  const page = await ui.open(host);
  await page.getByRole('button', { name: 'New flow' }).click();
  const dialog = page.getByRole('dialog', { name: 'New flow' });
  await dialog.getByRole('radio', { name: /webhook-to-respond/ }).waitFor();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('orders-to-slack');
  await dialog.getByRole('button', { name: 'Create and open' }).click();
  await dialog.getByRole('alert').getByText('a workflow named "orders-to-slack" already exists').waitFor();
  assert.match(await dialog.getByRole('alert').innerText(), 'workflow names are unique');
  await ui.shot(page, 'flows-create-error');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('inbox-triage');
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Sorts the support inbox');
  assert.ok(await dialog.getByRole('radio', { name: /Empty flow/ }).isChecked(), 'empty is the default');
  await ui.shot(page, 'flows-create');
  await dialog.getByRole('button', { name: 'Create and open' }).click();
  await page.getByRole('heading', { name: 'inbox-triage' }).waitFor();
  const created = (await host.call('GET', '/workflows')).find((w: any) => w.name === 'inbox-triage');
  assert.ok(created, 'the flow exists');
  assert.is(created.description, 'Sorts the support inbox');
  assert.is(created.trigger, 'manual_trigger');
  assert.is(created.status, 'draft');
  assert.ok((await page.evaluate(() => location.hash)).startsWith(`#/flows/${created.id}`), 'the new flow is open');
  await page.getByRole('status').getByText('Created flow "inbox-triage"').waitFor();
  assert.equal(consoleErrors(409), []);
  await page.context().close();
});

test('New flow from a template starts from its trigger and nodes', async () => {
  const page = await ui.open(host);
  await page.getByRole('button', { name: 'New flow' }).click();
  const dialog = page.getByRole('dialog', { name: 'New flow' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('greeter');
  await dialog.getByRole('radio', { name: /webhook-to-respond/ }).check();
  await dialog.getByRole('button', { name: 'Create and open' }).click();
  await page.getByRole('heading', { name: 'greeter' }).waitFor();
  const created = (await host.call('GET', '/workflows')).find((w: any) => w.name === 'greeter');
  assert.is(created.trigger, 'webhook_trigger');
  const draft = await host.call('GET', `/workflows/${created.id}/draft`);
  assert.equal(
    draft.config.nodes.map((n: any) => n.id),
    ['webhook_trigger-1', 'set-1', 'respond-1'],
  );
  assert.equal(consoleErrors(), []);
  await page.context().close();
});

test('Rename changes the name and the description', async () => {
  const page = await ui.open(host);
  await row(page, 'new-idea').getByRole('button', { name: 'Rename new-idea' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename new-idea' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('better-idea');
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Still a draft');
  await ui.shot(page, 'flows-rename');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await row(page, 'better-idea').getByText('Still a draft').waitFor();
  await page.getByRole('status').getByText('Renamed "new-idea" to "better-idea"').waitFor();
  await ui.shot(page, 'flows-renamed');
  assert.is(await dialog.count(), 0, 'the dialog closed');
  assert.is(await row(page, 'new-idea').count(), 0);
  const wf = await host.call('GET', `/workflows/${ids['new-idea']}`);
  assert.is(wf.name, 'better-idea');
  assert.is(wf.description, 'Still a draft');
  assert.equal(consoleErrors(), []);
  await page.context().close();
});

test('Delete asks first; confirmed, a published flow goes with its published copy', async () => {
  const page = await ui.open(host);
  await row(page, 'signup-form').getByRole('button', { name: 'Delete signup-form' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete signup-form?' });
  const unpublish = dialog.getByRole('checkbox', { name: /Also remove the published copy/ });
  assert.ok(await unpublish.isChecked(), 'a published flow is unpublished too unless unticked');
  await ui.shot(page, 'flows-delete');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.is(await dialog.count(), 0);
  assert.is(await row(page, 'signup-form').count(), 1, 'cancel keeps the flow');

  await row(page, 'signup-form').getByRole('button', { name: 'Delete signup-form' }).click();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('status').getByText('Deleted flow "signup-form"').waitFor();
  await row(page, 'signup-form').waitFor({ state: 'detached' });
  assert.not.ok((await host.call('GET', '/workflows')).some((w: any) => w.name === 'signup-form'));
  assert.is(await host.weir.workflows.findPublished(ids['signup-form']), null, 'the published copy is gone');
  assert.equal(consoleErrors(), []);
  await page.context().close();
});

test.run();
