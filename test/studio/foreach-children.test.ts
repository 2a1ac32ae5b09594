// A foreach's sub-flow runs in the Studio, as a person reads them: the parent execution counts its 200 runs and
// how they ended, pages through them (20 at a time), filters the failed ones, opens one and comes back.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync } from 'node:fs';
import { studioBrowser, studioHost, SHOTS } from './_studio.js';
import { callApi, publishChain } from './_executions.js';
import { until } from '../host/_helpers.js';

const host = await studioHost();
const ui = await studioBrowser();
test.after(async () => {
  await ui.close();
  await host.close();
});

const ITEMS = 200;
/** The items the sub-flow declines: 4 of the 200. */
const DECLINED = [7, 57, 107, 157];

test('a foreach of 200 sub-flow runs: the count and outcomes, pages of 20, the failed ones filtered, a run opened and its parent again', async () => {
  await publishChain(host.weir, 'charge', 'manual_trigger', [
    { type: 'code', id: 'code-1', config: { code: `if (${JSON.stringify(DECLINED)}.includes($input.index)) throw new Error('declined item ' + $input.index); return { charged: $input.item }` } },
  ]);
  const batch = await publishChain(host.weir, 'batch', 'manual_trigger', [
    { type: 'foreach', id: 'foreach-1', config: { items: '{{ $input.orders }}', flow: 'charge', parallelism: 8, onItemError: 'continue' } },
  ]);
  const orders = Array.from({ length: ITEMS }, (_, i) => `order-${i}`);
  const ran = await callApi(host, 'POST', `/workflows/${batch.id}/run`, { input: { orders }, published: true });
  assert.is(ran.json.status, 'success', JSON.stringify(ran.json.error));
  const parentId: string = ran.json.id;
  assert.is(ran.json.children.length, ITEMS);

  const opened = Date.now();
  const page = await ui.open(host, `#/executions/${parentId}`);
  const started = page.getByRole('complementary', { name: 'Run summary' }).getByRole('region', { name: 'Started executions' });
  await started.getByText(`${ITEMS} started: 196 succeeded, 4 failed`).waitFor();
  console.log(`      ${ITEMS} runs counted ${Date.now() - opened} ms after the page was opened`);
  const related = page.getByRole('navigation', { name: 'Related executions' });
  assert.match(await related.textContent() ?? '', `Started ${ITEMS} executions`);
  const rows = started.getByRole('table', { name: 'Started executions' }).locator('tr');
  const pager = started.getByRole('navigation', { name: 'Pages of started executions' });
  assert.is(await rows.count(), 20, 'one page of 20 rows, not 200');
  assert.match(await pager.textContent() ?? '', `1–20 of ${ITEMS}`);
  const firstPage = await rows.allTextContents();
  assert.ok(firstPage.some((t) => /item 7.*error.*declined item 7/.test(t)), `item 7 failed on the first page: ${firstPage.join(' | ')}`);
  assert.ok(firstPage.filter((t) => /success/.test(t)).length >= 18);
  await ui.shot(page, 'foreach-children');
  copyFileSync(`${SHOTS}foreach-children.png`, new URL('../../docs/studio/foreach-children.png', import.meta.url));

  await pager.getByRole('button', { name: 'Next' }).click();
  await pager.getByText(`21–40 of ${ITEMS}`).waitFor();
  for (let i = 2; i < 10; i++) await pager.getByRole('button', { name: 'Next' }).click();
  await pager.getByText(`181–200 of ${ITEMS}`).waitFor();
  assert.ok(await pager.getByRole('button', { name: 'Next' }).isDisabled(), 'the last page has no next');

  // The failed runs only, each named by its item and its error.
  await started.getByLabel('Status of started executions').selectOption('error');
  await page.waitForFunction(() => document.querySelectorAll('aside table[aria-label="Started executions"] tr').length === 4);
  const failed = await rows.allTextContents();
  assert.is(failed.length, 4);
  DECLINED.forEach((item, i) => assert.match(failed[i], new RegExp(`item ${item}.*declined item ${item}`)));
  assert.is(await pager.count(), 0, 'four rows need no pages');

  // One of them opened, then its parent again.
  const childId = (await rows.nth(1).getByRole('link').textContent())!;
  await rows.nth(1).getByRole('link').click();
  await page.waitForFunction((id) => location.hash.endsWith(id), childId);
  await page.locator('.exec-head').getByText('charge', { exact: true }).waitFor();
  assert.match(await page.getByRole('alert', { name: 'Execution error' }).textContent() ?? '', /declined item 57/);
  assert.match(await related.textContent() ?? '', `Started by ${parentId} (node foreach-1)`);
  await related.getByRole('link', { name: parentId }).click();
  await page.waitForFunction((id) => location.hash.endsWith(id), parentId);
  await started.getByText(`${ITEMS} started: 196 succeeded, 4 failed`).waitFor();

  // The foreach node's panel lists the same runs.
  await page.locator('[data-testid="node-foreach-1"]').click();
  const panel = page.getByRole('complementary', { name: 'Node foreach-1' });
  await panel.getByText(`${ITEMS} started: 196 succeeded, 4 failed`).waitFor();
  assert.is(await panel.getByRole('table', { name: 'Started executions' }).locator('tr').count(), 20);
  assert.equal(ui.errors, []);
});

test('a running foreach: its runs are listed as they start and end, without a reload', async () => {
  await publishChain(host.weir, 'slow', 'manual_trigger', [{ type: 'delay', id: 'delay-1', config: { ms: 1500 } }]);
  const batch = await publishChain(host.weir, 'slow-batch', 'manual_trigger', [{ type: 'foreach', id: 'foreach-1', config: { items: '{{ $input.orders }}', flow: 'slow', parallelism: 2 } }]);
  const orders = Array.from({ length: 16 }, (_, i) => i);
  const run = callApi(host, 'POST', `/workflows/${batch.id}/run`, { input: { orders }, published: true });
  const running = await until(async () => (await callApi(host, 'GET', `/executions?workflow=${batch.id}&status=running`)).json.items[0]?.id, 10_000, 'the foreach to run');
  const page = await ui.open(host, `#/executions/${running}`);
  const count = page.getByRole('region', { name: 'Started executions' }).locator('.exec-children-count');
  await count.getByText(/^\d+ started: .*running/).waitFor();
  const firstSeen = Number((await count.textContent())!.split(' ')[0]);
  assert.ok(firstSeen < 16, `the page opened early in the run (${firstSeen} started)`);
  // Runs started after the page opened are listed while the parent still runs.
  await page.waitForFunction((before) => {
    const n = Number(document.querySelector('.exec-children-count')?.textContent?.split(' ')[0]);
    return n > before && document.querySelector('.exec-head .status-running');
  }, firstSeen, { timeout: 30_000 });
  await count.getByText('16 started: 16 succeeded').waitFor({ timeout: 30_000 });
  assert.is((await run).json.status, 'success');
  await page.locator('.exec-head .status-success').waitFor();
  assert.equal(ui.errors, []);
});

test.run();
