// The Studio's interfaces page in real Chromium against a real `weir serve`: the interfaces with their deploy
// status, one's live preview (the process `weir preview` starts) redrawn while `weir type`/`weir click` drive it
// from a subprocess, and its dev-server and console logs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { cli, startServe, tmpDir } from '../_utils.js';
import { publishGreeter } from '../resources/interfaces/_helpers.js';
import { studioBrowser } from './_studio.js';

const home = tmpDir();
const work = tmpDir();
await publishGreeter(home, work, 'greet');
for (const name of ['greeter', 'sketch']) assert.is((await cli(['i', 'init', '--name', name, '--flow', 'greet'], { home, cwd: work })).code, 0);
assert.is((await cli(['i', 'deploy'], { home, cwd: join(work, 'greeter') })).code, 0);
const serve = await startServe(home);
const host = { url: serve.url, token: (await cli(['interface', 'token'], { home })).stdout.trim() };
const ui = await studioBrowser();
let page: Page;

// Whatever failed, neither the preview nor the host outlives the suite.
test.after(async () => {
  await ui.close();
  await cli(['preview', 'greeter', '--stop'], { home });
  await serve.stop();
});

/** The bytes of the preview image the page shows now, as base64 (read from its object URL in the page). */
const shownImage = () =>
  page.evaluate(async () => {
    const img = document.querySelector<HTMLImageElement>('img.preview-shot')!;
    const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
    return { version: Number(img.dataset.version), base64: btoa(String.fromCharCode(...bytes)) };
  });

test('the interfaces are listed with their deploy status, before any preview runs', async () => {
  page = await ui.open(host, '#/interfaces');
  const list = page.getByRole('table', { name: 'Interfaces' });
  const greeter = list.getByRole('row', { name: /greeter/ });
  await greeter.getByText('deployed', { exact: true }).waitFor();
  assert.match((await greeter.textContent())!, 'v1');
  await list.getByRole('row', { name: /sketch/ }).getByText('not deployed').waitFor();
  assert.is(await page.locator('img.preview-shot').count(), 0);
  await ui.shot(page, 'interfaces-list');
  assert.equal(ui.errors, []);
});

test('opening one starts the preview `weir preview` starts; the page redraws while `weir type` and `weir click` drive it; logs shown', async () => {
  // By keyboard: the name is a link, Enter opens it.
  await page.getByRole('link', { name: 'greeter' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash.startsWith('#/interfaces/'));
  const img = page.getByRole('img', { name: /The page of greeter/ });
  await img.waitFor({ timeout: 30_000 });
  const servers = (await cli(['servers', '--json'], { home })).json();
  assert.equal(servers.map((s: any) => s.interface), ['greeter'], 'the CLI sees the preview the page started');
  await page.getByRole('link', { name: servers[0].url }).waitFor();
  await page.getByRole('table', { name: 'Interfaces' }).getByRole('row', { name: /greeter/ }).getByText('running').waitFor();

  const log = page.getByLabel('Dev-server log');
  await log.getByText(`preview of greeter at ${servers[0].url}`).waitFor();
  const before = await shownImage();

  assert.is((await cli(['type', 'greeter', '#input', 'Ada'], { home })).code, 0);
  const clicked = await cli(['click', 'greeter', '#send'], { home });
  assert.is(clicked.code, 0, clicked.stderr);
  // The flow's answer lands in the page: the dev server logs the call, and the image follows the page.
  await log.getByText('POST /api/flows/greet 200').waitFor({ timeout: 15_000 });
  const answered = (await cli(['eval', 'greeter', "document.querySelector('#output').textContent"], { home })).stdout;
  assert.match(answered, 'Hello, Ada!');
  await page.waitForFunction((v) => Number(document.querySelector<HTMLImageElement>('img.preview-shot')?.dataset.version) > v, before.version);
  const after = await shownImage();
  assert.ok(after.version > before.version, `version ${after.version} after ${before.version}`);
  assert.is.not(after.base64, before.base64, 'the image changed');
  await ui.shot(page, 'interface-preview');

  await page.getByRole('button', { name: 'Page console' }).click();
  await page.getByLabel('Page console').getByText('[greeter] greet answered: {"reply":"Hello, Ada!"}').waitFor();
  await ui.shot(page, 'interface-console');
  assert.equal(ui.errors, []);
});

test('a stopped preview says so and Start preview starts it again', async () => {
  assert.is((await cli(['preview', 'greeter', '--stop'], { home })).code, 0);
  await page.getByText('The preview stopped').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Start preview' }).click();
  await page.getByText('The preview stopped').waitFor({ state: 'detached', timeout: 30_000 });
  await page.getByRole('img', { name: /The page of greeter/ }).waitFor();
  assert.equal((await cli(['servers', '--json'], { home })).json().map((s: any) => s.interface), ['greeter']);
  // Chromium notes each failed request in the console: the screenshots the host refused while no preview ran
  // (409, and 503 for the one under way when it stopped), which the page showed.
  assert.equal(ui.errors.filter((e) => !/status of (409 \(Conflict\)|503 \(Service Unavailable\))/.test(e)), []);
});

test.run();
