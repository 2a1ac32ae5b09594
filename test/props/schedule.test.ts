// Issue #34, property 4: cron schedules. For generated five-field expressions, zones with and without DST,
// and instants across 2026-2028 (every clock change of every zone among them), weir's next fire times agree
// with a second implementation written here: the wall clock of the zone read through Intl, and cron(8)'s rule
// applied by hand (a time the clock skips runs once at the change when the minute and hour fields are fixed
// times, a time it passes twice runs once, the first time; with a `*` there, every instant that matches runs).
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileTiming } from '../../src/triggers/schedule/time.js';
import { checkAsync } from './_props.js';

const FILE = 'schedule';
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const FROM = Date.parse('2026-01-01T00:00:00Z');
const TO = Date.parse('2029-01-01T00:00:00Z');
/** Days the reference looks ahead for a fire (`29 2` fires once in four years). */
const HORIZON_DAYS = 1500;
/** Fire times compared from each generated instant: the next, and the ones after it. */
const STEPS = 3;

const ZONES = [
  'UTC',
  'Europe/London',
  'Europe/Berlin',
  'America/New_York',
  'America/Santiago',
  'America/Havana',
  'Australia/Lord_Howe',
  'Australia/Sydney',
  'Pacific/Chatham',
  'Asia/Kolkata',
  'Africa/Cairo',
];

const clocks = new Map<string, { format: Intl.DateTimeFormat; offsets: Map<number, number> }>();
/** The zone's offset from UTC at instant `t` (whole minutes; the wall clock read through Intl). */
function offset(zone: string, t: number): number {
  let clock = clocks.get(zone);
  if (!clock) {
    const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    clocks.set(zone, (clock = { format, offsets: new Map() }));
  }
  const minute = Math.floor(t / MIN) * MIN;
  const known = clock.offsets.get(minute);
  if (known !== undefined) return known;
  const p = Object.fromEntries(clock.format.formatToParts(t).map((x) => [x.type, Number(x.value)]));
  const value = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - minute;
  if (clock.offsets.size > 100_000) clock.offsets.clear();
  clock.offsets.set(minute, value);
  return value;
}

