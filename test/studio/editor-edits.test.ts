import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import { tmpDir } from '../_utils.js';
import { studioBrowser, studioHost } from './_studio.js';
import { drag, inHandle, nodeOf, outHandle, savedDraft } from './_editor.js';

// The host and another home publish to one cloud mount: the other home's publish puts the host's draft in conflict.
const cloud = { storage: { cloud: { driver: 'fs', base: tmpDir('weir-cloud-') } } };
const host = await studioHost({ config: cloud });
const other = await createWeir({ home: tmpDir('weir-other-'), config: cloud });
const ui = await studioBrowser();
test.after(async () => {
  await ui.close();
  await other.close();
  await host.close();
});

test('undo and redo take back every edit (keys and buttons); Delete removes; an edge end dragged away disconnects', async () => {
  const { id } = await host.weir.workflows.create('edits');
  const page = await ui.open(host, `#/flows/${id}/editor`);
  const edges = page.locator('.react-flow__edge');
  // Without the mouse: the palette's button focused and Enter pressed.
  await page.getByRole('button', { name: 'Add Set' }).focus();
  await page.keyboard.press('Enter');
  await nodeOf(page, 'set-1').waitFor();
  await page.getByRole('complementary', { name: 'Node set-1' }).waitFor();

  await page.keyboard.press('Control+z');
  await nodeOf(page, 'set-1').waitFor({ state: 'detached' });
  await page.keyboard.press('Control+Shift+z');
  await nodeOf(page, 'set-1').waitFor();
  await page.getByRole('button', { name: 'Undo' }).click();
  await nodeOf(page, 'set-1').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Redo' }).click();
  await nodeOf(page, 'set-1').waitFor();
  assert.ok(await page.getByRole('button', { name: 'Redo' }).isDisabled(), 'nothing more to redo');

  // Moved out of the trigger's way, connected, then the edge's end dragged off the node: disconnected; undo brings it back.
  await drag(page, nodeOf(page, 'set-1').locator('.wnode-type'), { dx: 260, dy: 0 });
  await drag(page, outHandle(page, 'manual_trigger-1'), inHandle(page, 'set-1'));
  await edges.first().waitFor();
  await drag(page, page.locator('.react-flow__edgeupdater-target'), { dx: 0, dy: 160 });
  await edges.first().waitFor({ state: 'detached' });
  await page.keyboard.press('Control+z');
  await edges.first().waitFor();

  // A node focused with the keyboard, selected with Enter, removed with Delete; undo brings it back.
  await page.locator('.react-flow__node[data-id="set-1"]').focus();
  await page.keyboard.press('Enter');
  await page.getByRole('complementary', { name: 'Node set-1' }).waitFor();
  await page.locator('.react-flow__node[data-id="set-1"]').focus();
  await page.keyboard.press('Delete');
  await nodeOf(page, 'set-1').waitFor({ state: 'detached' });
  await page.keyboard.press('Control+z');
  await nodeOf(page, 'set-1').waitFor();

  // The toolbar's Delete removes the selected node with its edge; undo restores both.
  await nodeOf(page, 'set-1').click();
  await page.getByRole('toolbar', { name: 'Editor' }).getByRole('button', { name: 'Delete' }).click();
  await nodeOf(page, 'set-1').waitFor({ state: 'detached' });
  assert.is(await edges.count(), 0);
  await page.keyboard.press('Control+z');
  await nodeOf(page, 'set-1').waitFor();
  await edges.first().waitFor();

  await page.keyboard.press('Control+s');
  await page.getByText('All changes saved').waitFor();
  const draft = await savedDraft(host, id);
  assert.equal(draft.nodes.map((n) => n.id), ['manual_trigger-1', 'set-1']);
  assert.equal(draft.edges, [{ source: 'manual_trigger-1', target: 'set-1' }]);
  assert.ok(draft.nodes[1].position.x >= draft.nodes[0].position.x + 200, JSON.stringify(draft.nodes.map((n) => n.position)));
  assert.equal(ui.errors, []);
});

