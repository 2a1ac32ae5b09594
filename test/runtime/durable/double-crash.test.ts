import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCrashCase } from './_crashes.js';

// The double crash of issue #34, at 500 deliveries. Before: 15 to 71 executions were stored twice (a finished
// execution's open entry was handled by the restart scan and by the journal's replay at once, so the replay
// ran it again), and a prune capped at the deliveries removed records.
test('kill -9 mid-load and again mid-replay: every answered delivery has its finished record, stored once, each side effect applied once', async () => {
  const outcome = await runCrashCase({ steps: ['effect', 'pure'], deliveries: 500, first: { step: 300, when: 'received' }, second: { step: 60, when: 'answered' }, maxPerWorkflow: 500 });
  assert.ok(outcome.answered >= 300, `deliveries were answered before the first kill: ${JSON.stringify(outcome)}`);
  assert.ok(outcome.repeated > 0, `some calls were cut off by a kill and made again: ${JSON.stringify(outcome)}`);
});

test.run();
