import type { JournalRecord } from './journal.js';

/** The default dedupe window of idempotency keys: 24 hours; a repeat gets the first answer and starts nothing. */
export const DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000;

interface Entry<A> {
  exp: number;
  answer?: A;
  waiting?: Promise<A>;
}

/** What {@link createDedupe} returns. */
/** `A`: the answer a duplicate gets (an HTTP trigger's remembered answer). */
export interface Dedupe<A> {
  /** The answer (or the answer still being made) of a key seen within its window, else null. */
  seen(key: string): Promise<A> | null;
  /**
   * Claims a key for a first delivery. `settle` records the answer to give duplicates; `forget` drops the
   * claim when the delivery was never accepted (so a retry is treated as new).
   */
  claim(key: string, windowMs: number): { settle(answer: A): void; forget(): void };
  /** Restores a remembered answer (journal replay). */
  restore(key: string, answer: A, exp: number): void;
  /** The answers still inside their window, as journal records (carried over at compaction). */
  live(): JournalRecord[];
}

/**
 * The in-memory index of idempotency keys; durability comes from the journal, which holds every answer
 * (`{k:'a'}` records, or the key on a delivery record) and gets `live()` back at each compaction.
 * @example
 * const hit = dedupe.seen(key); if (hit) return await hit
 * const claim = dedupe.claim(key, 86_400_000); ...; claim.settle({ status: 200, body })
 */
export function createDedupe<A>(options: { now?: () => number; maxEntries?: number } = {}): Dedupe<A> {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 1_000_000;
  const entries = new Map<string, Entry<A>>();

  const sweep = () => {
    const t = now();
    for (const [key, e] of entries) if (e.exp <= t && !e.waiting) entries.delete(key);
  };

  return {
    seen(key) {
      const e = entries.get(key);
      if (!e) return null;
      if (e.answer && e.exp <= now()) {
        entries.delete(key);
        return null;
      }
      return e.answer ? Promise.resolve(e.answer) : e.waiting!;
    },
    claim(key, windowMs) {
      if (entries.size >= maxEntries) sweep();
      let resolve!: (a: A) => void;
      let reject!: (err: unknown) => void;
      const waiting = new Promise<A>((res, rej) => ((resolve = res), (reject = rej)));
      // A duplicate that waits on a claim that is then forgotten gets the first caller's failure.
      waiting.catch(() => {});
      const entry: Entry<A> = { exp: now() + windowMs, waiting };
      entries.set(key, entry);
      return {
        settle(answer) {
          entry.answer = answer;
          entry.waiting = undefined;
          resolve(answer);
        },
        forget() {
          if (entries.get(key) === entry) entries.delete(key);
          reject(new Error('the first delivery with this idempotency key was not accepted'));
        },
      };
    },
    restore(key, answer, exp) {
      if (exp > now()) entries.set(key, { exp, answer });
    },
    live() {
      sweep();
      const out: JournalRecord[] = [];
      for (const [key, e] of entries) if (e.answer) out.push({ k: 'a', key, res: e.answer, exp: e.exp });
      return out;
    },
  };
}

/** The dedupe key of a delivery: the flow and the idempotency header's value. */
export const dedupeKey = (workflowId: string, value: string): string => `${workflowId}\u0000${value}`;
