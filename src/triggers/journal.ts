import { open, readdir, readFile, rename, rm, mkdir, utimes, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** One journal record: any JSON object (the webhook intake writes deliveries, done marks and answers). */
export type JournalRecord = Record<string, unknown>;

/** Options of {@link createJournal}. */
export interface JournalOptions {
  /** Directory of the segment files (`<home>/journal`). */
  dir: string;
  /** A segment larger than this is rotated at the next batch (default 8 MiB). */
  maxSegmentBytes?: number;
  /**
   * The records still needed, asked at each rotation: they are copied into the new segment and every older
   * segment is deleted. This is the compaction: finished deliveries simply are not carried over.
   */
  live(): JournalRecord[];
  /** Records of segments adopted after start (an owner that died while this host runs). */
  onAdopted?(records: JournalRecord[]): void;
  /** How often to look for segments of dead owners, in ms (default 10000; 0 = only at open). */
  scanMs?: number;
}

/** An open append-only journal. */
export interface Journal {
  /** Adopts the segments of dead owners and returns their records (fold them by id: order across segments is not kept). Call once. */
  open(): Promise<JournalRecord[]>;
  /** Appends a record; resolves when the batch holding it is on disk (one fdatasync per batch). */
  append(record: JournalRecord): Promise<void>;
  /** Appends a record with the next batch without waiting for it (done marks: a lost one is harmless). */
  note(record: JournalRecord): void;
  /** Rewrites the live records into a fresh segment and deletes the older ones. */
  compact(): Promise<void>;
  /** Flushes what is queued, closes the segment and stops the scans. */
  close(): Promise<void>;
}

interface Pending {
  line: string;
  done?: { resolve(): void; reject(err: unknown): void };
}

const HEARTBEAT_MS = 2000;
const STALE_MS = 15000;
const SEGMENT = /^(\d+)-([0-9a-f]+)\.a?\d+\.log$/;

/**
 * An append-only journal with group commit. Records queue in memory; one writer turns each queue into one
 * `write` and one `fdatasync`, then releases every waiter of that batch, so a thousand concurrent appends
 * cost a handful of disk flushes. Segments are named `<pid>-<boot>.<seq>.log`; a host that starts (or a
 * periodic scan) adopts the segments of owners that are gone by renaming them to itself, which is atomic,
 * so two hosts never replay the same segment. A torn last line (a kill during a write) is skipped: its
 * append never resolved, so nobody was told it was stored.
 * @example
 * const journal = createJournal({ dir: join(home, 'journal'), live: () => [...pending.values()] })
 * for (const r of await journal.open()) replay(r)
 * await journal.append({ k: 'd', id: 'ex_1', input })
 */
export function createJournal(options: JournalOptions): Journal {
  const { dir, maxSegmentBytes = 8 * 1024 * 1024, scanMs = 10000 } = options;
  const owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const lockFile = join(dir, `${owner}.lock`);
  let seq = 0;
  let fh: FileHandle | null = null;
  let size = 0;
  let older: string[] = [];
  let queue: Pending[] = [];
  let writing: Promise<void> | null = null;
  let forceRotate = false;
  let closed = false;
  let timers: NodeJS.Timeout[] = [];

  const segmentName = (n: number) => `${owner}.${n}.log`;
  let current = '';

  async function openSegment(): Promise<void> {
    if (fh) {
      await fh.close();
      older.push(current);
    }
    current = segmentName(++seq);
    fh = await open(join(dir, current), 'a');
    size = 0;
    // The new file's directory entry must survive a power cut too, not only its contents.
    const d = await open(dir, 'r');
    await d.sync().finally(() => d.close());
  }

  async function writeBatch(batch: Pending[]): Promise<void> {
    let drop: string[] = [];
    if (forceRotate || size > maxSegmentBytes) {
      forceRotate = false;
      await openSegment();
      drop = older;
      older = [];
      batch = [...options.live().map((r) => ({ line: `${JSON.stringify(r)}\n` })), ...batch];
    }
    const data = batch.map((p) => p.line).join('');
    if (data) {
      await fh!.write(data);
      size += Buffer.byteLength(data);
      await fh!.datasync();
    }
    // The live records are now in the new segment: the older ones hold nothing else that is needed.
    await Promise.all(drop.map((name) => rm(join(dir, name), { force: true })));
  }

  function pump(): void {
    if (writing || (!queue.length && !forceRotate) || !fh) return;
    // setImmediate lets the requests already read in this loop turn join the batch.
    writing = new Promise<void>((r) => setImmediate(r))
      .then(async () => {
        const batch = queue;
        queue = [];
        try {
          await writeBatch(batch);
          batch.forEach((p) => p.done?.resolve());
        } catch (err) {
          batch.forEach((p) => p.done?.reject(err));
        }
      })
      .finally(() => {
        writing = null;
        pump();
      });
  }

  async function adopt(): Promise<JournalRecord[]> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const orphans = names
      .map((name) => ({ name, m: SEGMENT.exec(name) }))
      .filter((x): x is { name: string; m: RegExpExecArray } => !!x.m && !x.name.startsWith(`${owner}.`));
    const records: JournalRecord[] = [];
    for (const { name, m } of orphans) {
      if (!(await ownerGone(dir, `${m[1]}-${m[2]}`, Number(m[1])))) continue;
      // Adopted segments get names of their own, kept until the next rotation has carried their records.
      const taken = `${owner}.a${++seq}.log`;
      try {
        await rename(join(dir, name), join(dir, taken));
      } catch {
        continue; // another host adopted it first
      }
      older.push(taken);
      records.push(...parseLines(await readFile(join(dir, taken), 'utf8')));
      await rm(join(dir, `${m[1]}-${m[2]}.lock`), { force: true });
    }
    return records;
  }

  return {
    async open() {
      await mkdir(dir, { recursive: true });
      await writeLock(lockFile);
      const records = await adopt();
      await openSegment();
      timers.push(setInterval(() => void writeLock(lockFile).catch(() => {}), HEARTBEAT_MS).unref());
      if (scanMs > 0) {
        const scan = async () => {
          const adopted = await adopt();
          if (!adopted.length) return;
          options.onAdopted?.(adopted);
          forceRotate = true;
          pump();
        };
        timers.push(setInterval(() => void scan().catch(() => {}), scanMs).unref());
      }
      return records;
    },
    append(record) {
      if (closed) return Promise.reject(new Error('journal is closed'));
      return new Promise<void>((resolve, reject) => {
        queue.push({ line: `${JSON.stringify(record)}\n`, done: { resolve, reject } });
        pump();
      });
    },
    note(record) {
      if (closed) return;
      queue.push({ line: `${JSON.stringify(record)}\n` });
      pump();
    },
    async compact() {
      forceRotate = true;
      pump();
      while (writing) await writing;
    },
    async close() {
      closed = true;
      timers.forEach(clearInterval);
      timers = [];
      // A last rotation leaves only what is still live (usually nothing) for the next start.
      forceRotate = !!fh;
      pump();
      while (writing) await writing;
      await fh?.close();
      fh = null;
      await rm(lockFile, { force: true });
    },
  };
}

/** Parses NDJSON, skipping a torn or corrupt line. */
function parseLines(text: string): JournalRecord[] {
  const out: JournalRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // a write cut short by a kill: it was never acknowledged
    }
  }
  return out;
}

async function writeLock(file: string): Promise<void> {
  const t = new Date();
  try {
    await utimes(file, t, t);
  } catch {
    const fh = await open(file, 'w');
    await fh.close();
  }
}

/** An owner is gone when its process no longer exists or its heartbeat stopped (a reused pid). */
async function ownerGone(dir: string, owner: string, pid: number): Promise<boolean> {
  if (pid !== process.pid) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return true;
    }
  } else {
    return true; // our own pid with another boot id: an earlier life of this process slot
  }
  try {
    return Date.now() - (await stat(join(dir, `${owner}.lock`))).mtimeMs > STALE_MS;
  } catch {
    return true;
  }
}
