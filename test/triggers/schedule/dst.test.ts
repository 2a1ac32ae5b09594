// Cron schedules on DST days, checked against a second implementation written here: it walks the UTC
// instants around a day, reads the wall clock of the zone through Intl, and applies cron(8)'s rule by hand.
import { Cron } from 'croner';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileTiming, type Timing } from '../../../src/triggers/schedule/time.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Australia/Sydney', 'America/Santiago', 'Pacific/Chatham'];
/** Fixed times: no `*` in the minute or hour field. */
const FIXED = ['30 1,13 * * *', '0 1-5 * * *', '15,45 1-3 * * *', '15 2,14 * * *', '0,30 0-3 * * *', '45 2 * * *', '0 1-5/2 * * *', '10/25 2 * * *', '0-59/20 0-3 * * *', '50 23,0 * * *', '30 2 * * 0', '45 2,3 1-7 * 0'];
/** Elapsed-time schedules: a `*` in the minute or hour field. */
const WILDCARD = ['*/30 * * * *', '0 * * * *', '15 */2 * * *', '*/20 1-3 * * *'];

const formats = new Map<string, Intl.DateTimeFormat>();
/** `YYYY-MM-DD HH:MM` on the wall clock of `zone` at instant `t`. */
function wall(zone: string, t: number): string {
  let f = formats.get(zone);
  if (!f) formats.set(zone, (f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })));
  const p = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

const transitions = new Map<string, string[]>();
/** The days of 2026-2027 on which `zone`'s clock changes (with, at times, a neighbouring day). */
function transitionDays(zone: string): string[] {
  if (transitions.has(zone)) return transitions.get(zone)!;
  const days = new Set<string>();
  const offset = (t: number) => Date.parse(`${wall(zone, t).replace(' ', 'T')}:00Z`) - t;
  let last = offset(Date.parse('2026-01-01T00:00:00Z'));
  for (let t = Date.parse('2026-01-01T06:00:00Z'); t < Date.parse('2028-01-01T00:00:00Z'); t += 6 * HOUR) {
    const now = offset(t);
    if (now !== last) days.add(wall(zone, t - 6 * HOUR).slice(0, 10)).add(wall(zone, t).slice(0, 10));
    last = now;
  }
  transitions.set(zone, [...days]);
  return [...days];
}

const walks = new Map<string, { walk: Array<[number, string]>; seen: Map<string, number[]> }>();
/**
 * The wall clock of `zone` every 5 minutes around local `date`, and the instants of each wall time. Offsets
 * and clock changes fall on quarter hours, so this is exact for the minutes of the table (multiples of 5).
 */
function wallClock(zone: string, date: string) {
  const key = `${zone} ${date}`;
  if (walks.has(key)) return walks.get(key)!;
  const base = Date.parse(`${date}T00:00:00Z`);
  const walk: Array<[number, string]> = [];
  const seen = new Map<string, number[]>();
  for (let t = base - 15 * HOUR; t < base + 38 * HOUR; t += 5 * MIN) {
    const w = wall(zone, t);
    walk.push([t, w]);
    seen.set(w, [...(seen.get(w) ?? []), t]);
  }
  walks.set(key, { walk, seen });
  return { walk, seen };
}

/** The values a cron field allows (`*`, `a`, `a-b`, each with an optional `/step`; `a/step` runs to the top). */
function field(text: string, min: number, max: number): Set<number> {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const [range, step = '1'] = item.split('/');
    const [from, to] = range === '*' ? [min, max] : range.includes('-') ? range.split('-').map(Number) : [Number(range), item.includes('/') ? max : Number(range)];
    for (let v = from; v <= to; v += Number(step)) out.add(max === 7 && v === 7 ? 0 : v);
  }
  return out;
}

