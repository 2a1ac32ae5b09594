// Helpers of the editor tests: what a person does on the canvas (drag between handles, move a node) and where.
import type { Locator, Page } from 'playwright-core';

/** The drawn node of a flow node id. */
export const nodeOf = (page: Page, id: string) => page.getByTestId(`node-${id}`);

/** A node's output handle: the one of a branch (`true`) on a branching node, else its only one. */
export const outHandle = (page: Page, id: string, branch?: string) => nodeOf(page, id).locator(`.react-flow__handle.source${branch ? `[data-handle="${branch}"]` : ''}`);
export const inHandle = (page: Page, id: string) => nodeOf(page, id).locator('.react-flow__handle.target');

async function center(l: Locator) {
  const box = (await l.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Presses the mouse on `from`, moves it in steps onto `to` (or by an offset), and lets go: a drag as a hand does it. */
export async function drag(page: Page, from: Locator, to: Locator | { dx: number; dy: number }) {
  const a = await center(from);
  const b = 'dx' in to ? { x: a.x + to.dx, y: a.y + to.dy } : await center(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + 6, a.y + 6, { steps: 2 });
  await page.mouse.move(b.x, b.y, { steps: 12 });
  await page.mouse.up();
}

/** The saved draft of a flow, read back over the API with the host token. */
export async function savedDraft(host: { url: string; token: string }, id: string) {
  const res = await fetch(`${host.url}/api/v1/workflows/${id}/draft`, { headers: { authorization: `Bearer ${host.token}` } });
  return (await res.json()).config as { nodes: any[]; edges: any[] };
}
