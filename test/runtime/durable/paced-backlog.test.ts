import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createExecutionLimiter } from '../../../src/runtime/execution-limiter.js';
import { createPacedBacklog } from '../../../src/runtime/durable/paced-backlog.js';

const nextTurn = () => new Promise((r) => setImmediate(r));

/** Polls `ok` until it holds or `ms` pass. */
async function until(ok: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
  assert.ok(ok(), 'condition not reached in time');
}

test('items start in order through the limiter, which alone bounds how many run at once', async () => {
  const limiter = createExecutionLimiter({ concurrency: 2 });
  const started: number[] = [];
  const release: Array<() => void> = [];
  const backlog = createPacedBacklog<number>({ limiter, start: (n) => new Promise<void>((r) => (started.push(n), release.push(r))) });
  [1, 2, 3, 4, 5].forEach((n) => backlog.push(n));
  await nextTurn();
  assert.equal(started, [1, 2]);
  assert.is(limiter.size, 2, 'the limiter counts the backlog\'s running items');
  assert.is(backlog.size, 5, 'waiting plus running');
  const idle = backlog.idle();
  while (started.length < 5 || release.length) {
    release.splice(0).forEach((f) => f());
    await nextTurn();
  }
  await idle;
  assert.equal(started, [1, 2, 3, 4, 5]);
  assert.is(backlog.size, 0);
  backlog.stop();
});

test('room() waits until fewer items wait or run; a failing item does not stop the others', async () => {
  const limiter = createExecutionLimiter({ concurrency: 1 });
  const release: Array<() => void> = [];
  const backlog = createPacedBacklog<number>({
    limiter,
    start: (n) => (n === 1 ? Promise.reject(new Error('boom')) : new Promise<void>((r) => release.push(r))),
  });
  [1, 2, 3].forEach((n) => backlog.push(n));
  let roomy = false;
  const room = backlog.room(2).then(() => (roomy = true));
  await until(() => release.length === 1);
  assert.is(backlog.size, 2, 'the failed item is gone, the next one runs');
  assert.not.ok(roomy);
  release.shift()!();
  await room;
  assert.is(backlog.size, 1);
  await until(() => release.length === 1);
  release.shift()!();
  await backlog.idle();
  backlog.stop();
});

test('pause: those running finish, the rest stay queued', async () => {
  const limiter = createExecutionLimiter({ concurrency: 1 });
  const release: Array<() => void> = [];
  const backlog = createPacedBacklog<number>({ limiter, start: () => new Promise<void>((r) => release.push(r)) });
  [1, 2, 3].forEach((n) => backlog.push(n));
  await until(() => release.length === 1);
  backlog.pause();
  const idle = backlog.idle();
  release.shift()!();
  await idle;
  await limiter.drain();
  assert.is(release.length, 0, 'nothing started after the pause');
  assert.is(backlog.size, 2);
  backlog.stop();
});

/** Holds the event loop busy for `ms`, as handling requests would. */
const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

test('heavy intake on a busy loop slows the starts, down to one per 50 ms window, never to none', async () => {
  const limiter = createExecutionLimiter({ concurrency: 4 });
  let starts = 0;
  const backlog = createPacedBacklog<number>({
    limiter,
    start: async () => {
      starts++;
      spin(1);
      await nextTurn();
    },
  });
  for (let n = 0; n < 5000; n++) backlog.push(n);
  // 40 requests every 10 ms (the default heavy intake is 20 per 50 ms window), keeping the loop 60 % busy.
  const intake = setInterval(() => {
    for (let i = 0; i < 40; i++) backlog.noteIntake();
    spin(6);
  }, 10);
  await new Promise((r) => setTimeout(r, 600));
  const heavyStarts = starts;
  await new Promise((r) => setTimeout(r, 200));
  const lateStarts = starts - heavyStarts;
  clearInterval(intake);
  assert.ok(heavyStarts < 250, `paced: ${heavyStarts} starts in 600 ms of heavy intake`);
  assert.ok(lateStarts >= 1, 'the backlog still moves');
  // Paced, 100 more starts would take 5 s; without intake the pace doubles per window.
  const quiet = starts;
  await until(() => starts - quiet > 100, 2500);
  backlog.stop();
  await limiter.drain();
});

test.run();
