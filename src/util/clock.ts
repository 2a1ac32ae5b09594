/**
 * A clock returning ISO timestamps, formatting each millisecond once: `toISOString` costs over a
 * microsecond, and a run of fast nodes asks for the same millisecond many times. One per executor.
 * @example
 * const now = createClock()
 * now() // '2025-01-01T00:00:00.000Z'
 */
export function createClock(): () => string {
  let lastMs = -1;
  let lastIso = '';
  return () => {
    const ms = Date.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  };
}
