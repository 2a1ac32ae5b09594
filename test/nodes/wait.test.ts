import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { WeirError } from '../../src/index.js';
import { chain, memoryWeir, runConfig } from '../flow/_flows.js';

test('wait: exactly one of for, until and webhook, durations and times checked at save time', async () => {
  const weir = await memoryWeir();
  const { id } = await weir.workflows.create('bad-waits');
  try {
    await weir.workflows.save(
      id,
      chain([
        { id: 'wait-1', type: 'wait', config: {} },
        { id: 'wait-2', type: 'wait', config: { for: '5m', webhook: true } },
        { id: 'wait-3', type: 'wait', config: { for: '5 minutes' } },
        { id: 'wait-4', type: 'wait', config: { until: 'next tuesday' } },
        { id: 'wait-5', type: 'wait', config: { webhook: true, timeout: '2 days' } },
        { id: 'wait-6', type: 'wait', config: { until: '2030-01-01T00:00:00Z', timeout: '1h' } },
        { id: 'wait-7', type: 'wait', config: { webhook: 'yes' } },
      ]),
    );
    assert.unreachable();
  } catch (err) {
    const text = ((err as WeirError).details as Array<{ path: string; message: string }>).map((p) => `${p.path}: ${p.message}`).join('\n');
    for (const expected of [
      /for: wait-1: give one of "for", "until" or "webhook": true/,
      /webhook: wait-2: give only one of "for", "until" and "webhook", got "for" and "webhook"/,
      /for: wait-3: "for" must be a number and a unit: 500ms, 30s, 5m, 2h or 7d, got "5 minutes"/,
      /until: wait-4: "until" must be an ISO time/,
      /timeout: wait-5: "timeout" must be a number and a unit/,
      /timeout: wait-6: "timeout" goes with "webhook": true/,
      /webhook: wait-7: "webhook" must be true/,
    ]) assert.match(text, expected);
  }
  await weir.close();
});

test('wait: a time already past goes on at once with its input; an expression that is no time fails the node', async () => {
  const weir = await memoryWeir();
  const past = await runConfig(weir, chain([{ id: 'set-1', type: 'set', config: { values: { x: 1 } } }, { id: 'wait-1', type: 'wait', config: { until: '{{ $input.at }}' } }]), { at: '2001-01-01T00:00:00Z' });
  assert.is(past.status, 'success');
  assert.equal(past.result, { x: 1 });
  const zero = await runConfig(weir, chain([{ id: 'wait-1', type: 'wait', config: { for: '0s' } }]), { y: 2 });
  assert.equal(zero.result, { y: 2 });
  const bad = await runConfig(weir, chain([{ id: 'wait-1', type: 'wait', config: { until: '{{ $input.at }}' } }]), { at: 'soon' });
  assert.is(bad.status, 'error');
  assert.match(bad.error!.message, /"until" must be an ISO time, got "soon"/);
  const later = await runConfig(weir, chain([{ id: 'wait-1', type: 'wait', config: { for: '2h' } }]), {});
  assert.is(later.status, 'waiting');
  const wait = later.nodes['wait-1'].wait as { kind: string; until: string };
  assert.is(wait.kind, 'time');
  assert.ok(Math.abs(Date.parse(wait.until) - Date.now() - 7_200_000) < 5000);
  await weir.close();
});

test.run();
