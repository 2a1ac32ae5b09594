// An execution waiting for an approval, as the Studio shows it: the tool and its input, a reason field, and
// Approve / Deny buttons; a decision made there runs the node again and the page turns to success by itself.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync } from 'node:fs';
import { studioBrowser, studioHost, SHOTS } from './_studio.js';
import { chain, publish, until } from '../host/_helpers.js';
import { askNode } from '../waits/_approval.js';

const host = await studioHost({ nodes: [askNode] });
const ui = await studioBrowser();
test.after(async () => {
  await ui.close();
  await host.close();
});

const asks = chain('manual_trigger', [{ type: 'ask_approval', config: { tool: 'refund', input: { order: '{{ $input.order }}', amount: 120 } } }]);
const ready = publish(host.weir, 'refunds', { type: 'manual_trigger' }, asks.nodes, asks.edges);
const waiting = async (order: number) => {
  await ready;
  const r = await host.weir.run('refunds', { order }, { published: true });
  assert.is(r.status, 'waiting');
  return r.id;
};

test('a waiting approval shows the tool and its input; Approve runs the node again and the page turns to success', async () => {
  const id = await waiting(7);
  const page = await ui.open(host, `#/executions/${id}`);
  const note = page.getByRole('region', { name: 'Approval' });
  await note.waitFor();
  assert.match((await note.textContent()) ?? '', 'Waiting for approval of refund');
  assert.equal(JSON.parse((await note.getByLabel('Tool input').textContent())!), { order: 7, amount: 120 });
  await page.locator('.exec-head .status-waiting').waitFor();
  await ui.shot(page, 'approval');
  copyFileSync(`${SHOTS}approval.png`, new URL('../../docs/studio/approval.png', import.meta.url));

  await note.getByRole('button', { name: 'Approve' }).click();
  await page.locator('.exec-head .status-success').waitFor({ timeout: 20_000 });
  assert.is(await note.count(), 0, 'a decided execution waits for nothing');
  const record = await host.weir.executions.get(id);
  assert.equal(record.result, { approval: { approved: true }, progress: { asked: 'refund' } });
  assert.equal(ui.errors, []);
});

test('Deny with a reason: the listed execution says what it waits for; the denial and its reason reach the node', async () => {
  const id = await waiting(8);
  const page = await ui.open(host, `#/flows/${(await ready).id}/executions`);
  await page.locator(`tr.exec-row[data-execution-id="${id}"]`, { hasText: 'Waiting for approval of refund' }).click();
  const note = page.getByRole('region', { name: 'Approval' });
  await note.getByLabel('Reason').fill('order already refunded');
  await note.getByRole('button', { name: 'Deny' }).click();
  await page.locator('.exec-head .status-success').waitFor({ timeout: 20_000 });
  const record = await until(async () => {
    const r = await host.weir.executions.get(id);
    return r.status === 'success' && r;
  }, 10_000, 'the denied execution to end');
  assert.equal(record.result, { approval: { approved: false, reason: 'order already refunded' }, progress: { asked: 'refund' } });
  assert.equal(ui.errors, []);
});

test.run();
