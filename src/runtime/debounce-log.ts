import { existsSync } from 'node:fs';
import type { TriggerKind } from '../types/trigger.js';
import type { Sealed } from '../resources/secrets/crypto.js';
import { createJournal, type Journal, type JournalRecord } from './durable/journal.js';

/** How long done marks may wait for a burst's line to go out with. */
const DONE_AFTER_MS = 1000;

/** One pending burst of `settings.debounce`: the run it collapses into and the last delivery's input. */
export interface Burst {
  runId: string;
  /** `<workflow id>` and the key's value: deliveries with the same slot join the burst. */
  slot: string;
  flow: { id: string; name: string; version: number | null; hash: string };
  trigger: TriggerKind;
  input: unknown;
  startedAt: string;
  firstAt: number;
  dueAt: number;
  /** Times the burst was written: of its lines, the one with the most writes holds its last delivery. */
  writes: number;
  /** In a line: the real input, sealed, where masking changed `input` (a secret's value in it). */
  sealed?: Sealed;
}

/** What {@link createBurstLog} returns. */
export interface BurstLog {
  /** Whether a log was ever written here (a host whose flows never debounced opens none, and pays nothing). */
  present(): boolean;
  /** Takes over the logs of processes that are gone; resolves with their bursts whose run was never done. */
  open(): Promise<Burst[]>;
  /** Stores the burst as it is now; resolves once it is on disk. */
  write(burst: Burst): Promise<void>;
  /** Lets the burst go once its run's final record is stored (a done line lost in a crash only costs a lookup). */
  done(runId: string): void;
  close(): Promise<void>;
}

/**
 * Where pending bursts survive a kill -9: lines in an append-only journal (src/runtime/durable/journal.ts,
 * `<home>/debounce`), written by group commit, so a thousand deliveries at once cost a few writes and no file
 * each. A burst's segment is kept while the burst is pending; a line for each write, a done line at the end.
 * A process that starts takes over the segments of dead ones (`onAdopted`: those found while it runs).
 * Without a directory (a memory-only weir) nothing survives a restart and nothing is written.
 * @example
 * const log = createBurstLog(join(home, 'debounce'), (bursts) => bursts.forEach(arm))
 * for (const burst of await log.open()) arm(burst)
 * await log.write(burst) // on disk
 * log.done(burst.runId)
 */
export function createBurstLog(dir: string | undefined, onAdopted: (bursts: Burst[]) => void): BurstLog {
  if (!dir) return { present: () => false, open: async () => [], write: async () => {}, done() {}, close: async () => {} };
  /** The segment holding each pending burst's last line, kept (pinned) until the burst is done. */
  const segments = new Map<string, string>();
  const keep = (runId: string, segment: string) => {
    const before = segments.get(runId);
    segments.set(runId, segment);
    journal.pin(segment);
    if (before) journal.unpin(before);
  };
  /** The pending bursts among the lines of adopted segments (a burst's latest line; none once done). */
  const pendingIn = (lines: Array<{ record: JournalRecord; pos: { segment: string } }>): Burst[] => {
    const latest = new Map<string, { burst: Burst; segment: string }>();
    const done = new Set<string>();
    for (const { record, pos } of lines) {
      if (record.k === 'd') for (const id of record.ids as string[]) done.add(id);
      const burst = record.k === 'b' ? (record.b as Burst) : null;
      if (burst?.runId && (latest.get(burst.runId)?.burst.writes ?? -1) < burst.writes) latest.set(burst.runId, { burst, segment: pos.segment });
    }
    const out: Burst[] = [];
    for (const [runId, { burst, segment }] of latest) {
      if (done.has(runId) || segments.has(runId)) continue;
      keep(runId, segment);
      out.push(burst);
    }
    return out;
  };
  const journal: Journal = createJournal({ dir, live: () => [], onAdopted: (lines) => onAdopted(pendingIn(lines)) });
  // Done marks go out together, with the next burst's line or after DONE_AFTER_MS: a write of their own per
  // run would double the log's writes (a mark lost in a crash only costs that burst a lookup of its record).
  let doneIds: string[] = [];
  let doneTimer: NodeJS.Timeout | null = null;
  const writeDone = () => {
    if (doneTimer) clearTimeout(doneTimer);
    doneTimer = null;
    if (doneIds.length) journal.note({ k: 'd', ids: doneIds });
    doneIds = [];
  };
  return {
    present: () => existsSync(dir),
    open: async () => pendingIn(await journal.open()),
    async write(burst) {
      writeDone();
      const { segment } = await journal.append(`{"k":"b","b":${JSON.stringify(burst)}}`);
      keep(burst.runId, segment);
    },
    done(runId) {
      const segment = segments.get(runId);
      if (segment === undefined) return;
      segments.delete(runId);
      journal.unpin(segment);
      doneIds.push(runId);
      doneTimer ??= setTimeout(writeDone, DONE_AFTER_MS).unref();
    },
    async close() {
      writeDone();
      await journal.close();
    },
  };
}
