const digit = (s: string, i: number) => s.charCodeAt(i) - 48;
/** Milliseconds since midnight of an ISO time `YYYY-MM-DDTHH:MM:SS.mmmZ`, read digit by digit. */
const clockMs = (s: string) =>
  ((digit(s, 11) * 10 + digit(s, 12)) * 60 + digit(s, 14) * 10 + digit(s, 15)) * 60_000 +
  (digit(s, 17) * 10 + digit(s, 18)) * 1000 +
  digit(s, 20) * 100 + digit(s, 21) * 10 + digit(s, 22);

/**
 * Milliseconds between two times as records hold them (`Date#toISOString`). Two of one day are subtracted
 * digit by digit: `Date.parse` twice costs more than the rest of timing a node.
 * @example
 * isoMsBetween('2026-11-28T04:22:05.123Z', '2026-11-28T04:22:06.001Z') // 878
 */
export function isoMsBetween(from: string, to: string): number {
  // A node quicker than a millisecond starts and ends on one string of the executor's clock.
  if (from === to) return 0;
  return from.length === 24 && to.length === 24 && sameDay(from, to) ? clockMs(to) - clockMs(from) : Date.parse(to) - Date.parse(from);
}

function sameDay(a: string, b: string): boolean {
  for (let i = 0; i < 11; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}
