// A run ends in one process (final record into its open entry, then a batch, then the entry removed) while
// another process lists: every listing shows it, under one status or the other, never missing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, type ExecutionRecord } from '../../../src/index.js';
import { executionRecord } from './_records.js';
import { tmpDir } from '../../_utils.js';

const record = (status: ExecutionRecord['status']) => executionRecord('wf_race', Date.now(), status);

test('a run that ends while another process lists is in every listing', async () => {
  const home = tmpDir('weir-listing-race-');
  const runner = await createWeir({ home, env: {} });
  const reader = await createWeir({ home, env: {} });
  try {
    const ended: string[] = [];
    let misses = 0;
    let listings = 0;
    for (let n = 0; n < 60; n++) {
      const running = record('running');
      await runner.executions.open.put(running);
      let ending = true;
      const end = (async () => {
        const final: ExecutionRecord = { ...running, status: 'success', finishedAt: new Date().toISOString() };
        await runner.executions.open.put(final);
        await runner.executions.save(final);
        await runner.executions.open.remove(final.id);
        ending = false;
      })();
      // Listings taken all the while the run ends, and one after.
      do {
        const ids = new Set((await reader.executions.list({ workflowId: 'wf_race', limit: 100 })).map((r) => r.id));
        listings++;
        for (const id of [...ended, running.id]) if (!ids.has(id)) misses++;
      } while (ending);
      await end;
      ended.push(running.id);
    }
    const last = await reader.executions.list({ workflowId: 'wf_race', limit: 100 });
    assert.equal(new Set(last.map((r) => r.id)), new Set(ended));
    assert.ok(last.every((r) => r.status === 'success'));
    assert.is(misses, 0, `runs missing from ${misses} of ${listings} listings`);
  } finally {
    await runner.close();
    await reader.close();
  }
});

test.run();
