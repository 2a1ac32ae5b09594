import { CarriesJson, reviveWebhookInput } from '../../util/json-text.js';
import { createDedupe, type Dedupe } from './dedupe.js';
import { createJournal, type Journal, type JournalRecord, type Position } from './journal.js';

/** Starts a delivery record counts: none written means the first run only. */
const startsOf = (r: JournalRecord): number => (typeof r.s === 'number' ? r.s : 1);

/** A webhook delivery accepted with `respondImmediately: true`: run later (or again after a crash) under `id`. */
export interface Delivery {
  /** The execution id given to the caller. */
  id: string;
  workflowId: string;
  /** The input, or nothing when it waits on disk only (read back with `deliveries.load`). */
  input?: unknown;
  /** Where its journal record lies (durable deliveries only). */
  pos?: Position;
  /** Accepted at (ms since the epoch). */
  at: number;
  /** Found unfinished in the journal at start: it may have run before a crash. */
  replayed?: boolean;
  /**
   * Of a replayed delivery: how many times its execution was started. The first run writes nothing (it
   * counts as one once replayed); each replay counts itself on disk before it runs ({@link Deliveries.restart}).
   */
  starts?: number;
}

/** Options of {@link createDeliveries}. */
export interface DeliveriesOptions<A> {
  /** The answer a delivery accepted with an idempotency key gave, made again at replay for its duplicates. */
  acceptedAnswer(executionId: string, statusUrl: string): A;
  /** Journal directory; without one (a memory-only weir) nothing survives a restart. */
  dir?: string;
  /** Deliveries of a host that died while this one runs, found by the journal's periodic scan. */
  onOrphans?(deliveries: Delivery[]): void;
  now?: () => number;
}

/** What {@link createDeliveries} returns. */
/** `A`: the answer a duplicate delivery gets (see {@link Dedupe}). */
export interface Deliveries<A> {
  /** The idempotency index (answers restored from the journal at open). */
  dedupe: Dedupe<A>;
  /** True when deliveries survive a restart (the weir has a home). */
  durable: boolean;
  /** Opens the journal and returns the deliveries that were accepted but never finished. */
  open(): Promise<Delivery[]>;
  /**
   * Records a delivery; resolves once it is on disk (then, and only then, may the caller be told it was accepted). An
   * input that carries its JSON text ({@link CarriesJson}) is written from that text.
   */
  accept(delivery: Delivery, idempotency?: { key: string; exp: number; statusUrl: string }): Promise<void>;
  /** The delivery with its input, read back from the journal when only its position was held in memory. */
  load(delivery: Delivery): Promise<Delivery>;
  /**
   * Counts one more start of a replayed delivery, on disk, before it runs again: a copy of its record with
   * the count, which takes over the pin (the old record's segment may go). Resolves with the delivery at its
   * new position, once the copy is on disk, so a run that kills the process still counted.
   */
  restart(delivery: Delivery): Promise<Delivery>;
  /** Marks a delivery's execution as finished: its journal segment may go. */
  finish(delivery: Delivery): void;
  /** Records the answer of a waited-for delivery for its idempotency key; resolves once on disk. */
  remember(key: string, answer: A, exp: number): Promise<void>;
  /** Flushes and closes the journal; unfinished deliveries stay in it for the next start. */
  close(): Promise<void>;
}

/**
 * Durable delivery over the journal: `{k:'d'}` records for accepted deliveries (with their idempotency key
 * and the status URL answered),
 * `{k:'x'}` when their execution ends, `{k:'a'}` for remembered answers. A delivery pins its segment until
 * it finishes; answers inside their dedupe window are carried into each new segment. A replayed delivery is
 * written again with its start count `s` before each new start; the copy with the highest count wins.
 * @example
 * const deliveries = createDeliveries({ dir: join(home, 'journal') })
 * for (const d of await deliveries.open()) start(d)
 * await deliveries.accept({ id, workflowId, input, at: Date.now() })
 */
