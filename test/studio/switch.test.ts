// A switch in the Studio: its handles come from its cases (the host answers them for the config being edited),
// drawn one per case and the default, labelled; an edge dragged from one saves with that handle; a fan-out run's
// branches drawn in the editor and in the execution's graph.
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

const set = (n: number, branch: string) => ({ id: `set-${n}`, type: 'set', config: { values: { branch } }, position: { x: 700, y: n * 120 - 100 } });

test('a switch of 3 cases and a default shows 4 labelled handles; edges dragged from the default and from a case added save with them; a fan-out run is drawn', async () => {
  const { id } = await host.weir.workflows.create('router', 'routes events by kind');
  await host.weir.workflows.save(id, {
    nodes: [
      { id: 'manual_trigger-1', type: 'manual_trigger', config: {}, position: { x: 0, y: 200 } },
      {
        id: 'switch-1',
        type: 'switch',
        config: {
          mode: 'all',
          cases: [
            { when: "{{ $input.kind == 'order' }}", handle: 'order' },
            { when: "{{ $input.kind == 'refund' }}", handle: 'refund' },
            { when: '{{ $input.urgent }}', handle: 'urgent' },
          ],
          default: 'other',
        },
        position: { x: 260, y: 200 },
      },
      set(1, 'order'),
      set(2, 'refund'),
      set(3, 'urgent'),
      set(4, 'other'),
    ],
    // The default's edge is left for the user to draw.
    edges: [
      { source: 'manual_trigger-1', target: 'switch-1' },
      { source: 'switch-1', target: 'set-1', sourceHandle: 'order' },
      { source: 'switch-1', target: 'set-2', sourceHandle: 'refund' },
      { source: 'switch-1', target: 'set-3', sourceHandle: 'urgent' },
    ],
  });
  // An urgent order: two cases match, both branches run.
  const run = await host.weir.run(id, { kind: 'order', urgent: true });
  assert.is(run.status, 'success', JSON.stringify(run.error));
  assert.equal(run.nodes['switch-1'].handle, ['order', 'urgent']);

  const page = await ui.open(host, `#/flows/${id}/editor`);
  const sw = nodeOf(page, 'switch-1');
  // The default has no edge yet: its handle comes from the host's answer for the config.
  await outHandle(page, 'switch-1', 'other').waitFor();
  const handles = sw.locator('.react-flow__handle.source');
  assert.equal(await handles.evaluateAll((hs) => hs.map((h) => h.getAttribute('data-handle'))), ['order', 'refund', 'urgent', 'other']);
  assert.equal(await sw.locator('.handle-label').allInnerTexts(), ['order', 'refund', 'urgent', 'other']);
  // Handles are stacked top to bottom in case order, the default last.
  const tops = await Promise.all(['order', 'refund', 'urgent', 'other'].map(async (h) => (await outHandle(page, 'switch-1', h).boundingBox())!.y));
  assert.ok(tops.every((y, i) => i === 0 || y > tops[i - 1]), JSON.stringify(tops));

  // The newest run drawn on the nodes: the order and urgent branches ran, the others were skipped.
  await page.locator('[data-testid="node-set-1"] .status-success').waitFor();
  await page.locator('[data-testid="node-set-3"] .status-success').waitFor();
  await page.locator('[data-testid="node-set-2"] .status-skipped').waitFor();
  await page.locator('[data-testid="node-set-4"] .status-skipped').waitFor();

  await drag(page, outHandle(page, 'switch-1', 'other'), inHandle(page, 'set-4'));
  await page.locator('.react-flow__edge').nth(4).waitFor();
  assert.is(await page.locator('.react-flow__edge').count(), 5);
  await page.getByLabel('Problems').getByText('No problems').waitFor();
  await ui.shot(page, 'editor-switch');

  // A case added in the form adds its handle, before the default's, and an edge can be drawn from it at once.
  await sw.locator('.wnode-type').click();
  const form = page.getByRole('complementary', { name: 'Node switch-1' });
  await form.getByRole('button', { name: 'Add item' }).click();
  await form.getByLabel('cases[3].handle', { exact: true }).fill('vip');
  await form.getByLabel('cases[3].when', { exact: true }).fill('"{{ $input.vip }}"');
  await outHandle(page, 'switch-1', 'vip').waitFor();
  assert.equal(await sw.locator('.handle-label').allInnerTexts(), ['order', 'refund', 'urgent', 'vip', 'other']);
  await drag(page, outHandle(page, 'switch-1', 'vip'), inHandle(page, 'set-2'));
  await page.locator('.react-flow__edge').nth(5).waitFor();
  await page.getByLabel('Problems').getByText('No problems').waitFor();
  await page.keyboard.press('Control+s');
  await page.getByText('All changes saved').waitFor();
  const draft = await savedDraft(host, id);
  assert.equal(draft.edges.slice(-2), [
    { source: 'switch-1', target: 'set-4', sourceHandle: 'other' },
    { source: 'switch-1', target: 'set-2', sourceHandle: 'vip' },
  ]);
  assert.equal(draft.nodes[1].config.cases[3], { when: '{{ $input.vip }}', handle: 'vip' });

  // The execution's own graph: the two branches taken are drawn as taken, the record says which handles.
  await page.getByRole('navigation', { name: 'Flow' }).getByRole('link', { name: 'Executions' }).click();
  await page.locator('tr.exec-row').first().click();
  await page.locator('[data-testid="node-set-3"] .status-success').waitFor();
  await page.locator('[data-testid="node-set-2"] .status-skipped').waitFor();
  const taken = page.locator('.react-flow__edge.edge-taken');
  await taken.nth(2).waitFor();
  const ends = await taken.evaluateAll((es) => es.map((e) => e.getAttribute('data-testid')).sort());
  assert.equal(ends, ['rf__edge-e0-manual_trigger-1-switch-1', 'rf__edge-e1-switch-1-set-1', 'rf__edge-e3-switch-1-set-3']);
  await page.locator('[data-testid="node-switch-1"]').click();
  await page.getByText('took “order”, “urgent”').waitFor();
  await ui.shot(page, 'execution-switch');
  assert.equal(ui.errors, []);
});

test.run();
