import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHost } from '../../../src/host/index.js';
import { createScheduler, type Scheduler } from '../../../src/triggers/schedule/scheduler.js';
import { compileTiming } from '../../../src/triggers/schedule/time.js';
import { createWeir, type Weir } from '../../../src/weir.js';
import { chain, fakeClock, publish, tmpDir, until } from '../../host/_helpers.js';

const schedule = (config: Record<string, unknown>) => ({ type: 'schedule_trigger', config });
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

test('DST: daily 09:00 America/New_York runs at 13:00Z in summer and 14:00Z in winter', async () => {
  const t = await compileTiming({ scheduleType: 'daily', dailyTime: '09:00', timezone: 'America/New_York' });
  assert.is(iso(t.next(Date.parse('2024-07-01T00:00:00Z'))), '2024-07-01T13:00:00.000Z');
  assert.is(iso(t.next(Date.parse('2024-01-15T00:00:00Z'))), '2024-01-15T14:00:00.000Z');
  // Across the November switch the wall-clock time stays 09:00.
  assert.is(iso(t.next(Date.parse('2024-11-02T13:00:00Z'))), '2024-11-03T14:00:00.000Z');
  assert.is(iso(t.previous(Date.parse('2024-07-01T13:00:00Z'))), '2024-07-01T13:00:00.000Z');
});

test('weekly, cron and interval timings', async () => {
  const weekly = await compileTiming({ scheduleType: 'weekly', weeklyDay: 1, dailyTime: '08:30', timezone: 'Europe/Berlin' });
  assert.is(iso(weekly.next(Date.parse('2024-03-20T00:00:00Z'))), '2024-03-25T07:30:00.000Z'); // CET
  assert.is(iso(weekly.next(Date.parse('2024-03-30T00:00:00Z'))), '2024-04-01T06:30:00.000Z'); // CEST
  const cron = await compileTiming({ scheduleType: 'cron', cronExpression: '*/15 9-10 * * 1-5' });
  assert.is(iso(cron.next(Date.parse('2024-07-06T12:00:00Z'))), '2024-07-08T09:00:00.000Z'); // Saturday -> Monday
  assert.is(iso(cron.next(Date.parse('2024-07-08T09:00:00Z'))), '2024-07-08T09:15:00.000Z');
  const every = await compileTiming({ scheduleType: 'interval', intervalValue: 2, intervalUnit: 'hours' }, Date.parse('2024-01-01T00:10:00Z'));
  assert.is(iso(every.next(Date.parse('2024-01-01T05:00:00Z'))), '2024-01-01T06:10:00.000Z');
  assert.is(iso(every.previous(Date.parse('2024-01-01T05:00:00Z'))), '2024-01-01T04:10:00.000Z');
  await compileTiming({ scheduleType: 'cron', cronExpression: '61 * * * *' }).then(
    () => assert.unreachable('an impossible cron is refused'),
    (err) => assert.is(err.code, 'INVALID_CONFIG'),
  );
});

// The shrunk cases of test/props/schedule.test.ts (issue #34), each read as crontab(5) reads it.
test('cron fields as cron(8) reads them: a step past the span, a weekday step to Sunday, a day field starting with *', async () => {
  const next = async (cronExpression: string, after: string) => iso((await compileTiming({ scheduleType: 'cron', cronExpression })).next(Date.parse(after)));
  // A step past the field's span is the field's first value (croner refused it after save had accepted it).
  assert.is(await next('0 0-0 * * */8,0', '2026-01-01T00:00:00Z'), '2026-01-04T00:00:00.000Z'); // Sunday
  assert.is(await next('*/61 * * * *', '2026-01-01T00:00:00Z'), '2026-01-01T01:00:00.000Z');
  assert.is(await next('0 0 */32 * *', '2026-01-01T00:00:00Z'), '2026-02-01T00:00:00.000Z');
  // `1/1` runs from Monday to 7, Sunday: every day (it stopped at Saturday).
  assert.is(await next('0 0 * * 1/1', '2026-01-03T00:00:00Z'), '2026-01-04T00:00:00.000Z'); // Saturday -> Sunday
  assert.is(await next('0 0 * * fri/2', '2026-01-02T00:00:00Z'), '2026-01-04T00:00:00.000Z'); // Friday -> Sunday
  // A day field starting with `*` leaves the day to the other: January's even weekdays, not every January day.
  assert.is(await next('0 0 */1 1 */2', '2026-01-01T00:00:00Z'), '2026-01-03T00:00:00.000Z'); // Thursday -> Saturday
  assert.is(await next('0 12 */2 * 1', '2026-01-01T00:00:00Z'), '2026-01-05T12:00:00.000Z'); // the 5th, an odd Monday
  // Both restricted: either may match, as before.
  assert.is(await next('0 0 15 * 1', '2026-01-01T00:00:00Z'), '2026-01-05T00:00:00.000Z');
});

