import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { studioBrowser, studioHost } from './_studio.js';
import { drag, inHandle, nodeOf, outHandle, savedDraft } from './_editor.js';

const host = await studioHost();
const ui = await studioBrowser();
test.after(async () => {
  await ui.close();
  await host.close();
});

test('a user builds webhook -> condition -> two responds from a new draft, fixes a problem, saves, diffs, publishes, copies the URL and watches its runs live', async () => {
  const { id } = await host.weir.workflows.create('orders', 'routes orders');
  const page = await ui.open(host, `#/flows/${id}/editor`);
  await page.getByRole('button', { name: 'Add Webhook trigger' }).waitFor();
  await nodeOf(page, 'manual_trigger-1').waitFor();
  await ui.shot(page, 'editor-empty');

  // The new draft's manual trigger goes: selected and deleted with the Delete key. The flow then has no trigger.
  await nodeOf(page, 'manual_trigger-1').click();
  await page.keyboard.press('Delete');
  await nodeOf(page, 'manual_trigger-1').waitFor({ state: 'detached' });
  await page.getByRole('list', { name: 'Flow problems' }).getByText('exactly one trigger node, found 0').waitFor();

  // Added from the palette: the trigger by a click, the others dragged to where they go.
  await page.getByRole('button', { name: 'Add Webhook trigger' }).click();
  await nodeOf(page, 'webhook_trigger-1').waitFor();
  await page.getByRole('list', { name: 'Flow problems' }).waitFor({ state: 'detached' });
  // Zoomed out a step, the trigger moved to the left, the others dropped to its right.
  await page.getByRole('button', { name: 'Zoom Out' }).click();
  const canvas = page.locator('.canvas-box .react-flow__pane');
  const box = (await canvas.boundingBox())!;
  const trigger = (await nodeOf(page, 'webhook_trigger-1').boundingBox())!;
  await drag(page, nodeOf(page, 'webhook_trigger-1').locator('.wnode-type'), { dx: box.x + box.width * 0.15 - (trigger.x + trigger.width / 2), dy: 0 });
  const drop = async (name: string, x: number, dy: number) => page.getByRole('button', { name }).dragTo(canvas, { targetPosition: { x: box.width * x, y: box.height / 2 + dy } });
  await drop('Add Condition', 0.45, 0);
  await nodeOf(page, 'condition-1').waitFor();
  await drop('Add Respond', 0.75, -110);
  await nodeOf(page, 'respond-1').waitFor();
  await drop('Add Respond', 0.75, 110);
  await nodeOf(page, 'respond-2').waitFor();

  // Edges drawn between handles: the condition's true and false handles lead to the two responds.
  await drag(page, outHandle(page, 'webhook_trigger-1'), inHandle(page, 'condition-1'));
  await drag(page, outHandle(page, 'condition-1', 'true'), inHandle(page, 'respond-1'));
  await drag(page, outHandle(page, 'condition-1', 'false'), inHandle(page, 'respond-2'));
  await page.locator('.react-flow__edge').nth(2).waitFor();
  assert.is(await page.locator('.react-flow__edge').count(), 3);
  await page.getByText('true', { exact: true }).first().waitFor();

  // The condition's form: its rule emptied is a problem on the node and in the form; a rule typed fixes it.
  await nodeOf(page, 'condition-1').click();
  const rules = page.getByRole('complementary', { name: 'Node condition-1' }).getByLabel('rules', { exact: true });
  await rules.fill('');
  await nodeOf(page, 'condition-1').locator('.wnode-problems').getByText('required').waitFor();
  await page.getByRole('complementary', { name: 'Node condition-1' }).getByRole('alert').getByText('required').first().waitFor();
  await ui.shot(page, 'editor-problem');
  await rules.fill('{"==": [{"var": "input.body.kind"}, "vip"]}');
  await nodeOf(page, 'condition-1').locator('.wnode-problems').waitFor({ state: 'detached' });

  // The second respond answers 404: typed in its status field.
  await nodeOf(page, 'respond-2').click();
  const status = page.getByRole('complementary', { name: 'Node respond-2' }).getByLabel('status', { exact: true });
  await status.fill('404');
  await page.getByLabel('Problems').getByText('No problems').waitFor();
  await page.getByText('● Unsaved changes').waitFor();
  await ui.shot(page, 'editor-built');

  await page.keyboard.press('Control+s');
  await page.getByText('All changes saved').waitFor();
  const draft = await savedDraft(host, id);
  assert.equal(draft.nodes.map((n) => n.id), ['webhook_trigger-1', 'condition-1', 'respond-1', 'respond-2']);
  assert.equal(
    draft.edges.map((e) => [e.source, e.target, e.sourceHandle]),
    [
      ['webhook_trigger-1', 'condition-1', undefined],
      ['condition-1', 'respond-1', 'true'],
      ['condition-1', 'respond-2', 'false'],
    ],
  );
  assert.equal(draft.nodes[1].config, { rules: { '==': [{ var: 'input.body.kind' }, 'vip'] } });
  assert.is(draft.nodes[3].config.status, 404);
  for (const n of draft.nodes) assert.ok(Number.isFinite(n.position?.x) && Number.isFinite(n.position?.y), `${n.id} has a position`);
  // The dragged nodes sit where they were dropped: left to right, the responds above and below.
  const [t, c, r1, r2] = draft.nodes.map((n) => n.position);
  assert.ok(t.x < c.x && c.x < r1.x && r1.y < r2.y, JSON.stringify(draft.nodes.map((n) => n.position)));

  // Nothing published yet: the diff has everything on the draft's side. Published, then one change to see side by side.
  await page.getByRole('button', { name: 'Diff' }).click();
  await page.getByRole('dialog', { name: 'Diff: published and draft' }).getByText('Published (nothing yet)').waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByText('Published version 1').waitFor();
  await page.locator('.page-head .status-synced').waitFor();

  await status.fill('410');
  await page.keyboard.press('Control+s');
  await page.getByText('All changes saved').waitFor();
  await page.getByRole('button', { name: 'Diff' }).click();
  const dialog = page.getByRole('dialog', { name: 'Diff: published and draft' });
  await dialog.getByText('Published (version 1)').waitFor();
  await dialog.getByRole('list', { name: 'Changes' }).getByText('respond-2').waitFor();
  const changed = dialog.locator('tr[data-kind="changed"]');
  await changed.first().waitFor();
  assert.match(await changed.first().locator('td').nth(1).innerText(), '"status": 404');
  assert.match(await changed.first().locator('td').nth(3).innerText(), '"status": 410');
  await ui.shot(page, 'editor-diff');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByText('Published version 2').waitFor();
  const published = (await host.weir.workflows.get(id)).published!;
  assert.is(published.version, 2);
  assert.is(published.config.nodes.find((n) => n.id === 'respond-2')!.config!.status, 410);

  // Live: the URL copied from the Webhook tab, posted to while the Executions tab is open; each run appears and ends.
  const tabs = page.getByRole('navigation', { name: 'Flow' });
  await tabs.getByRole('link', { name: 'Webhook' }).click();
  await page.getByRole('button', { name: 'Copy the webhook URL' }).click();
  await page.getByRole('button', { name: 'Copy the webhook URL' }).getByText('Copied').waitFor();
  const url = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(url.startsWith(`${host.url}/trigger/`), url);
  await tabs.getByRole('link', { name: 'Executions' }).click();
  await page.getByRole('table', { name: 'Executions' }).waitFor();
  const post = (kind: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind }) });
  // respond-1 kept the config its type's example gave it when added (status 201).
  assert.is((await post('vip')).status, 201);
  await page.locator('tr.exec-row', { hasText: 'success' }).first().waitFor();
  assert.is((await post('regular')).status, 410);
  await page.locator('tr.exec-row', { hasText: 'success' }).nth(1).waitFor();
  await ui.shot(page, 'journey-executions-live');
  // The newest run drawn on the graph: the false branch answered, the true branch skipped.
  await page.locator('tr.exec-row').first().click();
  await page.locator('[data-testid="node-respond-2"] .status-success').waitFor();
  await page.locator('[data-testid="node-respond-1"] .status-skipped').waitFor();
  await ui.shot(page, 'journey-execution-graph');
  // Back in the editor, the last run is drawn on the nodes it reached.
  await tabs.getByRole('link', { name: 'Editor' }).click();
  await page.locator('[data-testid="node-respond-2"] .status-success').waitFor();
  await page.locator('[data-testid="node-respond-1"] .status-skipped').waitFor();
  await ui.shot(page, 'editor-last-run');
  assert.equal(ui.errors, []);
});

test.run();
