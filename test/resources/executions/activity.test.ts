// executions.activity: a workflow's newest execution and its errors since a time, from the batch keys, on an
// fs home whose folder listing is kept while unchanged (and listed again once a batch comes).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { createWeir, type ExecutionRecord } from '../../../src/index.js';
import { executionRecord } from './_records.js';
import { tmpDir } from '../../_utils.js';

const HOUR = 3_600_000;

const record = executionRecord;

test('errors since a time are counted from the tallies, a batch that straddles it read; the newest execution is the newest start', async () => {
  const weir = await createWeir({ home: tmpDir('weir-activity-'), env: {} });
  try {
    const now = Date.now();
    const since = now - 24 * HOUR;
    assert.equal(await weir.executions.activity('wf_a', since), { last: null, errorsSince: 0 });
    // One batch with an error on each side of `since`, one error alone after it, successes around them, and
    // a record written last that started before the newest one.
    await Promise.all([weir.executions.save(record('wf_a', now - 30 * HOUR, 'error')), weir.executions.save(record('wf_a', now - 2 * HOUR, 'error'))]);
    await weir.executions.save(record('wf_a', now - HOUR, 'error'));
    const newest = record('wf_a', now - 60_000, 'success');
    await weir.executions.save(newest);
    await weir.executions.save(record('wf_a', now - 3 * HOUR, 'success'));
    await weir.executions.save(record('wf_b', now - 1000, 'error'));
    const { last, errorsSince } = await weir.executions.activity('wf_a', since);
    assert.equal([last?.id, errorsSince], [newest.id, 2]);
    assert.is((await weir.executions.activity('wf_a', now - 90 * HOUR)).errorsSince, 3);
    assert.is((await weir.executions.activity('wf_b', since)).errorsSince, 1, 'one workflow counts only its own');
  } finally {
    await weir.close();
  }
});

test('a kept listing is listed again once a batch is written to its folder, by this instance or another', async () => {
  const home = tmpDir('weir-activity-');
  const weir = await createWeir({ home, env: {} });
  const other = await createWeir({ home, env: {} });
  try {
    const now = Date.now();
    await weir.executions.save(record('wf_a', now - HOUR, 'error'));
    const folder = join(weir.storage.dir('cloud')!, 'executions', 'runs', 'wf_a');
    assert.is(readdirSync(folder).length, 1);
    // A folder last changed a minute ago: its listing is kept.
    const past = new Date(now - 60_000);
    utimesSync(folder, past, past);
    assert.is((await weir.executions.activity('wf_a', now - 24 * HOUR)).errorsSince, 1);
    const later = record('wf_a', now - 1000, 'error');
    await other.executions.save(later);
    const after = await weir.executions.activity('wf_a', now - 24 * HOUR);
    assert.equal([after.last?.id, after.errorsSince], [later.id, 2]);
  } finally {
    await other.close();
    await weir.close();
  }
});

test.run();
