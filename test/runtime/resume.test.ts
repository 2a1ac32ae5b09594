import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWeir } from '../../src/weir.js';
import { chain, runConfig } from '../flow/_flows.js';
import { tmpDir, writeJson } from '../_utils.js';

// Found by the crash-points property of #34: after a double kill -9, 64 of 564 stored final records were copies.
test('a host that died between storing an execution\'s final record and removing its open entry: the restart stores it no second time, so retention keeps as many executions as it says', async () => {
  const home = tmpDir('weir-resume-');
  writeJson(home, 'weir.config.json', { executions: { maxPerWorkflow: 2 } });
  const first = await createWeir({ home });
  const flow = chain([{ id: 'set-1', type: 'set', config: { values: { a: 1 } } }]);
  const older = await runConfig(first, flow);
  const newer = await runConfig(first, flow);
  // The open entry still holding the final record, as a kill right after the record was written leaves it...
  await first.executions.open.put(newer);
  await first.close();
  // ...owned by a process that is gone.
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  const dir = join(home, 'cloud', 'executions', 'open');
  const [file] = readdirSync(dir).filter((f) => f.includes(newer.id));
  const stored = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  stored.value.owner.pid = dead;
  writeFileSync(join(dir, file), JSON.stringify(stored));

  const second = await createWeir({ home });
  try {
    await second.runtime.resumer.scan();
    assert.is(await second.executions.open.get(newer.id), null, 'the open entry is gone');
    await second.executions.prune('wf_test');
    assert.is((await second.executions.get(newer.id)).status, 'success');
    assert.is((await second.executions.get(older.id)).status, 'success', 'two executions, two records kept');
  } finally {
    await second.close();
  }
});

test.run();
