import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../../src/index.js';
import { createCancelRequests } from '../../../src/resources/executions/cancel-requests.js';
import { tmpDir } from '../../_utils.js';
import { until } from '../../host/_helpers.js';

test('a cancel request read before its run started here is carried out once the run starts, though storage did not change since', async () => {
  const weir = await createWeir({ home: tmpDir(), env: {} });
  // A probe that reports no change: as the fs probe does once the request's write has settled.
  const requests = createCancelRequests({ store: weir.storage.view('cloud', 'executions'), probe: { signature: () => 'unchanged' }, cluster: null });
  let runsHere = false;
  let firstRead!: () => void;
  let cancelled!: () => void;
  const read = new Promise<void>((resolve) => (firstRead = resolve));
  const carriedOut = new Promise<void>((resolve) => (cancelled = resolve));
  const watch = requests.follow((id) => {
    firstRead();
    if (id !== 'exec_taken' || !runsHere) return false;
    cancelled();
    return true;
  });
  await requests.request('exec_taken');
  // The watch's timer does not keep a process alive; this one does, and bounds the wait.
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('never carried out'), 5000)));
  // Another run keeps the watch going; its first read finds the request for a run that is not here yet.
  watch.busy(true);
  await read;
  runsHere = true;
  assert.is(await Promise.race([carriedOut.then(() => 'cancelled'), gaveUp]), 'cancelled');
  clearTimeout(timer);
  await watch.close();
  await weir.close();
});

test('a follower idle or not removes cancel requests left stale by a maker that died; fresh ones stay', async () => {
  const weir = await createWeir({ home: tmpDir(), env: {} });
  const store = weir.storage.view('cloud', 'executions');
  const requests = createCancelRequests({ store, probe: { signature: () => null }, cluster: null, sweepMs: 50 });
  // A CLI killed while it waited for its cancel: its request stays behind, ten minutes old.
  await store.setItem('cancel:exec_stale', JSON.stringify({ at: new Date(Date.now() - 10 * 60_000).toISOString() }));
  await requests.request('exec_fresh');
  const watch = requests.follow(() => false);
  try {
    await until(async () => !(await store.hasItem('cancel:exec_stale')), 5000, 'the stale request to go');
    assert.ok(await store.hasItem('cancel:exec_fresh'), 'a fresh request stays for its maker to withdraw');
  } finally {
    await watch.close();
    await weir.close();
  }
});

test.run();
