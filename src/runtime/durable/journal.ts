import { mkdir, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createGroupCommit } from '../../util/group-commit.js';
import { adoptOrphans, createReaders, createSegment, heartbeat, type JournalRecord, type Position } from './journal-files.js';

export type { JournalRecord, Position };

/** Options of {@link createJournal}. */
export interface JournalOptions {
  /** Directory of the segment files (`<home>/journal`). */
  dir: string;
  /** A segment larger than this is closed at the next batch and a new one begun (default 8 MiB). */
  maxSegmentBytes?: number;
  /** Records to copy into each new segment (answers still inside their dedupe window). */
  live(): JournalRecord[];
  /** Records of segments adopted while running (an owner that died while this host runs). */
  onAdopted?(records: Array<{ record: JournalRecord; pos: Position }>): void;
  /** How often to look for segments of dead owners, in ms (default 10000; 0 = only at open). */
  scanMs?: number;
  /**
   * A segment that took records and then none for this long is closed (default 60000): an idle host keeps no
   * finished delivery's input on disk until traffic fills the segment.
   */
  idleMs?: number;
}

/** An open append-only journal. */
export interface Journal {
  /** Adopts the segments of dead owners; returns their records with positions (fold them by id). */
  open(): Promise<Array<{ record: JournalRecord; pos: Position }>>;
  /**
   * Appends a record (or its JSON text, on one line); resolves once the batch holding it is on disk (one
   * synchronous write per batch). `pin` keeps its segment.
   */
  append(record: JournalRecord | string, options?: { pin?: boolean }): Promise<Position>;
  /** Appends a record with the next batch without waiting for it (done marks: a lost one is harmless). */
  note(record: JournalRecord): void;
  /** Reads a record back. */
  read(pos: Position): Promise<JournalRecord>;
  /** Keeps a segment (it holds a record still needed) / lets it go: a closed segment with no pins is deleted. */
  pin(segment: string): void;
  unpin(segment: string): void;
  /** Closes the current segment now (carrying the live records into a new one). */
  rotate(): Promise<void>;
  /** Flushes what is queued, closes the files and stops the timers. Pinned segments stay for the next start. */
  close(): Promise<void>;
}

interface Pending {
  line: string;
  pin?: boolean;
  done?: { resolve(pos: Position): void; reject(err: unknown): void };
}

const HEARTBEAT_MS = 2000;
/** Filled past the rotation size: the batch that crosses it still writes over existing blocks. */
const PREFILL_SLACK = 256 * 1024;
/** Closes a segment without the zeros it was filled with past its last batch. */
async function closeSegment(fh: FileHandle, used: number): Promise<void> {
  try {
    await fh.truncate(used);
  } finally {
    await fh.close();
  }
}

/**
 * An append-only journal with group commit. Records queue in memory; one writer turns each queue into one
 * synchronous-data `write`, then releases every waiter of that batch, so a thousand concurrent appends
 * cost a handful of disk flushes. Compaction works by segments: each new segment starts with the live
 * records (remembered answers), and a closed segment is deleted once nothing pins it (every delivery in it
 * finished). Segments are named `<pid>-<boot>.<seq>.log`; a starting host (and a periodic scan) adopts the
 * segments of owners that are gone by renaming them, which is atomic, so two hosts never replay one segment.
 * @example
 * const journal = createJournal({ dir: join(home, 'journal'), live: () => dedupe.live() })
 * for (const { record, pos } of await journal.open()) replay(record, pos)
 * const pos = await journal.append({ k: 'd', id: 'ex_1', in: input }, { pin: true })
 */