/** A memory weir with published schedule flows and a scheduler on a fake clock that records firings; runs end when `finishRuns` is called (or at once without `hold`). */
async function setup(flows: Array<Record<string, unknown>>, start = '2024-05-01T00:00:00Z', hold = true) {
  const weir = await createWeir();
  const ids: string[] = [];
  for (const [i, config] of flows.entries()) ids.push((await publish(weir, `sched-${i}`, schedule(config))).id);
  const clock = fakeClock(start);
  const fired: Array<{ id: string; input: { triggeredAt: string; scheduleName: string } }> = [];
  let release: Array<() => void> = [];
  const scheduler = createScheduler({
    storage: weir.storage,
    bus: weir.bus,
    workflows: weir.workflows,
    clock,
    fire: (flow, input) => {
      fired.push({ id: flow.id, input });
      return hold ? new Promise<void>((r) => release.push(r)) : Promise.resolve();
    },
  });
  const finishRuns = () => {
    release.forEach((r) => r());
    release = [];
  };
  return { weir, ids, clock, fired, scheduler, finishRuns };
}

test('many schedules share one timer, armed for the earliest due run', async () => {
  const configs = Array.from({ length: 300 }, (_, i) =>
    i % 3 === 0 ? { scheduleType: 'interval', intervalValue: 1 + (i % 7), intervalUnit: 'minutes' } : i % 3 === 1 ? { scheduleType: 'cron', cronExpression: `${i % 60} * * * *` } : { scheduleType: 'daily', dailyTime: `0${i % 10}:30`, timezone: 'Asia/Tokyo' },
  );
  const s = await setup(configs, '2024-05-01T00:00:00Z', false);
  await s.scheduler.sync();
  assert.is(s.clock.armed(), 1);
  assert.is(s.scheduler.timers, 1);
  assert.is(s.scheduler.list().length, 300);
  await s.clock.advance(60 * 60_000);
  assert.is(s.clock.armed(), 1, 'still one timer after an hour of firing');
  // In that hour: each cron flow once, each interval flow every 1-7 minutes; the 0X:30 Tokyo dailies not yet.
  const expected = configs.reduce((n, c) => n + (c.scheduleType === 'cron' ? 1 : c.scheduleType === 'interval' ? Math.floor(60 / (c.intervalValue as number)) : 0), 0);
  assert.ok(Math.abs(s.fired.length - expected) <= 100, `${s.fired.length} runs in an hour, about ${expected} expected`);
  s.scheduler.stop();
  assert.is(s.clock.armed(), 0);
  await s.weir.close();
});

test('a due schedule fires on time with {triggeredAt, scheduleName}; no overlap unless allowOverlap', async () => {
  const s = await setup([{ scheduleType: 'cron', cronExpression: '*/5 * * * *' }, { scheduleType: 'cron', cronExpression: '*/5 * * * *', allowOverlap: true }], '2024-05-01T00:01:00Z');
  await s.scheduler.sync();
  await s.clock.advance(4 * 60_000 - 1);
  assert.is(s.fired.length, 0, 'not before 00:05');
  await s.clock.advance(1);
  assert.is(s.fired.length, 2);
  assert.equal(s.fired[0].input, { triggeredAt: '2024-05-01T00:05:00.000Z', scheduleName: 'sched-0' });
  // The runs of 00:05 have not finished: at 00:10 only the flow that allows overlap starts again.
  await s.clock.advance(5 * 60_000);
  assert.equal(s.fired.map((f) => f.id), [s.ids[0], s.ids[1], s.ids[1]]);
  s.finishRuns();
  await new Promise((r) => setImmediate(r));
  await s.clock.advance(5 * 60_000);
  assert.is(s.fired.filter((f) => f.id === s.ids[0]).length, 2, 'runs again once the previous run ended');
  s.scheduler.stop();
  await s.weir.close();
});

