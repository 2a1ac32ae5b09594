// `weir doctor` on a Redis `cloud` mount: kinds counted from the keys (sizes unknown), and what retention
// removes with them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import { cli, tmpDir, writeJson } from '../_utils.js';
import { chain, publish } from '../host/_helpers.js';
import { REDIS_URL, uniqueName } from './_scale.js';

test('weir doctor counts a Redis home by its keys, and what a prune past maxPerWorkflow removes', async () => {
  const home = tmpDir('weir-scale-doctor-');
  writeJson(home, 'weir.config.json', { storage: { cloud: { driver: 'redis', url: REDIS_URL, base: uniqueName('doctor') } }, executions: { maxPerWorkflow: 1 } });
  const weir = await createWeir({ home });
  try {
    const c = chain('webhook_trigger', [
      { type: 'respond', id: 'respond-1', config: { body: { url: '{{ $execution.resumeUrl }}' } } },
      { type: 'wait', id: 'wait-1', config: { webhook: true } },
    ]);
    const { id } = await publish(weir, 'approvals', { type: 'webhook_trigger' }, c.nodes, c.edges);
    const first = await weir.run(id, {});
    assert.is(first.status, 'waiting');
    await weir.executions.cancel(first.id);
    const second = await weir.run(id, {});
    await weir.executions.cancel(second.id);

    const report = await cli(['doctor', '--json'], { home });
    assert.is(report.code, 0, report.stderr);
    const kinds = new Map<string, any>(report.json().kinds.map((k: any) => [`${k.place} ${k.kind}`, k]));
    assert.is(kinds.get('cloud wait tokens').count, 2);
    assert.is(kinds.get('cloud wait tokens').bytes, null, 'sizes are not read from Redis');
    assert.is(kinds.get('cloud execution batches').records, 2);
    // maxPerWorkflow 1: the first execution's batch goes, with its token and the entry listing it.
    assert.is(kinds.get('cloud execution batches').removable.records, 1);
    assert.is(kinds.get('cloud wait tokens').removable.count, 1);
    assert.is(kinds.get('cloud wait links').removable.count, 1);

    await weir.executions.prune(id);
    const after = new Map<string, any>((await cli(['doctor', '--json'], { home })).json().kinds.map((k: any) => [`${k.place} ${k.kind}`, k]));
    assert.is(after.get('cloud wait tokens').count, 1);
    assert.is(after.get('cloud execution batches').removable.count, 0);
  } finally {
    await weir.storage.cloud.clear();
    await weir.close();
  }
});

test.run();