export function createJournal(options: JournalOptions): Journal {
  const { dir, maxSegmentBytes = 8 * 1024 * 1024, scanMs = 10000, idleMs = 60_000 } = options;
  const owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const lockFile = join(dir, `${owner}.lock`);
  let seq = 0;
  let current = '';
  let fh: FileHandle | null = null;
  let size = 0;
  let next: Promise<{ name: string; handle: FileHandle }> | null = null;
  let rotateNext = false;
  let closed = false;
  let sequence = 0;
  /** Batches written, that number at the last rotation, and at the last idle check. */
  let batches = 0;
  let batchesAtRotation = 0;
  let batchesAtCheck = 0;
  let opened!: () => void;
  const ready = new Promise<void>((resolve) => (opened = resolve));
  const timers: NodeJS.Timeout[] = [];
  const pins = new Map<string, number>();
  /** Closed segments whose live records a later segment already holds: deletable once unpinned. */
  const sealed = new Set<string>();
  const unsealed = new Set<string>();
  const readers = createReaders(dir);

  async function drop(segment: string): Promise<void> {
    sealed.delete(segment);
    await readers.close(segment);
    await rm(join(dir, segment), { force: true });
  }

  /**
   * Creates the next segment; made ahead of time (a rotation is then only a swap) it is filled with zeros
   * first. One made when needed (at open and close) is not: a host starting or stopping writes no megabytes.
   */
  function prepareNext(prefill = 0): Promise<{ name: string; handle: FileHandle }> {
    const made = createSegment(dir, `${owner}.${++seq}.log`, prefill);
    made.catch(() => {});
    return made;
  }

  async function openSegment(): Promise<void> {
    const ready = await (next ?? prepareNext());
    next = null;
    if (fh) {
      await closeSegment(fh, size);
      unsealed.add(current);
    }
    current = ready.name;
    fh = ready.handle;
    size = 0;
  }

  /**
   * Writes lines at a range reserved now, then flushes them: the batch is on disk when this resolves.
   * A batch starts with a newline, so a neighbour lost in a crash (a hole of zeros) never merges with a
   * line that was acknowledged.
   */
  async function writeLines(lines: string[]): Promise<Position[]> {
    const data = Buffer.from(`\n${lines.join('')}`);
    const positions: Position[] = [];
    let offset = size + 1;
    for (const line of lines) {
      const length = Buffer.byteLength(line);
      positions.push({ segment: current, offset, length: length - 1 });
      offset += length;
    }
    const at = size;
    size += data.length;
    if (!next && size > maxSegmentBytes * 0.75) next = prepareNext(maxSegmentBytes + PREFILL_SLACK);
    await fh!.write(data, 0, data.length, at); // durable on return: segments are opened O_DSYNC
    return positions;
  }

  /** Closes the segment, starts the next with the live records, and deletes closed segments nothing pins. */
  async function rotateNow(): Promise<void> {
    rotateNext = false;
    batchesAtRotation = batches;
    await openSegment();
    const sealing = [...unsealed];
    unsealed.clear();
    const live = options.live();
    if (live.length) await writeLines(live.map((r) => `${JSON.stringify(r)}\n`));
    for (const segment of sealing) {
      sealed.add(segment);
      if (!pins.get(segment)) await drop(segment);
    }
  }

  /**
   * One batch, written and flushed at once (one write under way: with more in flight the same deliveries went
   * out in smaller batches, so more writes, flushes and thread-pool wake-ups, and more host CPU per durable
   * answer). A due rotation comes first, between batches, so no batch straddles two segments.
   */
  async function writeBatch(batch: Map<number, Pending>): Promise<void> {
    await ready;
    if (!fh) return;
    if (rotateNext || size > maxSegmentBytes) await rotateNow().catch(() => {});
    if (!batch.size) return;
    batches++;
    const pending = [...batch.values()];
    try {
      const positions = await writeLines(pending.map((p) => p.line));
      pending.forEach((p, i) => {
        if (p.pin) api.pin(positions[i].segment);
        p.done?.resolve(positions[i]);
      });
    } catch (err) {
      pending.forEach((p) => p.done?.reject(err));
    }
  }

  const commit = createGroupCommit<number, Pending>(writeBatch);

  const api: Journal = {
    async open() {
      await mkdir(dir, { recursive: true });
      await heartbeat(lockFile);
      const adopted = await adoptOrphans(dir, owner, () => `${owner}.a${++seq}.log`);
      adopted.forEach((a) => unsealed.add(a.segment));
      await openSegment();
      opened();
      timers.push(setInterval(() => void heartbeat(lockFile).catch(() => {}), HEARTBEAT_MS).unref());
      // Closing an idle segment carries only the live records over, so an idle journal stays idle.
      const idle = () => {
        const quiet = batches === batchesAtCheck && batches > batchesAtRotation;
        batchesAtCheck = batches;
        if (quiet) void api.rotate().catch(() => {});
      };
      timers.push(setInterval(idle, idleMs).unref());
      if (scanMs > 0) {
        const scan = async () => {
          const found = await adoptOrphans(dir, owner, () => `${owner}.a${++seq}.log`);
          if (!found.length) return;
          found.forEach((a) => unsealed.add(a.segment));
          options.onAdopted?.(found.flatMap((a) => a.records));
          await api.rotate();
        };
        timers.push(setInterval(() => void scan().catch(() => {}), scanMs).unref());
      }
      return adopted.flatMap((a) => a.records);
    },
    append(record, opts = {}) {
      if (closed) return Promise.reject(new Error('journal is closed'));
      return new Promise<Position>((resolve, reject) => {
        const pending = { line: `${typeof record === 'string' ? record : JSON.stringify(record)}\n`, pin: opts.pin, done: { resolve, reject } };
        commit.add(++sequence, () => pending);
      });
    },
    note(record) {
      if (closed) return;
      const pending = { line: `${JSON.stringify(record)}\n` };
      commit.add(++sequence, () => pending);
    },
    read: (pos) => readers.read(pos),
    pin(segment) {
      pins.set(segment, (pins.get(segment) ?? 0) + 1);
    },
    unpin(segment) {
      const n = (pins.get(segment) ?? 1) - 1;
      if (n > 0) return void pins.set(segment, n);
      pins.delete(segment);
      if (sealed.has(segment)) void drop(segment).catch(() => {});
    },
    async rotate() {
      rotateNext = true;
      await commit.flush();
    },
    async close() {
      closed = true;
      timers.forEach(clearInterval);
      // A last rotation leaves only what is live (pinned deliveries, answers) for the next start.
      if (fh) {
        rotateNext = true;
        await commit.flush();
      }
      if (fh) await closeSegment(fh, size);
      fh = null;
      // A segment made ahead of time and never used goes too.
      const unused = await next?.catch(() => null);
      next = null;
      if (unused) {
        await unused.handle.close();
        await rm(join(dir, unused.name), { force: true });
      }
      await readers.closeAll();
      await rm(lockFile, { force: true });
    },
  };
  return api;
}
