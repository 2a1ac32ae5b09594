import { randomBytes } from 'node:crypto';
import type { WeirBus, WeirEvents } from '../../events.js';

/** The bus events the streams carry (their data is masked on the bus already). */
export const STREAMED = ['execution:start', 'node:start', 'node:end', 'execution:log', 'execution:end'] as const;
export type StreamedName = (typeof STREAMED)[number];

/** One logged bus event: its place in the log (`seq`), name and data. */
export interface LoggedEvent {
  seq: number;
  name: StreamedName;
  data: WeirEvents[StreamedName];
}

/** What {@link createEventLog} returns. */
export interface EventLog {
  /** Starts logging the bus (once; later calls do nothing). */
  start(): void;
  /** The seq of the newest event (0 when none yet). */
  last(): number;
  /** The events after `seq` still held (at least the last `size`), oldest first. */
  after(seq: number): LoggedEvent[];
  /** True when every event after `seq` is still held (so a client that saw `seq` misses none). */
  holds(seq: number): boolean;
  /** Calls `fn` with each new event; returns a function that stops it. */
  follow(fn: (event: LoggedEvent) => void): () => void;
  /** The SSE id of a seq: unique to this log, so an id of another host (or an earlier run) is never taken for one of ours. */
  idOf(seq: number): string;
  /** The seq of an SSE id of this log, or null (another log's id, or not an id). */
  seqOf(id: string | undefined): number | null;
}

/**
 * A bounded in-memory log of a host's recent execution events with increasing ids, which server-sent event
 * streams replay from when a client reconnects with `Last-Event-ID`. It starts logging on the first use of
 * the management API (`start`): until then runs pay nothing for node events nobody follows.
 * @example
 * const log = createEventLog(weir.bus, 2000)
 * log.start()
 * const missed = log.after(log.seqOf(req.headers['last-event-id']) ?? log.last())
 */
export function createEventLog(bus: WeirBus, size = 2000): EventLog {
  const epoch = randomBytes(6).toString('base64url');
  const ring: LoggedEvent[] = [];
  const followers = new Set<(event: LoggedEvent) => void>();
  let seq = 0;
  let started = false;

  const push = (name: StreamedName) => (data: unknown) => {
    const event = { seq: ++seq, name, data } as LoggedEvent;
    ring.push(event);
    // Trimmed by a quarter at a time, not one shift per event: the log holds between `size` and 1.25 x `size`.
    if (ring.length > size + (size >> 2)) ring.splice(0, ring.length - size);
    for (const fn of followers) fn(event);
  };

  return {
    start() {
      if (started) return;
      started = true;
      for (const name of STREAMED) bus.on(name, push(name));
    },
    last: () => seq,
    after(from) {
      const first = ring[0]?.seq ?? seq + 1;
      return ring.slice(Math.max(0, from + 1 - first));
    },
    holds: (from) => from <= seq && from >= (ring[0]?.seq ?? seq + 1) - 1,
    follow(fn) {
      followers.add(fn);
      return () => void followers.delete(fn);
    },
    idOf: (n) => `${epoch}-${n}`,
    seqOf(id) {
      const m = /^([\w-]+)-(\d+)$/.exec(id ?? '');
      return m && m[1] === epoch ? Number(m[2]) : null;
    },
  };
}
