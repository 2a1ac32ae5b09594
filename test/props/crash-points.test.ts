// Issue #34, property 6: crash points. For a generated flow of side effects (http_request POSTs to the test's
// own receiver, which applies each Idempotency-Key once, as a real API would), pure `set` nodes and short
// delays, a few dozen durable webhook deliveries (`respondImmediately: true`) are sent to `weir serve` on an fs
// home. The host is killed with SIGKILL at a generated STEP (as the Nth side effect arrives, or once it has
// been answered), restarted, killed again at a generated step of the replay, and restarted. Then every
// answered execution has its record, finished, listed once, each node's output in it, each side effect
// recorded as the receiver applied it, no call made more than once per life, and a prune capped at the number
// of deliveries removes no record (each execution was stored once). Each case starts three hosts (a second or
// two), so the default count is small; `npm run test:props` multiplies it.
import fc from 'fast-check';
import { test } from 'uvu';
import { runCrashCase, type CrashCase, type KillPoint, type Step } from '../runtime/durable/_crashes.js';
import { checkAsync } from './_props.js';

const FILE = 'crash-points';

const steps = fc.array(fc.constantFrom<Step>('effect', 'pure', 'pause'), { minLength: 1, maxLength: 4 }).filter((s) => s.includes('effect'));
const point = (max: number) => fc.record({ step: fc.integer({ min: 1, max }), when: fc.constantFrom<KillPoint['when']>('received', 'answered') });

/** The first kill's step is reduced to the side effects the deliveries make, so it always lands mid-load. */
const cases: fc.Arbitrary<CrashCase> = fc.record({ steps, deliveries: fc.integer({ min: 1, max: 60 }), first: point(240), second: point(60) }).map((c) => {
  const effects = c.deliveries * c.steps.filter((s) => s === 'effect').length;
  // Retention capped at the number of deliveries: a prune must then remove no answered execution's record.
  return { ...c, first: { ...c.first, step: 1 + ((c.first.step - 1) % effects) }, maxPerWorkflow: c.deliveries };
});

test('kill -9 at a generated step, again during the replay: every answered execution ends with its record, each side effect applied once', async () => {
  await checkAsync('crash points keep every answered record and apply each side effect once', 3, FILE, fc.asyncProperty(cases, async (c) => void (await runCrashCase(c))));
});

test.run();
