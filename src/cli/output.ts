import { toJson, toWeirError } from '../errors.js';
import type { CliIO, CommandResult } from './types.js';

const cell = (v: unknown): string => {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v).replace(/\s*\n\s*/g, ' ');
};

/** An aligned text table; columns default to the keys of the first row. */
export function table(rows: Record<string, unknown>[], columns?: string[]): string {
  if (rows.length === 0) return '(none)';
  const cols = columns ?? Object.keys(rows[0]);
  const cells = [cols.map((c) => c.toUpperCase()), ...rows.map((r) => cols.map((c) => cell(r[c])))];
  const widths = cols.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n');
}

/** `key: value` lines for one object. */
export function record(obj: Record<string, unknown>): string {
  const width = Math.max(0, ...Object.keys(obj).map((k) => k.length));
  return Object.entries(obj)
    .map(([k, v]) => `${`${k}:`.padEnd(width + 1)} ${typeof v === 'string' && v.includes('\n') ? `\n${v}` : cell(v)}`)
    .join('\n');
}

/** Prints a command's result: one JSON document with `--json`, else its text or a rendering of its data. */
export function printResult(result: CommandResult | void, json: boolean, io: CliIO): void {
  if (!result) return;
  if (json) {
    io.stdout.write(`${JSON.stringify(result.data ?? null, null, 2)}\n`);
    return;
  }
  let text = result.text;
  if (text === undefined) {
    const d = result.data;
    if (Array.isArray(d)) text = d.length && typeof d[0] !== 'object' ? d.join('\n') : table(d as Record<string, unknown>[], result.columns);
    else if (d && typeof d === 'object') text = record(d as Record<string, unknown>);
    else if (d !== undefined && d !== null) text = String(d);
  }
  if (text !== undefined && text !== '') io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Prints an error on stderr: `error: <message>` and hints, or the JSON error document with `--json`. */
export function printError(err: unknown, json: boolean, io: CliIO): number {
  const e = toWeirError(err);
  if (json) io.stderr.write(`${JSON.stringify(toJson(e))}\n`);
  else {
    io.stderr.write(`error: ${e.message}\n`);
    for (const hint of e.hints) io.stderr.write(`hint: ${hint}\n`);
  }
  if (io.env.WEIR_DEBUG === '1' && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
  return e.exit;
}
