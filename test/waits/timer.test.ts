import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWakeTimer } from '../../src/util/wake-timer.js';
import { createWeir } from '../../src/weir.js';
import { flow } from '../_utils.js';
import { fakeClock, until } from '../host/_helpers.js';

test('5,000 wakes go off in time order with one timer armed', async () => {
  const clock = fakeClock('2026-01-01T00:00:00Z');
  const start = clock.now();
  const woken: number[] = [];
  let mostArmed = 0;
  const timer = createWakeTimer({ clock, ready: () => true, due: (_key, at) => woken.push(at) });
  const times = Array.from({ length: 5000 }, (_, i) => start + 1 + ((i * 7919) % 60_000));
  times.forEach((at, i) => {
    timer.add(`${at}.exec_${i}.wait-1`, at);
    mostArmed = Math.max(mostArmed, clock.armed());
  });
  assert.is(timer.size, 5000);
  for (let t = 0; t < 60_000; t += 500) {
    await clock.advance(500);
    mostArmed = Math.max(mostArmed, clock.armed());
    assert.ok(woken.every((at) => at <= clock.now()), 'nothing wakes early');
  }
  assert.is(woken.length, 5000);
  assert.equal(woken, [...times].sort((a, b) => a - b));
  assert.is(mostArmed, 1);
  assert.is(timer.timers, 0, 'no timer left once the heap is empty');
});

test('a wake beyond the longest setTimeout is re-armed on the way, and a removed key never wakes', async () => {
  const clock = fakeClock('2026-01-01T00:00:00Z');
  const woken: string[] = [];
  const timer = createWakeTimer({ clock, ready: () => true, due: (key) => woken.push(key) });
  const far = clock.now() + 40 * 86_400_000;
  timer.add(`${far}.exec_far.wait-1`, far);
  timer.add(`${clock.now() + 10}.exec_gone.wait-1`, clock.now() + 10);
  timer.remove(`${clock.now() + 10}.exec_gone.wait-1`);
  await clock.advance(30 * 86_400_000);
  assert.equal(woken, []);
  assert.is(clock.armed(), 1);
  await clock.advance(10 * 86_400_000);
  assert.equal(woken, [`${far}.exec_far.wait-1`]);
});

test('waits held back while the consumer is busy go off once it has room', async () => {
  const clock = fakeClock('2026-01-01T00:00:00Z');
  const woken: string[] = [];
  let room = 2;
  const timer = createWakeTimer({ clock, ready: () => room > 0, due: (key) => (room--, woken.push(key)) });
  for (let i = 0; i < 5; i++) timer.add(`${clock.now() + i}.exec_${i}.wait-1`, clock.now() + i);
  await clock.advance(10);
  assert.is(woken.length, 2);
  room = 10;
  timer.resume();
  assert.is(woken.length, 5);
});

test('1,000 executions waiting in one weir each wake once, never early, one timer for all', async () => {
  const weir = await createWeir({});
  const config = flow({ type: 'manual_trigger' }, [
    { id: 'wait-1', type: 'wait', config: { for: '{{ $input.ms }}ms' } },
    { id: 'set-1', type: 'set', config: { values: { ms: '{{ $input.ms }}' } } },
  ], [
    { source: 'manual_trigger-1', target: 'wait-1' },
    { source: 'wait-1', target: 'set-1' },
  ]);
  await weir.workflows.create('many', undefined, { config: config as any });
  const ended = new Set<string>();
  const woken: string[] = [];
  weir.bus.on('wait:woken', (e: { executionId: string }) => woken.push(e.executionId));
  weir.bus.on('execution:end', (e: { executionId: string; status: string }) => e.status === 'success' && ended.add(e.executionId));
  void weir.waits.start();
  const ids: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const ms = 300 + ((i * 613) % 1500);
    const r = await weir.run('many', { ms });
    assert.is(r.status, 'waiting');
    ids.push(r.id);
  }
  assert.ok(weir.waits.timers <= 1, 'one timer');
  // Counted from the bus: reading 1,000 records every few milliseconds would slow the wakes it watches.
  await until(() => ended.size === ids.length, 20_000, 'every wait to end');
  const records = await Promise.all(ids.map((id) => weir.executions.get(id)));
  assert.ok(records.every((r) => r.status === 'success'));
  const due = (r: (typeof records)[number]) => Date.parse(r.nodes['wait-1'].startedAt!) + (r.input as { ms: number }).ms;
  for (const r of records) assert.ok(Date.parse(r.nodes['set-1'].startedAt!) >= due(r), 'never early');
  const lateness = records.map((r) => Date.parse(r.nodes['set-1'].startedAt!) - due(r)).sort((a, b) => a - b);
  assert.ok(lateness[Math.floor(lateness.length * 0.9)] < 500, `90 % end within 500 ms of their time (${lateness.slice(-5).join(', ')} ms at worst)`);
  assert.is(new Set(woken).size, 1000, 'each woken once');
  assert.is(weir.waits.size, 0);
  await weir.close();
});

test.run();