/** The first whole minute in (lo, hi] at which the offset is no longer what it is at `lo`. */
function change(zone: string, lo: number, hi: number): number {
  const before = offset(zone, lo);
  while (hi - lo > MIN) {
    const mid = lo + Math.floor((hi - lo) / 2 / MIN) * MIN;
    if (offset(zone, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Every instant in 2026-2028 at which `zone`'s clock changes. */
function transitions(zone: string): number[] {
  const out: number[] = [];
  for (let t = FROM; t < TO; t += 6 * HOUR) if (offset(zone, t) !== offset(zone, t + 6 * HOUR)) out.push(change(zone, t, t + 6 * HOUR));
  return out;
}
const TRANSITIONS = new Map(ZONES.map((zone) => [zone, transitions(zone)]));

/** The values a cron field allows (`*`, `a`, `a-b`, each with an optional `/step`; `a/step` runs to the top). */
function field(text: string, min: number, max: number): number[] {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const [range, step = '1'] = item.split('/');
    const [from, to] = range === '*' ? [min, max] : range.includes('-') ? range.split('-').map(Number) : [Number(range), item.includes('/') ? max : Number(range)];
    for (let v = from; v <= to; v += Number(step)) out.add(max === 7 && v === 7 ? 0 : v);
  }
  return [...out].sort((a, b) => a - b);
}

/** cron(8)'s reading of an expression, for the reference below. */
function reading(expr: string) {
  const [mi, h, dom, mon, dow] = expr.split(' ');
  return {
    minutes: field(mi, 0, 59),
    hours: field(h, 0, 23),
    days: new Set(field(dom, 1, 31)),
    months: new Set(field(mon, 1, 12)),
    weekdays: new Set(field(dow, 0, 7)),
    // cron(8): a day field starting with `*` leaves the day to the other one; both restricted, either matches.
    either: !dom.startsWith('*') && !dow.startsWith('*'),
    fixed: !mi.includes('*') && !h.includes('*'),
  };
}

/** The instants of local date `day` (a UTC midnight standing for the wall date) at which `expr` fires in `zone`. */
function firesOn(cron: ReturnType<typeof reading>, zone: string, day: number): number[] {
  const date = new Date(day);
  const dayOk = cron.days.has(date.getUTCDate());
  const weekdayOk = cron.weekdays.has(date.getUTCDay());
  if (!cron.months.has(date.getUTCMonth() + 1) || !(cron.either ? dayOk || weekdayOk : dayOk && weekdayOk)) return [];
  // No zone here changes its clock twice within three days: the same offset on both sides means no change.
  const around = [offset(zone, day - DAY), offset(zone, day + 2 * DAY)];
  const fires: number[] = [];
  for (const hour of cron.hours) {
    for (const minute of cron.minutes) {
      const local = day + hour * HOUR + minute * MIN;
      if (around[0] === around[1]) {
        fires.push(local - around[0]);
        continue;
      }
      // Near a clock change: the instants whose wall clock reads `local` (none, one, or two).
      const at = [...new Set(around)].map((o) => local - o).filter((t) => offset(zone, t) === local - t).sort((a, b) => a - b);
      if (at.length) fires.push(...(cron.fixed ? at.slice(0, 1) : at));
      // A skipped time of fixed times runs once, right after the change.
      else if (cron.fixed) fires.push(change(zone, local - Math.max(...around), local - Math.min(...around)));
    }
  }
  return fires;
}

/** The reference: the first fire strictly after `after`, or null within {@link HORIZON_DAYS}. */
function referenceNext(expr: string, zone: string, after: number): number | null {
  const cron = reading(expr);
  const first = Math.floor((after + offset(zone, after)) / DAY) * DAY - DAY;
  let found: number | null = null;
  for (let day = first, last = first + HORIZON_DAYS * DAY; day <= last; day += DAY) {
    for (const t of firesOn(cron, zone, day)) if (t > after && (found === null || t < found)) found = t;
    // Fires of one wall date all come before those of the next but one: one more date settles the minimum.
    if (found !== null && last > day + DAY) last = day + DAY;
  }
  return found;
}

const iso = (t: number | null) => (t === null ? 'none' : new Date(t).toISOString());

/** Compares weir's next fire times after `start` with the reference, {@link STEPS} in a row. */
async function agree(expr: string, zone: string, start: number): Promise<void> {
  const timing = await compileTiming({ scheduleType: 'cron', cronExpression: expr, timezone: zone });
  let t = start;
  for (let i = 0; i < STEPS; i++) {
    const expected = referenceNext(expr, zone, t);
    const actual = timing.next(t);
    if (expected === null) {
      assert.ok(actual === null || actual > t + HORIZON_DAYS * DAY, `"${expr}" in ${zone} after ${iso(t)}: weir ${iso(actual)}, reference none`);
      return;
    }
    assert.is(iso(actual), iso(expected), `"${expr}" in ${zone} after ${iso(t)}`);
    assert.is(timing.previous(expected), expected, `"${expr}" in ${zone}: previous(${iso(expected)}) is that slot`);
    t = expected;
  }
}

/** One item of a field: a value, a range, a step over `*`, a range or a start; steps up to past the field's span. */
const item = (min: number, max: number) => {
  const value = fc.integer({ min, max });
  const step = fc.integer({ min: 1, max: max - min + 2 });
  const range = fc.tuple(value, value).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`);
  return fc.oneof(value.map(String), range, fc.tuple(fc.constantFrom('*', 'range', 'start'), range, value, step).map(([form, r, v, s]) => `${form === '*' ? '*' : form === 'range' ? r : v}/${s}`));
};
const cronField = (min: number, max: number, star: number) =>
  fc.oneof({ arbitrary: fc.constant('*'), weight: star }, { arbitrary: fc.array(item(min, max), { minLength: 1, maxLength: 3 }).map((items) => items.join(',')), weight: 4 });
/** Five fields; the day fields are mostly `*` so that most expressions fire within days. */
const cronExpression = fc.tuple(cronField(0, 59, 2), cronField(0, 23, 2), cronField(1, 31, 6), cronField(1, 12, 8), cronField(0, 7, 5)).map((fields) => fields.join(' '));

/** An instant within a day and a half of a clock change of `zone` (or anywhere in 2026-2028 without one). */
const nearChange = (zone: string) => {
  const changes = TRANSITIONS.get(zone)!;
  const anywhere = fc.integer({ min: FROM, max: TO });
  if (!changes.length) return anywhere;
  return fc.oneof(
    anywhere,
    fc.tuple(fc.constantFrom(...changes), fc.integer({ min: -36 * 60, max: 36 * 60 }), fc.integer({ min: 0, max: MIN - 1 })).map(([t, minutes, ms]) => t + minutes * MIN + ms),
  );
};

test('the reference finds the clock changes of 2026-2028', () => {
  for (const zone of ZONES) {
    const expected = ['UTC', 'Asia/Kolkata'].includes(zone) ? 0 : 6;
    assert.is(TRANSITIONS.get(zone)!.length, expected, `${zone}: ${TRANSITIONS.get(zone)!.map(iso).join(', ')}`);
  }
});

test('next fire times agree with the reference for generated expressions, zones and instants', async () => {
  const input = fc.constantFrom(...ZONES).chain((zone) => fc.tuple(cronExpression, fc.constant(zone), nearChange(zone)));
  await checkAsync('next fire times agree with the reference', 300, FILE, fc.asyncProperty(input, ([expr, zone, at]) => agree(expr, zone, at)));
});

test('next fire times agree with the reference around every clock change of 2026-2028 of every zone', async () => {
  const all = [...TRANSITIONS].flatMap(([zone, changes]) => changes.map((t) => [zone, t] as const));
  const around = fc.array(fc.integer({ min: -30 * 60, max: 30 * 60 }), { minLength: all.length, maxLength: all.length });
  await checkAsync(
    'every clock change: next fire times agree',
    5,
    FILE,
    fc.asyncProperty(cronExpression, around, async (expr, minutes) => {
      for (const [i, [zone, t]] of all.entries()) await agree(expr, zone, t + minutes[i] * MIN);
    }),
  );
});

test.run();
