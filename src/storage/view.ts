import { WeirError } from '../errors.js';
import { setItemIfAbsent } from './create-once.js';
import type { KeyValueStorage } from './types.js';

/** `a/b:` -> `a:b`: the key layout of unstorage, so a view's keys match what its driver stores. */
const normalize = (key: string): string => key.replace(/[/\\]/g, ':').replace(/:+/g, ':').replace(/^:|:$/g, '');
/**
 * Whether a key normalizes to nothing (only `/`, `\\` and `:`): what {@link prefixView} refuses. It stops at the
 * first other character, the first of most keys, where normalizing each key read or written cost three
 * replaces (a run's record write among them).
 */
function namesNothing(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c !== 0x2f && c !== 0x5c && c !== 0x3a) return false;
  }
  return true;
}

/**
 * A view of a store under a prefix: keys are read and written under `<prefix>:`, and listed without it.
 * Written against {@link KeyValueStorage} alone, so a host's own store works as well as an unstorage one.
 * @example
 * const kv = prefixView(cloud, 'kv:data')
 * await kv.setItem('ns:a', 1) // stored in `cloud` as `kv:data:ns:a`
 */
export function prefixView(storage: KeyValueStorage, prefix: string): KeyValueStorage {
  const base = normalize(prefix) && `${normalize(prefix)}:`;
  if (!base) return storage;
  // An empty key would name the prefix itself: refused, as unstorage's own prefixed views do.
  const at = (key: string) => {
    if (namesNothing(key)) throw new WeirError('INVALID_INPUT', `invalid storage key ${JSON.stringify(key)}`);
    return base + key;
  };
  return {
    hasItem: async (key) => storage.hasItem(at(key)),
    getItem: async (key) => storage.getItem(at(key)),
    async getItems(keys) {
      const items = await storage.getItems(keys.map(at));
      return items.map(({ key, value }) => ({ key: key.slice(base.length), value }));
    },
    setItem: async (key, value, options) => storage.setItem(at(key), value, options),
    getItemRaw: async (key) => storage.getItemRaw(at(key)),
    setItemRaw: async (key, value) => storage.setItemRaw(at(key), value),
    setItemIfAbsent: async (key, value) => setItemIfAbsent(storage, at(key), value),
    removeItem: async (key) => storage.removeItem(at(key)),
    getKeys: async (sub = '') => (await storage.getKeys(base + sub)).map((key) => key.slice(base.length)),
    clear: (sub = '') => storage.clear(base + sub),
    dispose: () => storage.dispose(),
  };
}
