import { performance } from 'node:perf_hooks';
import type { KeyValueStorage } from '../../storage/index.js';

/**
 * Items that are replaced again and again (an unfinished execution's checkpoints): written, read, listed
 * and removed by key, whatever way the store keeps them.
 */
export interface ReplacedItems {
  /**
   * Stores `json` as the key's value, or removes the key (null). `handedOver`: another process may write the
   * item next (a waiting execution, continued by whichever host wakes it).
   */
  write(key: string, json: string | null, handedOver?: boolean): Promise<void>;
  /** The key's value (parsed), or null. */
  read(key: string): Promise<unknown>;
  /** The items under `prefix`: each one's key, and the stored keys that hold it. */
  list(prefix: string): Promise<ListedItem[]>;
  /** The values of listed items, in order (null for one that is gone). */
  readMany(items: ListedItem[]): Promise<unknown[]>;
}

/** An item as listed: what it is called and where it was stored when listed. */
export interface ListedItem {
  key: string;
  stored: string[];
}

/** One item per key, replaced whole by the store (Redis, PostgreSQL, memory: their writes are atomic). */
export function wholeItems(store: KeyValueStorage): ReplacedItems {
  return {
    write: (key, json) => (json === null ? store.removeItem(key) : store.setItem(key, json)),
    read: (key) => store.getItem(key),
    list: async (prefix) => (await store.getKeys(prefix)).map((key) => ({ key, stored: [key] })),
    readMany: async (items) => (await store.getItems(items.map((item) => item.key))).map((item) => item.value),
  };
}

/** The key of an item's second slot: `@` is escaped in the keys of executions, so no key of its own ends so. */
const SECOND = '@2';
/** Items whose slot this process remembers; past that it forgets them all (their next write starts over). */
const MAX_REMEMBERED = 10_000;
/** Reads of an item whose slots were both torn (being written by another process) before giving up. */
const READS = 3;

/** Microseconds since the epoch: a sequence that grows across processes, as no item is written twice in a microsecond. */
const micros = () => Math.floor((performance.timeOrigin + performance.now()) * 1000);

interface Slot {
  value: unknown;
  seq: number;
}

/** A slot as read: its value and sequence number, or null when it is absent or torn. */
function slotOf(stored: unknown): Slot | null {
  if (stored === null || typeof stored !== 'object') return null;
  const { value, seq } = stored as { value?: unknown; seq?: unknown };
  if (typeof seq === 'number') return value === undefined ? null : { value, seq };
  // Written whole, with a rename, by a version of weir without slots.
  return { value: stored, seq: 0 };
}

const newer = (a: Slot | null, b: Slot | null): Slot | null => (!a ? b : !b || a.seq > b.seq ? a : b);

/**
 * One item per key in two slots (`<key>` and `<key>@2`), overwritten in place by turns: for weir's fs
 * driver, where replacing a file (a new file renamed over the old one) costs 10 to 20 times writing it in
 * place. Each write goes to the slot that does not hold the newest value, as `{"value":...,"seq":n}`, the
 * sequence number last: pages are written in order, so a write cut short by a kill -9 (or read while under
 * way) ends with the slot's old sequence number, lower than the other slot's, or is not JSON at all.
 * Either way the other slot, whole and newer, wins. A process's first write of an item replaces the first
 * slot whole and then removes the second (which another process may have left newer), and so does its
 * first write after handing the item over; a removal takes the older slot first, so a crash in between
 * leaves the newest value.
 * @example
 * const items = slottedItems(store)
 * await items.write('open:exec_1', json) // then in place, by turns
 * const value = await items.read('open:exec_1')
 */
export function slottedItems(store: KeyValueStorage): ReplacedItems {
  const written = new Map<string, { second: boolean; seq: number }>();
  const slotKey = (key: string, second: boolean) => (second ? key + SECOND : key);

  /**
   * The newest whole value of each item, read from the slots it was listed in; one whose slots are there but
   * all torn (being written by another process) is read again, both slots.
   */
  async function newest(items: ListedItem[], reads = READS): Promise<unknown[]> {
    const stored = await store.getItems(items.flatMap((item) => item.stored));
    const out: unknown[] = [];
    for (let n = 0, at = 0; n < items.length; n++) {
      let slot: Slot | null = null;
      let torn = false;
      for (const end = at + items[n].stored.length; at < end; at++) {
        const one = slotOf(stored[at].value);
        slot = newer(slot, one);
        torn ||= !one && stored[at].value !== null;
      }
      out.push(slot || !torn || reads <= 1 ? (slot?.value ?? null) : (await newest([bothSlots(items[n].key)], reads - 1))[0]);
    }
    return out;
  }
  const bothSlots = (key: string): ListedItem => ({ key, stored: [key, key + SECOND] });

  /** The key's slots, oldest first. */
  async function byAge(key: string): Promise<string[]> {
    const [first, second] = (await store.getItems([key, key + SECOND])).map((item) => slotOf(item.value));
    return second && newer(first, second) === second ? [key, key + SECOND] : [key + SECOND, key];
  }

  return {
    async write(key, json, handedOver = false) {
      const last = written.get(key);
      if (json === null) {
        written.delete(key);
        const order = last ? [slotKey(key, !last.second), slotKey(key, last.second)] : await byAge(key);
        for (const slot of order) await store.removeItem(slot);
        return;
      }
      const seq = Math.max((last?.seq ?? 0) + 1, micros());
      const framed = `{"value":${json},"seq":${seq}}`;
      if (!last) {
        if (written.size >= MAX_REMEMBERED) written.clear();
        await store.setItem(key, framed);
        await store.removeItem(key + SECOND);
      } else await store.setItem(slotKey(key, !last.second), framed, { inPlace: true });
      // What another process writes meanwhile is not known here: the next write of this one starts over.
      if (handedOver) written.delete(key);
      else written.set(key, { second: last ? !last.second : false, seq });
    },
    read: async (key) => (await newest([bothSlots(key)]))[0],
    async list(prefix) {
      const items = new Map<string, ListedItem>();
      for (const stored of await store.getKeys(prefix)) {
        const key = stored.endsWith(SECOND) ? stored.slice(0, -SECOND.length) : stored;
        const item = items.get(key);
        if (item) item.stored.push(stored);
        else items.set(key, { key, stored: [stored] });
      }
      return [...items.values()];
    },
    readMany: (items) => newest(items),
  };
}
