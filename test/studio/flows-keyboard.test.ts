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

/** What has the focus: `row <flow name>`, a control's aria-label, `input <its value>`, or a button's text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    if (el.tagName === 'TR') return `row ${el.querySelector('.flow-name')?.textContent}`;
    if (el.getAttribute('aria-label')) return el.getAttribute('aria-label')!;
    if (el instanceof HTMLInputElement) return `input ${el.value}`;
    return el.textContent?.trim() || el.tagName;
  });

test('with the keyboard only: Tab reaches the list, arrows move, the focus shows, Enter opens the flow', async () => {
  const page = await ui.open(host);
  await page.locator('table.flows tbody tr').first().waitFor();
  // From the top of the page: the sidebar's links, the search box, New flow, then the list as one stop.
  let stops = 0;
  while (!(await focused(page)).startsWith('row ') && stops++ < 10) await page.keyboard.press('Tab');
  assert.is(await focused(page), 'row new-idea');
  assert.is(stops, 7, 'brand, 3 sections, search, New flow, the list');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  assert.is(outline, 'solid', 'the focused row is outlined');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.is(await focused(page), 'row orders-to-slack');
  await page.keyboard.press('End');
  assert.is(await focused(page), 'row signup-form');
  await page.keyboard.press('ArrowUp');
  assert.is(await focused(page), 'row orders-to-slack');
  // The current row's buttons follow it in the Tab order; the others' do not.
  await page.keyboard.press('Tab');
  assert.match(await focused(page), /^last execution: success/);
  await page.keyboard.press('Tab');
  assert.is(await focused(page), 'Rename orders-to-slack');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  assert.is(await focused(page), 'row orders-to-slack');
  await ui.shot(page, 'flows-keyboard');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'orders-to-slack' }).waitFor();
  assert.is(await page.evaluate(() => location.hash), `#/flows/${ids['orders-to-slack']}`);
  assert.equal(ui.errors.splice(0), []);
  await page.context().close();
});

test('`/` focuses the search, ArrowDown enters the results, Escape closes a dialog and gives the focus back', async () => {
  const page = await ui.open(host);
  await page.locator('table.flows tbody tr').first().waitFor();
  await page.keyboard.press('/');
  assert.is(await focused(page), 'Search flows');
  await page.keyboard.type('webhook');
  await page.getByText('2 of 4').waitFor();
  assert.is(await page.getByRole('searchbox').inputValue(), 'webhook', 'the `/` was not typed into the box');
  await page.keyboard.press('ArrowDown');
  assert.is(await focused(page), 'row orders-to-slack');
  await page.keyboard.press('F2');
  const rename = page.getByRole('dialog', { name: 'Rename orders-to-slack' });
  await rename.waitFor();
  assert.is(await focused(page), 'input orders-to-slack', 'the name field has the focus');
  // Tab stays in the dialog.
  for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
  assert.ok(await rename.evaluate((d) => d.contains(document.activeElement)), 'the focus stays in the dialog');
  await page.keyboard.press('Escape');
  await rename.waitFor({ state: 'detached' });
  assert.is(await focused(page), 'row orders-to-slack');
  assert.equal(ui.errors.splice(0), []);
  await page.context().close();
});

test('`n` opens New flow with the name field focused; Enter creates and opens it', async () => {
  const page = await ui.open(host);
  await page.locator('table.flows tbody tr').first().waitFor();
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog', { name: 'New flow' });
  await dialog.waitFor();
  assert.is(await focused(page), 'input ');
  await page.keyboard.type('typed-flow');
  assert.is(await dialog.getByRole('textbox', { name: 'Name' }).inputValue(), 'typed-flow', 'the `n` was not typed into the name');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'typed-flow' }).waitFor();
  assert.ok((await host.call('GET', '/workflows')).some((w: any) => w.name === 'typed-flow'));
  assert.equal(ui.errors.splice(0), []);
  await page.context().close();
});

test('Delete on a row asks, Enter on the Delete button confirms, and the focus stays in the list', async () => {
  const page = await ui.open(host);
  await page.locator('table.flows tbody tr').first().waitFor();
  await page.keyboard.press('/');
  await page.keyboard.press('ArrowDown');
  assert.is(await focused(page), 'row new-idea');
  await page.keyboard.press('Delete');
  const dialog = page.getByRole('dialog', { name: 'Delete new-idea?' });
  await dialog.waitFor();
  assert.is(await focused(page), 'Cancel', 'Cancel has the focus: Enter alone deletes nothing');
  await page.keyboard.press('Tab');
  assert.is(await focused(page), 'Delete');
  await page.keyboard.press('Enter');
  await page.getByRole('link', { name: 'new-idea', exact: true }).waitFor({ state: 'detached' });
  assert.not.ok((await host.call('GET', '/workflows')).some((w: any) => w.name === 'new-idea'));
  await page.waitForFunction(() => document.activeElement?.tagName === 'TR');
  assert.is(await focused(page), 'row nightly-cleanup', 'the next row has the focus');
  await page.keyboard.press('ArrowDown');
  assert.is(await focused(page), 'row orders-to-slack');
  assert.equal(ui.errors.splice(0), []);
  await page.context().close();
});

test('F2 renames from the keyboard; the renamed flow keeps the focus where the new name sorts it', async () => {
  const page = await ui.open(host);
  await page.locator('table.flows tbody tr').first().waitFor();
  await page.keyboard.press('/');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowUp');
  assert.is(await focused(page), 'row signup-form', 'after typed-flow, made above');
  await page.keyboard.press('F2');
  await page.getByRole('dialog', { name: 'Rename signup-form' }).waitFor();
  await page.keyboard.type('a-signups');
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('Renamed "signup-form" to "a-signups"').waitFor();
  await page.waitForFunction(() => document.querySelector('table.flows tbody tr')?.textContent?.startsWith('a-signups'));
  assert.is(await focused(page), 'row a-signups', 'the renamed flow keeps the focus, now first');
  await page.keyboard.press('ArrowDown');
  assert.is(await focused(page), 'row nightly-cleanup', 'the arrows go on from its new place');
  assert.equal(ui.errors.splice(0), []);
  await page.context().close();
});

test.run();