test('runs missed while down are skipped; catchUp runs the last missed one', async () => {
  // Slots after the flows' publish time: the host was down for three 06:00 runs.
  const day = (n: number, time: string) => `${new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10)}T${time}.000Z`;
  const s = await setup([{ scheduleType: 'daily', dailyTime: '06:00' }, { scheduleType: 'daily', dailyTime: '06:00', catchUp: true }], day(1, '07:00:00'));
  const state = s.weir.storage.view('cloud', 'schedule-state');
  for (const id of s.ids) await state.setItem(id, { lastRunAt: day(1, '06:00:00') });
  s.clock.set(day(4, '12:00:00'));
  await s.scheduler.sync();
  assert.equal(s.fired.map((f) => [f.id, f.input.triggeredAt]), [[s.ids[1], day(4, '06:00:00')]]);
  assert.equal(s.scheduler.list().map((e) => e.nextRunAt), [day(5, '06:00:00'), day(5, '06:00:00')]);
  s.scheduler.stop();
  await s.weir.close();
});

test('schedules run flows through the executor; last runs are remembered in cloud storage', async () => {
  const weir = await createWeir();
  const c = chain('schedule_trigger', [{ type: 'set', config: { values: { at: '{{ $input.triggeredAt }}', name: '{{ $input.scheduleName }}' } } }]);
  const { id } = await publish(weir, 'nightly', schedule({ scheduleType: 'interval', intervalValue: 1, intervalUnit: 'minutes' }), c.nodes, c.edges);
  const clock = fakeClock(new Date(Date.now() + 1000).toISOString());
  const host = createHost(weir, { clock });
  await host.start();
  await clock.advance(60_000);
  const runs = await until(async () => {
    const list = await weir.executions.list({ workflowId: id });
    return list.length === 1 && list[0].status === 'success' && list;
  });
  assert.is(runs[0].trigger, 'schedule');
  assert.equal(Object.keys(runs[0].input as object).sort(), ['scheduleName', 'triggeredAt']);
  assert.is((runs[0].nodes['set-1'].data as any).name, 'nightly');
  const remembered = await weir.storage.view('cloud', 'schedule-state').getItem<{ lastRunAt: string }>(id);
  assert.is(remembered?.lastRunAt, (runs[0].input as any).triggeredAt);
  await host.close();
  await weir.close();
});

test('publish, unpublish and delete are picked up without a restart, also from another process', async () => {
  const home = tmpDir('weir-sched-');
  const weir = await createWeir({ home });
  const other: Weir = await createWeir({ home }); // another process's view of the same home
  const host = createHost(weir, { clock: fakeClock('2024-05-01T00:00:00Z'), watchMs: 50 });
  await host.start();
  // The schedule trigger's stop shows its schedules too.
  const schedules = () => host.triggers.get('schedule_trigger') as unknown as Pick<Scheduler, 'list'>;
  const names = () => schedules().list().map((e) => e.name).sort();
  assert.equal(names(), []);
  const a = await publish(weir, 'local-publish', schedule({ scheduleType: 'daily', dailyTime: '12:00' }));
  await until(() => names().includes('local-publish'), 5000, 'the same-process publish');
  const b = await publish(other, 'remote-publish', schedule({ scheduleType: 'weekly', weeklyDay: 3, dailyTime: '07:00' }));
  await until(() => names().includes('remote-publish'), 5000, 'the other-process publish');
  await other.workflows.delete(b.id, { unpublish: true });
  await until(() => !names().includes('remote-publish'), 5000, 'the other-process unpublish');
  // Republishing another trigger type drops the schedule.
  await weir.workflows.save(a.id, { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }], edges: [] });
  await weir.workflows.publish(a.id);
  await until(() => names().length === 0, 5000, 'the trigger change');
  await host.close();
  await Promise.all([weir.close(), other.close()]);
});

test.run();
