import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RELEASED_PER_SLOT, createExecutionLimiter } from '../../src/runtime/execution-limiter.js';
import { createTurnGate } from '../../adapters/node-http/turn-gate.js';
import { createWeir } from '../../src/weir.js';
import { tmpDir } from '../_utils.js';

test('tasks submitted in one loop turn start together after it, at most `concurrency` at once', async () => {
  const runner = createExecutionLimiter({ concurrency: 3 });
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
  const runner = createExecutionLimiter({ startInBatches: false });
  let started = false;
  const done = runner.run(async () => void (started = true));
  await Promise.resolve();
  await Promise.resolve();
  assert.ok(started);
  await done;
});

test('drain waits for tasks submitted but not started yet', async () => {
  const runner = createExecutionLimiter();
  let ran = false;
  void runner.run(async () => void (ran = true));
  await runner.drain();
  assert.ok(ran);
});

test('a feed starts its tasks in free slots, taking turns with waiting callers; drain waits for them too', async () => {
  const limiter = createExecutionLimiter({ concurrency: 2 });
  const fed = ['f1', 'f2', 'f3'];
  const started: string[] = [];
  const release: Array<() => void> = [];
  const hold = (name: string) => new Promise<void>((r) => (started.push(name), release.push(r)));
  const wake = limiter.feed(() => {
    const name = fed.shift();
    return name ? () => hold(name) : null;
  });
  const calls = ['r1', 'r2'].map((name) => limiter.run(() => hold(name)));
  await new Promise((r) => setImmediate(r));
  assert.equal(started, ['f1', 'r1'], 'the first two slots: one each');
  assert.is(limiter.size, 3, 'two running, one caller waiting');
  release.splice(0).forEach((f) => f());
  await new Promise((r) => setImmediate(r));
  assert.equal(started, ['f1', 'r1', 'f2', 'r2'], 'freed slots alternate again');
  fed.push('f4');
  wake();
  const drained = limiter.drain();
  let done = false;
  void drained.then(() => (done = true));
  while (started.length < 6) {
    release.splice(0).forEach((f) => f());
    await new Promise((r) => setImmediate(r));
  }
  assert.equal(started.slice(4), ['f3', 'f4']);
  assert.not.ok(done, 'drain waits for fed tasks still running');
  release.splice(0).forEach((f) => f());
  await drained;
  await Promise.all(calls);
  assert.is(limiter.size, 0);
});

test('a feed that had nothing is asked again once woken, at the next batch', async () => {
  const limiter = createExecutionLimiter();
  const items: number[] = [];
  const ran: number[] = [];
  const wake = limiter.feed(() => {
    const n = items.shift();
    return n === undefined ? null : async () => void ran.push(n);
  });
  items.push(1, 2);
  await new Promise((r) => setImmediate(r));
  assert.equal(ran, [], 'not asked without a wake or a freed slot');
  wake();
  await new Promise((r) => setImmediate(r));
  assert.equal(ran, [1, 2]);
});

const turn = () => new Promise((r) => setImmediate(r));

test('a task that releases its slot lets the next start at once; size and drain still count it until it settles', async () => {
  const limiter = createExecutionLimiter({ concurrency: 1 });
  let releaseA = () => {};
  let settleA = () => {};
  const started: string[] = [];
  const a = limiter.run((release) => ((releaseA = release), started.push('a'), new Promise<void>((r) => (settleA = r))));
  const b = limiter.run(async () => void started.push('b'));
  await turn();
  assert.equal(started, ['a'], 'one slot');
  releaseA();
  await turn();
  assert.equal(started, ['a', 'b'], 'the released slot went to the next task');
  await b;
  let drained = false;
  void limiter.drain().then(() => (drained = true));
  await turn();
  assert.not.ok(drained, 'drain waits for the released task');
  assert.is(limiter.size, 1);
  settleA();
  await a;
  await turn();
  assert.ok(drained);
  releaseA();
  assert.is(limiter.size, 0, 'a release after settling changes nothing');
  const c = limiter.run(async () => void started.push('c'));
  const d = limiter.run(() => new Promise<void>((r) => (started.push('d'), setImmediate(r))));
  await Promise.all([c, d]);
  assert.equal(started.slice(2), ['c', 'd']);
});

test(`past ${RELEASED_PER_SLOT} released tasks per slot waiting to settle, a release keeps its slot until the task settles`, async () => {
  const limiter = createExecutionLimiter({ concurrency: 1 });
  const settle: Array<() => void> = [];
  const started: number[] = [];
  const tasks = Array.from({ length: RELEASED_PER_SLOT + 2 }, (_, n) =>
    limiter.run((release) => {
      started.push(n);
      release();
      return new Promise<void>((r) => (settle[n] = r));
    }),
  );
  for (let i = 0; i < RELEASED_PER_SLOT + 4; i++) await turn();
  assert.is(started.length, RELEASED_PER_SLOT + 1, 'the released ones, and one holding the slot');
  settle[0]();
  for (let i = 0; i < 4; i++) await turn();
  assert.is(started.length, RELEASED_PER_SLOT + 1, 'a released task settling frees no slot');
  settle[RELEASED_PER_SLOT]();
  for (let i = 0; i < 4; i++) await turn();
  assert.is(started.length, RELEASED_PER_SLOT + 2, 'the held slot is free once its task settled');
  settle.forEach((f) => f());
  await Promise.all(tasks);
  assert.is(limiter.size, 0);
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

test('executions.concurrency and executions.maxBacklog of weir.config.json bound the instance limiter', async () => {
  const weir = await createWeir({ home: tmpDir(), config: { executions: { concurrency: 1, maxBacklog: 1 } } });
  const { limiter } = weir.runtime;
  let release = () => {};
  let firstStarted = () => {};
  const started = new Promise<void>((r) => (firstStarted = r));
  let secondStarted = false;
  const first = limiter.run(() => (firstStarted(), new Promise<void>((r) => (release = r))));
  const second = limiter.run(async () => void (secondStarted = true));
  // Both were submitted in one turn: the default 64 slots would start both in the batch that starts the first.
  await started;
  assert.not.ok(secondStarted, 'one execution at a time');
  // One waits: at maxBacklog 1 the triggers are held back (an already settled ready() would win the race).
  const ready = await Promise.race([limiter.ready().then(() => 'ready'), Promise.resolve().then(() => 'held back')]);
  assert.is(ready, 'held back');
  release();
  await Promise.all([first, second]);
  assert.ok(secondStarted);
  await weir.close();
});

test.run();