test('the raw JSON view keeps a text that does not parse (shown as such) and applies one that does; leaving unsaved asks first', async () => {
  const { id } = await host.weir.workflows.create('raw', undefined, {
    config: { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, { id: 'set-1', type: 'set', config: { values: { a: 1 } } }], edges: [{ source: 'manual_trigger-1', target: 'set-1' }] },
  });
  const page = await ui.open(host, `#/flows/${id}/editor`);
  await nodeOf(page, 'set-1').click();
  const panel = page.getByRole('complementary', { name: 'Node set-1' });
  await panel.getByRole('tab', { name: 'JSON' }).click();
  const raw = panel.getByLabel('config JSON');
  assert.equal(JSON.parse(await raw.inputValue()), { values: { a: 1 } });
  const broken = '{ "values": { "greeting": "hi" ';
  await raw.fill(broken);
  await panel.getByRole('alert').getByText('Invalid JSON, not applied').waitFor();
  await panel.getByRole('tab', { name: 'Form' }).click();
  await panel.getByText('holds text that does not parse').waitFor();
  await panel.getByRole('tab', { name: 'JSON ⚠' }).click();
  assert.is(await raw.inputValue(), broken, 'the text is kept as typed');
  await ui.shot(page, 'editor-raw-json');
  await raw.fill('{ "values": { "greeting": "hi {{ $input.name }}" } }');
  await panel.getByRole('tab', { name: 'Form' }).click();
  assert.is(await panel.getByLabel('values key 1').inputValue(), 'greeting');
  assert.is(await panel.getByLabel('values.greeting', { exact: true }).inputValue(), 'hi {{ $input.name }}');

  // Unsaved: the link to the flow list asks; dismissed, the editor stays with its edit.
  await page.getByText('● Unsaved changes').waitFor();
  const asked: string[] = [];
  page.once('dialog', (d) => {
    asked.push(d.message());
    void d.dismiss();
  });
  await page.getByRole('link', { name: 'Flows' }).first().click();
  await page.getByText('● Unsaved changes').waitFor();
  assert.match(asked.join(), 'unsaved changes');
  assert.match(page.url(), `#/flows/${id}/editor`);
  await nodeOf(page, 'set-1').waitFor();

  await page.keyboard.press('Control+s');
  await page.getByText('All changes saved').waitFor();
  assert.equal((await savedDraft(host, id)).nodes[1].config, { values: { greeting: 'hi {{ $input.name }}' } });
  // Saved: leaving asks nothing.
  await page.getByRole('link', { name: 'Flows' }).first().click();
  await page.getByRole('link', { name: 'raw' }).waitFor();
  assert.equal(asked.length, 1);
  assert.equal(ui.errors, []);
});

test('a {{ }} field completes $input paths of the accepted webhook format and the data of the nodes before it', async () => {
  const { id } = await host.weir.workflows.create('hook', undefined, {
    config: {
      nodes: [
        { id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImmediately: false } },
        { id: 'set-1', type: 'set', config: { values: { kind: 'order' } } },
        { id: 'respond-1', type: 'respond', config: { status: 200 } },
      ],
      edges: [
        { source: 'webhook_trigger-1', target: 'set-1' },
        { source: 'set-1', target: 'respond-1' },
      ],
    },
  });
  await host.weir.capture.listen(id);
  assert.ok(await host.weir.capture.capture(id, { method: 'POST', headers: { 'content-type': 'application/json' }, query: {}, body: { order: { id: 7, total: 12.5 } } }));
  assert.ok((await host.weir.capture.accept(id)).variables.includes('body.order.id'));

  const page = await ui.open(host, `#/flows/${id}/editor`);
  await nodeOf(page, 'respond-1').click();
  const panel = page.getByRole('complementary', { name: 'Node respond-1' });
  await panel.getByRole('button', { name: 'Add entry' }).click();
  const value = panel.getByLabel('headers.key', { exact: true });
  await value.fill('');
  await value.pressSequentially('{{ $in');
  const list = page.getByRole('listbox', { name: 'Completions' });
  await list.getByRole('option', { name: /\$input\.body\.order\.id/ }).waitFor();
  const offered = await list.getByRole('option').allInnerTexts();
  assert.ok(offered.some((o) => o.startsWith('$input.body.order.total')), offered.join(' | '));
  await value.pressSequentially('put.body.order.');
  await ui.shot(page, 'editor-completions');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  assert.is(await value.inputValue(), '{{ $input.body.order.total }}');
  // The nodes before it: the trigger and set-1, as $node.<id>.data.
  await value.fill('order {{ $node');
  await value.press('End');
  await value.pressSequentially('.');
  const nodes = await list.getByRole('option').allInnerTexts();
  assert.ok(nodes.some((o) => o.startsWith('$node.set-1.data')), nodes.join(' | '));
  assert.ok(nodes.some((o) => o.startsWith('$node.webhook_trigger-1.data')), nodes.join(' | '));
  assert.not.ok(nodes.some((o) => o.startsWith('$node.respond-1')), 'not the node itself');
  await page.keyboard.press('Escape');
  await list.waitFor({ state: 'detached' });
  assert.equal(ui.errors, []);
});

test('publishing a draft whose published copy moved on is a conflict the page offers to force', async () => {
  const { id } = await host.weir.workflows.create('shared', undefined, { publish: true });
  await other.workflows.sync();
  const theirs = (await other.workflows.getLocal(id)).config;
  await other.workflows.save(id, { ...theirs, nodes: [...theirs.nodes, { id: 'set-1', type: 'set', config: { values: { by: 'other' } } }] });
  assert.is((await other.workflows.publish(id)).version, 2);

  const page = await ui.open(host, `#/flows/${id}/editor`);
  await page.getByRole('button', { name: 'Add Delay' }).click();
  await nodeOf(page, 'delay-1').waitFor();
  await page.getByRole('button', { name: 'Publish' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish conflict' });
  await dialog.getByText('this draft is based on version 1').waitFor();
  await ui.shot(page, 'editor-conflict');
  await dialog.getByRole('button', { name: 'Publish anyway' }).click();
  await page.getByText('Published version 3').waitFor();
  const published = (await host.weir.workflows.get(id)).published!;
  assert.equal(published.config.nodes.map((n) => n.id), ['manual_trigger-1', 'delay-1']);
  assert.equal(ui.errors, []);
});

test.run();