/** The instants `expr` fires on local `date` in `zone`, by cron(8)'s rule, from a walk over the wall clock. */
function oracle(expr: string, zone: string, date: string): number[] {
  const [mi, h, dom, mon, dow] = expr.split(' ');
  const fixed = !mi.includes('*') && !h.includes('*');
  const [y, m, d] = date.split('-').map(Number);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  const domOk = field(dom, 1, 31).has(d);
  const dowOk = field(dow, 0, 7).has(weekday);
  const dayOk = field(mon, 1, 12).has(m) && (dom.startsWith('*') || dow.startsWith('*') ? domOk && dowOk : domOk || dowOk);
  if (!dayOk) return [];
  const { walk, seen } = wallClock(zone, date);
  const fires = new Set<number>();
  for (const hour of field(h, 0, 23)) {
    for (const minute of field(mi, 0, 59)) {
      const local = `${date} ${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
      const at = seen.get(local) ?? [];
      if (at.length) (fixed ? at.slice(0, 1) : at).forEach((t) => fires.add(t));
      else if (fixed) fires.add(walk.find(([, w]) => w > local)![0]);
    }
  }
  return [...fires].sort((a, b) => a - b);
}

/** What the timing fires whose wall-clock date is `date`, checked against `previous` on the way. */
function fired(timing: Timing, zone: string, date: string): number[] {
  const start = wallClock(zone, date).walk.find(([, w]) => w.startsWith(date))![0];
  const out: number[] = [];
  let before: number | null = null;
  for (let t = timing.next(start - 1); t !== null && wall(zone, t) < `${date} 24`; t = timing.next(t)) {
    assert.is(timing.previous(t), t, `previous(${new Date(t).toISOString()}) includes the slot itself`);
    if (before !== null) assert.is(timing.previous(t - 1), before, `previous before ${new Date(t).toISOString()}`);
    before = t;
    out.push(t);
  }
  return out;
}

const iso = (list: number[]) => list.map((t) => new Date(t).toISOString());
const cron = (cronExpression: string, timezone: string) => compileTiming({ scheduleType: 'cron', cronExpression, timezone });

test('the issue cases, checked by hand: a repeated time runs once, a skipped one right after the change', async () => {
  const table: Array<[string, string, string, string[]]> = [
    ['30 1,13 * * *', 'America/New_York', '2026-11-01', ['05:30', '18:30']],
    ['0 1-5 * * *', 'America/New_York', '2026-11-01', ['05:00', '07:00', '08:00', '09:00', '10:00']],
    ['15,45 1-3 * * *', 'Europe/Berlin', '2026-10-25', ['-23:15', '-23:45', '00:15', '00:45', '02:15', '02:45']],
    ['15,45 1-3 * * *', 'America/New_York', '2026-03-08', ['06:15', '06:45', '07:00', '07:15', '07:45']],
    ['15 2,14 * * *', 'Australia/Lord_Howe', '2026-10-04', ['-15:30', '03:15']],
  ];
  for (const [expr, zone, date, times] of table) {
    // UTC times; a leading '-' is on the day before.
    const expected = times.map((x) => {
      const day = x.startsWith('-') ? new Date(Date.parse(date) - 86_400_000).toISOString().slice(0, 10) : date;
      return `${day}T${x.replace('-', '')}:00.000Z`;
    });
    assert.equal(iso(fired(await cron(expr, zone), zone, date)), expected, `${expr} in ${zone} on ${date}`);
  }
});

test('every 2026-2027 transition x zone x expression: each matching local time runs once, skipped ones right after the change', async () => {
  let days = 0;
  for (const zone of ZONES) {
    const transitions = transitionDays(zone);
    assert.ok(transitions.length >= 4, `${zone} changes its clock in 2026-2027`);
    // Two ordinary days as well: there every matching local time runs once, as before.
    for (const date of [...transitions, '2026-01-15', '2026-07-15']) {
      for (const expr of [...FIXED, ...WILDCARD]) {
        const expected = oracle(expr, zone, date);
        const actual = fired(await cron(expr, zone), zone, date);
        assert.equal(iso(actual), iso(expected), `${expr} in ${zone} on ${date}`);
        if (FIXED.includes(expr)) {
          const locals = actual.map((t) => wall(zone, t));
          assert.is(new Set(locals).size, locals.length, `${expr} in ${zone} on ${date}: no local time twice`);
        }
        days++;
      }
    }
  }
  assert.ok(days > 500, `${days} expression-days checked`);
});

test('away from clock changes, slots are what they were before the DST rule', async () => {
  let compared = 0;
  for (const zone of ZONES) {
    const near = transitionDays(zone).map((d) => Date.parse(d));
    const ordinary = (t: number) => !near.some((d) => Math.abs(d - t) < 2 * 86_400_000);
    for (const expr of [...FIXED, ...WILDCARD]) {
      const timing = await cron(expr, zone);
      // The former timing (it refused `10/25`, which now means 10 and 35 like `10-59/25`).
      const before = new Cron(expr, { timezone: zone, paused: true, mode: '5-part', sloppyRanges: true });
      for (let t = Date.parse('2026-01-03T05:17:00Z'); t < Date.parse('2027-12-20T00:00:00Z'); t += 37 * 86_400_000 + 7 * HOUR) {
        const next = [timing.next(t), before.nextRun(new Date(t))!.getTime()];
        if (next.every((x) => x !== null && ordinary(x))) assert.is(next[0], next[1], `${expr} in ${zone} after ${new Date(t).toISOString()}`);
        const previous = [timing.previous(t), before.previousRuns(1, new Date(t + 1))[0].getTime()];
        if (previous.every((x) => x !== null && ordinary(x))) assert.is(previous[0], previous[1], `${expr} in ${zone} before ${new Date(t).toISOString()}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 1500, `${compared} instants compared`);
});

test.run();
