import { WeirError } from '../errors.js';
import { scheduleProblems, type ScheduleConfig } from '../nodes/triggers/schedule.js';

/** When a schedule runs: the next slot after a time, and the last slot at or before one. */
export interface Timing {
  next(after: number): number | null;
  previous(atOrBefore: number): number | null;
}

const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

/** The five-field cron pattern of a cron, daily or weekly schedule. */
export function cronPattern(config: Partial<ScheduleConfig>): string | null {
  if (config.scheduleType === 'cron') return config.cronExpression!.trim();
  if (config.scheduleType !== 'daily' && config.scheduleType !== 'weekly') return null;
  const [h, m] = (config.dailyTime ?? '00:00').split(':').map(Number);
  return `${m} ${h} * * ${config.scheduleType === 'weekly' ? config.weeklyDay : '*'}`;
}

/**
 * Compiles a schedule trigger's config into its timing. Intervals count from `anchor` (the publish time,
 * so slots stay put across restarts); cron, daily and weekly are wall-clock times in `timezone` (default
 * UTC) through croner, which handles DST: daily 09:00 America/New_York is 13:00Z in July, 14:00Z in January.
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
  const cron = new Cron(cronPattern(config)!, { timezone: config.timezone ?? 'UTC', paused: true, mode: '5-part' });
  return {
    next: (after) => cron.nextRun(new Date(after))?.getTime() ?? null,
    // croner's reference is exclusive of later times within the same second; one ms past t includes t.
    previous: (t) => cron.previousRuns(1, new Date(t + 1))[0]?.getTime() ?? null,
  };
}
