import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { studioBrowser, studioHost } from './_studio.js';
import { savedDraft } from './_editor.js';
import { until } from '../host/_helpers.js';

const host = await studioHost();
const ui = await studioBrowser();
test.after(async () => {
  await ui.close();
  await host.close();
});

test('flow settings: with no node selected the form shows them; a bad limit is marked on its field; fixed, saved and read back', async () => {
  const { id } = await host.weir.workflows.create('guarded');
  const page = await ui.open(host, `#/flows/${id}/editor`);
  const settings = page.getByRole('region', { name: 'Flow settings' });
  await settings.waitFor();
  for (const group of ['errorFlow', 'concurrency', 'rateLimit', 'debounce', 'mcp']) await settings.getByText(group, { exact: true }).waitFor();

  await settings.getByLabel('concurrency.limit', { exact: true }).fill('0');
  await settings.getByLabel('concurrency.key', { exact: true }).fill('{{ $input.tenant }}');
  await settings.locator('.field:not(.field-group)').filter({ has: page.getByLabel('concurrency.limit', { exact: true }) }).getByRole('alert').filter({ hasText: /^⚠ must be 1 or more, got 0$/ }).waitFor();
  await ui.shot(page, 'editor-settings-problem');
  await settings.getByLabel('concurrency.limit', { exact: true }).fill('2');
  await settings.getByLabel('errorFlow', { exact: true }).fill('alerts');
  await settings.getByLabel('mcp', { exact: true }).selectOption('true');
  await settings.getByRole('alert').first().waitFor({ state: 'detached' });
  await page.keyboard.press('Control+s');
  await page.getByText(/^Saved at /).waitFor();
  await ui.shot(page, 'editor-settings');
  const saved = (await savedDraft(host, id)) as { settings?: unknown };
  assert.equal(saved.settings, { concurrency: { limit: 2, key: '{{ $input.tenant }}' }, errorFlow: 'alerts', mcp: true });

  // Emptied again, the settings leave the draft.
  for (const key of ['concurrency.limit', 'concurrency.key', 'errorFlow']) await settings.getByLabel(key, { exact: true }).fill('');
  await settings.getByLabel('mcp', { exact: true }).selectOption('');
  await page.keyboard.press('Control+s');
  await until(async () => !('settings' in (await savedDraft(host, id))), 5000, 'the draft saved without settings');
  assert.equal(ui.errors, []);
});

test.run();
