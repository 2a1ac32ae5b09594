import { pino } from 'pino';

/** What weir logs through: a subset of pino's logger, so a pino instance (or a child of one) fits as is. */
export interface WeirLogger {
  error(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
  trace(fields: object, message: string): void;
  isLevelEnabled(level: string): boolean;
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  level: LogLevel;
  /** `json`: one pino JSON object a line; `text`: one human-readable line an event. */
  format: LogFormat;
  /** Where lines go (`process.stdout` for `weir serve`). */
  stream: { write(chunk: string): unknown };
}

/** Fields a text line leaves out: pino's own, and those it shows in its own place. */
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'ms', 'stack']);
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const clock = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
// Bare words stay bare; anything with spaces, quotes or `=` is quoted, so a line splits back into its fields.
const value = (v: unknown) => (typeof v === 'string' && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v));

/**
 * One pino JSON line as text: `12:01:02.003 INFO  execution success flow=hello exec=exec_1 3ms`; a `stack`
 * field follows on its own lines.
 * @example
 * textLine('{"level":"error","time":"2026-01-01T12:01:02.003Z","msg":"execution error","flow":"hello"}')
 */
export function textLine(json: string): string {
  const entry = JSON.parse(json) as Record<string, unknown>;
  let line = `${clock(new Date(entry.time as string))} ${String(entry.level).toUpperCase().padEnd(5)} ${entry.msg}`;
  for (const [key, v] of Object.entries(entry)) if (!HIDDEN.has(key) && v !== undefined) line += ` ${key}=${value(v)}`;
  if (typeof entry.ms === 'number') line += ` ${entry.ms}ms`;
  return `${line}\n${typeof entry.stack === 'string' ? `${entry.stack}\n` : ''}`;
}

/**
 * A pino logger writing to `stream` in `format` from `level` up. Text lines are made from pino's JSON, so
 * both formats carry the same fields; the cost is paid only for lines that are written.
 * @example
 * const logger = createLogger({ level: 'info', format: 'text', stream: process.stdout })
 * logger.error({ flow: 'hello', node: 'kv-1', error: 'KV namespace "ticks" not found' }, 'execution error')
 */
export function createLogger({ level, format, stream }: LoggerOptions): WeirLogger {
  const destination = format === 'json' ? stream : { write: (line: string) => stream.write(textLine(line)) };
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      base: format === 'json' ? { pid: process.pid } : undefined,
    },
    destination,
  );
}
