import { createDedupe, type Answer, type Dedupe } from './dedupe.js';
import { createJournal, type Journal, type JournalRecord } from './journal.js';

/** A webhook delivery accepted with `respondImmediately: true`: run later (or again after a crash) under `id`. */
export interface Delivery {
  /** The execution id given to the caller. */
  id: string;
  workflowId: string;
  input: unknown;
  /** Accepted at (ms since the epoch). */
  at: number;
}

/** Options of {@link createDeliveries}. */
export interface DeliveriesOptions {
  /** Journal directory; without one (a memory-only weir) nothing survives a restart. */
  dir?: string;
  /** Deliveries of a host that died while this one runs, found by the journal's periodic scan. */
  onOrphans?(deliveries: Delivery[]): void;
  now?: () => number;
}

/** What {@link createDeliveries} returns. */
export interface Deliveries {
  /** The idempotency index (answers restored from the journal at open). */
  dedupe: Dedupe;
  /** Opens the journal and returns the deliveries that were accepted but never finished. */
  open(): Promise<Delivery[]>;
  /** Records a delivery; resolves once it is on disk (then, and only then, may the caller get its 200). */
  accept(delivery: Delivery, idempotency?: { key: string; exp: number }): Promise<void>;
  /** Marks a delivery's execution as finished. */
  finish(id: string): void;
  /** Records the answer of a waited-for delivery for its idempotency key; resolves once on disk. */
  remember(key: string, answer: Answer, exp: number): Promise<void>;
  /** Flushes and closes the journal. */
  close(): Promise<void>;
}

/**
 * Durable delivery over the journal: `{k:'d'}` records for accepted deliveries (with their idempotency key),
 * `{k:'x'}` when their execution ends, `{k:'a'}` for remembered answers. Compaction keeps the unfinished
 * deliveries and the answers still inside their dedupe window; everything else is dropped.
 * @example
 * const deliveries = createDeliveries({ dir: join(home, 'journal') })
 * for (const d of await deliveries.open()) start(d)
 * await deliveries.accept({ id, workflowId, input, at: Date.now() })
 */
export function createDeliveries(options: DeliveriesOptions): Deliveries {
  const now = options.now ?? Date.now;
  const dedupe = createDedupe({ now });
  const pending = new Map<string, JournalRecord>();
  let journal: Journal | null = null;
  let opening: Promise<Delivery[]> | null = null;

  /** Folds records by id (order-free): a delivery is pending unless a done mark for it exists anywhere. */
  function fold(records: JournalRecord[]): Delivery[] {
    const done = new Set<string>();
    const found = new Map<string, JournalRecord>();
    for (const r of records) {
      if (r.k === 'x') done.add(r.id as string);
      else if (r.k === 'd') found.set(r.id as string, r);
      else if (r.k === 'a') dedupe.restore(r.key as string, r.res as Answer, r.exp as number);
    }
    const out: Delivery[] = [];
    for (const r of found.values()) {
      if (typeof r.key === 'string') dedupe.restore(r.key, { status: 200, body: { executionId: r.id } }, r.exp as number);
      if (done.has(r.id as string)) continue;
      pending.set(r.id as string, r);
      out.push({ id: r.id as string, workflowId: r.wf as string, input: r.in, at: r.at as number });
    }
    return out;
  }

  const live = (): JournalRecord[] => [...pending.values(), ...dedupe.live()];

  async function ensureOpen(): Promise<Delivery[]> {
    if (!options.dir) return [];
    opening ??= (async () => {
      const j = createJournal({ dir: options.dir!, live, onAdopted: (records) => options.onOrphans?.(fold(records)) });
      const replay = fold(await j.open());
      journal = j;
      await j.compact();
      return replay;
    })();
    return opening;
  }

  return {
    dedupe,
    open: ensureOpen,
    async accept(delivery, idempotency) {
      if (!options.dir) return;
      if (!journal) await ensureOpen();
      const record: JournalRecord = { k: 'd', id: delivery.id, wf: delivery.workflowId, in: delivery.input, at: delivery.at, ...(idempotency ?? {}) };
      pending.set(delivery.id, record);
      try {
        await journal!.append(record);
      } catch (err) {
        pending.delete(delivery.id);
        throw err;
      }
    },
    finish(id) {
      if (pending.delete(id)) journal?.note({ k: 'x', id });
    },
    async remember(key, answer, exp) {
      if (!options.dir) return;
      if (!journal) await ensureOpen();
      await journal!.append({ k: 'a', key, res: answer, exp });
    },
    async close() {
      await journal?.close();
      journal = null;
      opening = null;
    },
  };
}
