import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLimiter } from '../../src/intake/limiter.js';
import { createTurnGate } from '../../adapters/node-http/turn-gate.js';

test('tasks submitted in one loop turn start together after it, at most `concurrency` at once', async () => {
  const runner = createLimiter({ concurrency: 3 });
  const started: number[] = [];
  const release: Array<() => void> = [];
  const done = [1, 2, 3, 4, 5].map((n) => runner.run(() => new Promise<number>((r) => (started.push(n), release.push(() => r(n))))));
  await Promise.resolve();
  assert.equal(started, [], 'nothing starts within the turn that submitted it');
  assert.is(runner.size, 5);
  await new Promise((r) => setImmediate(r));
  assert.equal(started, [1, 2, 3]);
  release.splice(0).forEach((f) => f());
  await new Promise((r) => setImmediate(r));
  assert.equal(started, [1, 2, 3, 4, 5], 'a freed slot starts the next task at once');
  const drained = runner.drain();
  release.splice(0).forEach((f) => f());
  assert.equal(await Promise.all(done), [1, 2, 3, 4, 5]);
  await drained;
  assert.is(runner.size, 0);
});

test('startInBatches: false starts each task as it is submitted', async () => {
  const runner = createLimiter({ startInBatches: false });
  let started = false;
  const done = runner.run(async () => void (started = true));
  await Promise.resolve();
  await Promise.resolve();
  assert.ok(started);
  await done;
});

test('drain waits for tasks submitted but not started yet', async () => {
  const runner = createLimiter();
  let ran = false;
  void runner.run(async () => void (ran = true));
  await runner.drain();
  assert.ok(ran);
});

test('the turn gate: callers of one turn share one opening, after the turn; the next turn gets a new one', async () => {
  const nextTurn = createTurnGate();
  const order: string[] = [];
  const first = nextTurn().then(() => order.push('gate'));
  assert.is(nextTurn(), nextTurn(), 'one promise per turn');
  const a = nextTurn();
  setImmediate(() => order.push('immediate queued after the gate'));
  await Promise.resolve();
  assert.equal(order, [], 'closed within the turn');
  await Promise.all([first, a]);
  assert.equal(order, ['gate']);
  const later = nextTurn();
  assert.is.not(later, a, 'a new turn, a new gate');
  await later;
  assert.equal(order, ['gate', 'immediate queued after the gate']);
});

test.run();
