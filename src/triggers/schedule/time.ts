import { WeirError } from '../../errors.js';
import { scheduleProblems, type ScheduleConfig } from './node.js';

/** When a schedule runs: the next fire time after a time, and the last one at or before a time. */
export interface Timing {
  next(after: number): number | null;
  previous(atOrBefore: number): number | null;
}

const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** The five fields: the top value cron(8) reads (weekday 7 is Sunday), how many values croner counts, names. */
const FIELDS = [
  { max: 59, size: 60 },
  { max: 23, size: 24 },
  { max: 31, size: 31 },
  { max: 12, size: 12, names: MONTHS, first: 1 },
  { max: 7, size: 7, names: WEEKDAYS, first: 0 },
];

/**
 * One field as croner reads it the way cron(8) does. Steps from a start (`1-5/2`, `10/15`, `mon/2`) are spelt
 * out as a list (`1,3,5`): in the minute and hour fields the times then read as fixed times (below), and a
 * weekday step reaches 7, Sunday, which croner's own reading stops short of (`1/1` is every day). A step past
 * the field's span reads its first value only; croner refuses one, so it is cut to the span.
 */
function spellField(text: string, index: number): string {
  const { max, size, names, first = 0 } = FIELDS[index];
  const value = (token: string) => (names?.includes(token.toLowerCase()) ? names.indexOf(token.toLowerCase()) + first : Number(token));
  return text
    .split(',')
    .map((item) => {
      const wild = /^\*\/(\d+)$/.exec(item);
      if (wild) return Number(wild[1]) > size ? `*/${size}` : item;
      const m = /^(\w+)(?:-(\w+))?\/(\d+)$/.exec(item);
      if (!m) return item;
      const [from, to, step] = [value(m[1]), m[2] === undefined ? max : value(m[2]), Number(m[3])];
      const values: number[] = [];
      for (let v = from; v <= to; v += step) values.push(v);
      return values.join(',');
    })
    .join(',');
}

/** The five-field cron pattern of a cron, daily or weekly schedule, as croner is to read it. */
export function cronPattern(config: Partial<ScheduleConfig>): string | null {
  if (config.scheduleType === 'cron') {
    const fields = config.cronExpression!.trim().split(/\s+/);
    const [minute, hour, day, month, weekday] = fields.map(spellField);
    // cron(8): when both day fields are restricted either may match, but a field starting with `*` (`*/2`)
    // leaves the day to the other one. croner treats only a bare `*` so; `+` asks it for both to match.
    const both = fields[2] !== '*' && fields[4] !== '*' && (fields[2].startsWith('*') || fields[4].startsWith('*'));
    return [minute, hour, day, month, both ? `+${weekday}` : weekday].join(' ');
  }
  if (config.scheduleType !== 'daily' && config.scheduleType !== 'weekly') return null;
  const [h, m] = (config.dailyTime ?? '00:00').split(':').map(Number);
  return `${m} ${h} * * ${config.scheduleType === 'weekly' ? config.weeklyDay : '*'}`;
}

/**
 * Compiles a schedule trigger's config into its timing. Intervals count from `anchor` (the publish time,
 * so fire times stay put across restarts); cron, daily and weekly are wall-clock times in `timezone` (default
 * UTC) through croner: daily 09:00 America/New_York is 13:00Z in July, 14:00Z in January.
 * On DST days cron(8)'s rule holds. When the minute and hour fields name fixed times (no `*`: values, lists,
 * ranges), a time the clock skips runs once, right after the change (several skipped times share that one
 * run), and a time the clock passes twice runs once, the first time. With a `*` in either field the
 * schedule follows elapsed time instead (every 15 minutes stays every 15 minutes through the repeated hour).
 * croner is loaded on first use so the CLI never pays for it.
 * @example
 * const t = await compileTiming({ scheduleType: 'daily', dailyTime: '09:00', timezone: 'America/New_York' })
 * new Date(t.next(Date.parse('2024-07-01T00:00:00Z'))!).toISOString() // '2024-07-01T13:00:00.000Z'
 */
export async function compileTiming(config: Partial<ScheduleConfig>, anchor = 0): Promise<Timing> {
  const problems = scheduleProblems(config);
  if (problems.length) throw new WeirError('INVALID_CONFIG', `invalid schedule: ${problems.map((p) => p.message).join('; ')}`, { details: problems });
  if (config.scheduleType === 'interval') {
    const period = config.intervalValue! * UNIT_MS[config.intervalUnit!];
    return {
      next: (after) => anchor + (Math.floor((after - anchor) / period) + 1) * period,
      previous: (t) => (t < anchor ? null : anchor + Math.floor((t - anchor) / period) * period),
    };
  }
  const { Cron } = await import('croner');
  // 'no-wildcard' makes lists and ranges fixed times too (croner's default counts single values only).
  const cron = new Cron(cronPattern(config)!, { timezone: config.timezone ?? 'UTC', paused: true, mode: '5-part', fixedTimeRule: 'no-wildcard', sloppyRanges: true });
  return {
    next: (after) => cron.nextRun(new Date(after))?.getTime() ?? null,
    // croner's reference is exclusive of later times within the same second; one ms past t includes t.
    previous: (t) => cron.previousRuns(1, new Date(t + 1))[0]?.getTime() ?? null,
  };
}