export function createDeliveries<A>(options: DeliveriesOptions<A>): Deliveries<A> {
  const now = options.now ?? Date.now;
  const dedupe = createDedupe<A>({ now });
  let journal: Journal | null = null;
  let opening: Promise<Delivery[]> | null = null;
  let opened = false;

  /**
   * Folds records by id, order-free: a delivery is unfinished unless a done mark for it exists anywhere; of
   * its copies, the one counting the most starts is kept.
   */
  function fold(entries: Array<{ record: JournalRecord; pos: Position }>): Delivery[] {
    const done = new Set<string>();
    const found = new Map<string, { record: JournalRecord; pos: Position }>();
    for (const e of entries) {
      const r = e.record;
      if (r.k === 'x') done.add(r.id as string);
      else if (r.k === 'd') {
        const seen = found.get(r.id as string);
        if (!seen || startsOf(r) >= startsOf(seen.record)) found.set(r.id as string, e);
      } else if (r.k === 'a') dedupe.restore(r.key as string, r.res as A, r.exp as number);
    }
    const out: Delivery[] = [];
    for (const { record: r, pos } of found.values()) {
      if (typeof r.key === 'string') dedupe.restore(r.key, options.acceptedAnswer(r.id as string, r.st as string), r.exp as number);
      if (done.has(r.id as string)) continue;
      journal!.pin(pos.segment);
      out.push({ id: r.id as string, workflowId: r.wf as string, at: r.at as number, pos, replayed: true, starts: startsOf(r), input: reviveWebhookInput(r.in) });
    }
    return out;
  }

  function ensureOpen(): Promise<Delivery[]> {
    if (!options.dir) return Promise.resolve([]);
    opening ??= (async () => {
      journal = createJournal({ dir: options.dir!, live: () => dedupe.live(), onAdopted: (records) => options.onOrphans?.(fold(records)) });
      const replay = fold(await journal.open());
      await journal.rotate();
      opened = true;
      return replay;
    })();
    return opening;
  }

  return {
    dedupe,
    durable: !!options.dir,
    open: ensureOpen,
    async accept(delivery, idempotency) {
      if (!options.dir) return;
      if (!opened) await ensureOpen();
      // A keyed delivery keeps its answer's status URL: a duplicate after a restart gets the same answer.
      const key = idempotency ? `,"key":${JSON.stringify(idempotency.key)},"exp":${idempotency.exp},"st":${JSON.stringify(idempotency.statusUrl)}` : '';
      const input = CarriesJson.textOf(delivery.input) ?? JSON.stringify(delivery.input ?? null);
      const line = `{"k":"d","id":${JSON.stringify(delivery.id)},"wf":${JSON.stringify(delivery.workflowId)},"at":${delivery.at}${key},"in":${input}}`;
      delivery.pos = await journal!.append(line, { pin: true });
    },
    async load(delivery) {
      if (delivery.id && (delivery.input !== undefined || !delivery.pos)) return delivery;
      if (!journal || !delivery.pos) throw new Error('a spilled delivery needs its journal');
      const r = await journal.read(delivery.pos);
      return { ...delivery, id: r.id as string, workflowId: r.wf as string, input: reviveWebhookInput(r.in), at: r.at as number, ...(delivery.replayed ? { starts: startsOf(r) } : {}) };
    },
    async restart(delivery) {
      if (!journal || !delivery.pos) throw new Error('a replayed delivery needs its journal');
      const record = await journal.read(delivery.pos);
      const starts = startsOf(record) + 1;
      const pos = await journal.append({ ...record, s: starts }, { pin: true });
      journal.unpin(delivery.pos.segment);
      return { ...delivery, pos, starts };
    },
    finish(delivery) {
      if (!delivery.pos || !journal) return;
      journal.note({ k: 'x', id: delivery.id });
      journal.unpin(delivery.pos.segment);
    },
    async remember(key, answer, exp) {
      if (!options.dir) return;
      await ensureOpen();
      await journal!.append({ k: 'a', key, res: answer, exp });
    },
    async close() {
      await journal?.close();
      journal = null;
      opening = null;
      opened = false;
    },
  };
}
