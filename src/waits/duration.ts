const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/;

/**
 * Milliseconds of a duration written as a number and a unit (`500ms`, `30s`, `5m`, `2h`, `7d`), or null when
 * the text is not one.
 * @example
 * parseDuration('5m') // 300000
 */
export function parseDuration(text: unknown): number | null {
  const m = typeof text === 'string' ? DURATION.exec(text) : null;
  return m ? Math.round(Number(m[1]) * UNITS[m[2]]) : null;
}
