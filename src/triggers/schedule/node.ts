import { defineNode, type Problem } from '../../nodes/define.js';

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'weekday', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

/** Problems of a five-field cron expression (minute hour day month weekday); empty when valid. */
export function cronProblems(expression: string): string[] {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) return [`cron expression must have 5 fields (minute hour day month weekday), got ${parts.length}`];
  const problems: string[] = [];
  parts.forEach((part, i) => {
    const f = FIELDS[i];
    const value = (token: string): number => {
      const named = f.names?.indexOf(token.toLowerCase()) ?? -1;
      if (named >= 0) return named + (f.name === 'month' ? 1 : 0);
      return /^\d+$/.test(token) ? Number(token) : NaN;
    };
    for (const item of part.split(',')) {
      const m = /^(\*|[a-z0-9]+(?:-[a-z0-9]+)?)(?:\/(\d+))?$/i.exec(item);
      if (!m) {
        problems.push(`cron ${f.name} field "${part}" is not valid`);
        return;
      }
      if (m[2] !== undefined && Number(m[2]) < 1) problems.push(`cron ${f.name} step must be at least 1`);
      if (m[1] === '*') continue;
      const bounds = m[1].split('-').map(value);
      if (bounds.some((b) => Number.isNaN(b) || b < f.min || b > f.max)) {
        problems.push(`cron ${f.name} value "${m[1]}" is out of range ${f.min}-${f.max}`);
      } else if (bounds.length === 2 && bounds[0] > bounds[1]) {
        problems.push(`cron ${f.name} range "${m[1]}" runs backwards`);
      }
    }
  });
  return problems;
}

/** True when `name` is an IANA time zone this Node knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const SCHEDULE_TYPES = ['interval', 'cron', 'daily', 'weekly'] as const;
export const INTERVAL_UNITS = ['minutes', 'hours', 'days'] as const;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The fields of a schedule trigger. */
export interface ScheduleConfig {
  scheduleType: (typeof SCHEDULE_TYPES)[number];
  intervalValue?: number;
  intervalUnit?: (typeof INTERVAL_UNITS)[number];
  cronExpression?: string;
  dailyTime?: string;
  weeklyDay?: number;
  timezone?: string;
  /** Run the last missed fire time after downtime (default: skip missed runs). */
  catchUp?: boolean;
  /** Allow a new run while the previous one is still running (default: no). */
  allowOverlap?: boolean;
}

/** Save-time checks of a schedule: impossible values (`25:00`, a bad cron, `weeklyDay` 7, unknown zone) are refused. */
export function scheduleProblems(config: Partial<ScheduleConfig>): Problem[] {
  const problems: Problem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  const type = config.scheduleType;
  if (!SCHEDULE_TYPES.includes(type as never)) {
    add('scheduleType', `"scheduleType" is required and must be one of ${SCHEDULE_TYPES.join(', ')}`);
  }
  if (type === 'interval') {
    const v = config.intervalValue;
    if (!(typeof v === 'number' && Number.isInteger(v) && v > 0)) add('intervalValue', '"intervalValue" must be a whole number above 0');
    if (!INTERVAL_UNITS.includes(config.intervalUnit as never)) {
      add('intervalUnit', `"intervalUnit" must be one of ${INTERVAL_UNITS.join(', ')}`);
    }
  }
  if (type === 'cron') {
    if (typeof config.cronExpression !== 'string') add('cronExpression', '"cronExpression" is required');
    else for (const message of cronProblems(config.cronExpression)) add('cronExpression', message);
  }
  if (type === 'daily' || type === 'weekly') {
    const t = config.dailyTime;
    if (type === 'daily' && t === undefined) add('dailyTime', '"dailyTime" is required (24-hour HH:MM)');
    else if (t !== undefined && (typeof t !== 'string' || !HHMM.test(t))) add('dailyTime', `"dailyTime" must be a 24-hour time HH:MM, got ${JSON.stringify(t)}`);
  }
  if (type === 'weekly') {
    const d = config.weeklyDay;
    if (!(typeof d === 'number' && Number.isInteger(d) && d >= 0 && d <= 6)) add('weeklyDay', '"weeklyDay" must be 0 to 6 (Sunday to Saturday)');
  }
  if (config.timezone !== undefined && (typeof config.timezone !== 'string' || !isTimeZone(config.timezone))) {
    add('timezone', `unknown time zone ${JSON.stringify(config.timezone)}`);
  }
  return problems;
}

/** The schedule trigger (`schedule_trigger`); its schedule fields are required at save. */
export const scheduleTrigger = defineNode<Partial<ScheduleConfig>>({
  type: 'schedule_trigger',
  docs: {
    summary: 'Starts the flow on a schedule: every N minutes, hours or days, a cron expression, daily or weekly, in a time zone',
    output: '`{ triggeredAt, scheduleName }`',
    example: { scheduleType: 'cron', cronExpression: '0,30 9-17 * * mon-fri', timezone: 'Europe/Paris' },
  },
  trigger: true,
  config: {
    type: 'object',
    properties: {
      scheduleType: { enum: [...SCHEDULE_TYPES], description: 'How the runs are timed; each type reads the fields named after it' },
      intervalValue: { type: 'integer', minimum: 1, description: 'interval: run every this many units, counted from the publish time' },
      intervalUnit: { enum: [...INTERVAL_UNITS], description: 'interval: the unit of intervalValue' },
      cronExpression: { type: 'string', description: 'cron: five fields, minute hour day-of-month month weekday (0,30 9-17 * * mon-fri)' },
      dailyTime: { type: 'string', pattern: HHMM.source, description: 'daily (required) and weekly (default 00:00): the time of day, 24-hour HH:MM' },
      weeklyDay: { type: 'integer', minimum: 0, description: 'weekly: the day, 0 (Sunday) to 6 (Saturday)' },
      timezone: { type: 'string', description: 'The IANA time zone of the times, e.g. Europe/Paris (default UTC)' },
      catchUp: { type: 'boolean', description: 'true: after downtime, run the last missed fire time at start (default: skip missed runs)' },
      allowOverlap: { type: 'boolean', description: 'true: a run may start while the previous one still runs (default: that fire time is skipped)' },
    },
    required: ['scheduleType'],
    additionalProperties: false,
  },
  validate: scheduleProblems,
});
