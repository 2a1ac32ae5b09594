import { normalizeKey, type Storage } from 'unstorage';
import type { KeyValueStorage } from './types.js';

/** A driver of weir's own (fs, redis, memory) that writes a key only where it is absent, atomically. */
interface CreatingDriver {
  setItemIfAbsent(key: string, value: string): Promise<boolean> | boolean;
}

const hasMounts = (storage: KeyValueStorage): storage is KeyValueStorage & Storage => typeof (storage as Partial<Storage>).getMount === 'function';
// Keys being created through the fallback, per store: this process's own callers never both win.
const pending = new WeakMap<object, Set<string>>();

/**
 * Writes `value` under `key` only when the key is absent, and says whether it did: true for exactly one of
 * any number of writers. The store's own `setItemIfAbsent` answers when it has one; on an unstorage storage,
 * the mount's driver does (weir's fs driver links the file in, Redis runs SET NX, memory checks its map),
 * atomic across every process sharing the store. A store without either is checked and written in two
 * steps, exclusive only among this process's callers.
 * @example
 * if (await setItemIfAbsent(cloud, 'workflow-versions:wf_1:4', '{}')) publishAs(4)
 */
export async function setItemIfAbsent(storage: KeyValueStorage, key: string, value: string): Promise<boolean> {
  if (storage.setItemIfAbsent) return storage.setItemIfAbsent(key, value);
  // The driver behind the key stands for the store: several storages opened on one driver share its keys.
  let store: object = storage;
  if (hasMounts(storage)) {
    const full = normalizeKey(key);
    const { base, driver } = storage.getMount(full);
    const creating = driver as Partial<CreatingDriver>;
    if (creating.setItemIfAbsent) return creating.setItemIfAbsent(full.slice(base.length), value);
    store = driver;
  }
  let keys = pending.get(store);
  if (!keys) pending.set(store, (keys = new Set()));
  if (keys.has(key)) return false;
  keys.add(key);
  try {
    if (await storage.hasItem(key)) return false;
    await storage.setItem(key, value);
    return true;
  } finally {
    keys.delete(key);
  }
}
