import { startTimeOf } from '../resources/executions/ids.js';

/** Slack under the oldest waiting delivery's accept time: its id was made just before (clock ticks apart). */
const SLACK_MS = 1000;

/**
 * Which deliveries accepted by this host have not ended, for the status URL's `queued`, without keeping an
 * id per waiting delivery (memory that would grow with the backlog). The backlog starts deliveries in the
 * order they were accepted and ids carry their creation time, so one time stands for everything waiting:
 * while deliveries wait, an id made at or after the oldest one's acceptance and without a record yet is
 * waiting (one that ended has its record, read first). Running ones are kept by id (the limiter bounds
 * them), and so are the few that ended without a record while others wait (a flow unpublished first).
 * @example
 * const unfinished = createUnfinished()
 * unfinished.accepted(delivery.at) // then, from the backlog: started(id) ... ended(id, recorded)
 * unfinished.has('exec_1m8608k6qj82147htxw') // true while it waits or runs
 */
export function createUnfinished() {
  const running = new Set<string>();
  const unrecorded = new Set<string>();
  let waiting = 0;
  let oldest = Infinity;
  return {
    /** One more delivery waits; `at` is when it was accepted. */
    accepted(at: number): void {
      if (waiting++ === 0) {
        oldest = at;
        unrecorded.clear();
      } else oldest = Math.min(oldest, at);
    },
    started(id: string): void {
      waiting--;
      running.add(id);
    },
    /** A delivery's run is over; `recorded` says whether its execution record was stored. */
    ended(id: string, recorded: boolean): void {
      running.delete(id);
      if (!recorded && waiting) unrecorded.add(id);
    },
    has(id: string): boolean {
      if (running.has(id)) return true;
      if (!waiting || unrecorded.has(id)) return false;
      const made = startTimeOf(id);
      return made !== null && made >= oldest - SLACK_MS;
    },
  };
}
