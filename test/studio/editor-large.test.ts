import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { studioBrowser, studioHost } from './_studio.js';
import { drag, nodeOf } from './_editor.js';

const host = await studioHost();
const ui = await studioBrowser();
test.after(async () => {
  await ui.close();
  await host.close();
});

/** A manual trigger fanning out into 10 chains of set nodes: `size` nodes in all, laid out by the Studio (no positions). */
function bigFlow(size: number) {
  const nodes: any[] = [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }];
  const edges: any[] = [];
  for (let i = 1; i < size; i++) {
    const id = `set-${i}`;
    nodes.push({ id, type: 'set', config: { values: { n: i, text: `{{ $input.name }} ${i}` } } });
    edges.push({ source: i <= 10 ? 'manual_trigger-1' : `set-${i - 10}`, target: id });
  }
  return { nodes, edges };
}

/** Starts recording the gaps between animation frames in the page; the returned function stops and answers them. */
async function recordFrames(page: Page) {
  // As a string: the test's own compiler would wrap a function's inner functions in a helper the page lacks.
  await page.evaluate(`(() => {
    window.__gaps = [];
    window.__recording = true;
    let last = performance.now();
    const tick = (t) => {
      window.__gaps.push(t - last);
      last = t;
      if (window.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  return async () => {
    const gaps: number[] = await page.evaluate(() => {
      (window as any).__recording = false;
      return (window as any).__gaps.slice(1);
    });
    const sorted = [...gaps].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return { frames: gaps.length, median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] };
  };
}

const round = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 10) / 10]));

test('a 200-node flow opens, pans, zooms and drags a node with frames under 50 ms (median)', async () => {
  const { id } = await host.weir.workflows.create('big', undefined, { config: bigFlow(200) as any });
  const page = await ui.open(host, '');
  const opened = Date.now();
  await page.evaluate((h) => (location.hash = h), `#/flows/${id}/editor`);
  await nodeOf(page, 'set-199').waitFor();
  const openMs = Date.now() - opened;
  await page.locator('.react-flow__minimap').waitFor();

  const pane = page.locator('.canvas-box .react-flow__pane');
  const box = (await pane.boundingBox())!;
  const mid = { x: box.x + box.width / 2, y: box.y + box.height / 2 };

  // Panning across the whole flow (every node drawn), then zoomed in and out around the middle.
  let stop = await recordFrames(page);
  for (const dx of [-250, 250, -250, 250]) {
    await page.mouse.move(mid.x, mid.y + 200);
    await page.mouse.down();
    await page.mouse.move(mid.x + dx, mid.y + 150, { steps: 15 });
    await page.mouse.up();
  }
  const pan = await stop();
  stop = await recordFrames(page);
  await page.mouse.move(mid.x, mid.y);
  for (const dy of [-120, -120, -120, -120, 120, 120, 120, 120, 120, 120]) await page.mouse.wheel(0, dy);
  const zoom = await stop();
  // Fitted again and zoomed in, a node in the middle of the view is dragged.
  await page.getByRole('button', { name: 'Fit View' }).click();
  for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Zoom In' }).click();
  const centers = await page.locator('.react-flow__node').evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { id: e.getAttribute('data-id'), x: r.x + r.width / 2, y: r.y + r.height / 2 };
    }),
  );
  const inView = centers.filter((c) => c.x > box.x + 100 && c.x < box.x + box.width - 100 && c.y > box.y + 60 && c.y < box.y + box.height - 60);
  assert.ok(inView.length > 0, 'a node is in view');
  const target = nodeOf(page, inView[0].id!).locator('.wnode-type');
  stop = await recordFrames(page);
  await drag(page, target, { dx: 80, dy: 60 });
  const move = await stop();
  await ui.shot(page, 'editor-200-nodes');

  console.log(`200 nodes: opened in ${openMs} ms; rAF gaps (ms) pan ${JSON.stringify(round(pan))}, zoom ${JSON.stringify(round(zoom))}, node drag ${JSON.stringify(round(move))}`);
  for (const [what, m] of Object.entries({ pan, zoom, move })) {
    assert.ok(m.frames >= 5, `${what}: ${m.frames} frames recorded`);
    assert.ok(m.median < 50, `${what}: median frame gap ${m.median} ms`);
  }
  await page.getByText('● Unsaved changes').waitFor();
  assert.equal(ui.errors, []);
});

test.run();
