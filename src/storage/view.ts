import type { KeyValueStorage } from './types.js';

/** `a/b:` -> `a:b:`: the key layout of unstorage, so a view's keys match what its driver stores. */
const normalizeBase = (base: string): string => {
  const key = base.replace(/[/\\]/g, ':').replace(/:+/g, ':').replace(/^:|:$/g, '');
  return key ? `${key}:` : '';
};

/**
 * A view of a store under a prefix: keys are read and written under `<prefix>:`, and listed without it.
 * Written against {@link KeyValueStorage} alone, so a host's own store works as well as an unstorage one.
 * @example
 * const kv = prefixView(cloud, 'kv:data')
 * await kv.setItem('ns:a', 1) // stored in `cloud` as `kv:data:ns:a`
 */
export function prefixView(storage: KeyValueStorage, prefix: string): KeyValueStorage {
  const base = normalizeBase(prefix);
  if (!base) return storage;
  const at = (key: string) => base + key;
  return {
    hasItem: (key) => storage.hasItem(at(key)),
    getItem: (key) => storage.getItem(at(key)),
    async getItems(keys) {
      const items = await storage.getItems(keys.map(at));
      return items.map(({ key, value }) => ({ key: key.slice(base.length), value }));
    },
    setItem: (key, value) => storage.setItem(at(key), value),
    getItemRaw: (key) => storage.getItemRaw(at(key)),
    setItemRaw: (key, value) => storage.setItemRaw(at(key), value),
    removeItem: (key) => storage.removeItem(at(key)),
    getKeys: async (sub = '') => (await storage.getKeys(base + sub)).map((key) => key.slice(base.length)),
    clear: (sub = '') => storage.clear(base + sub),
    dispose: () => storage.dispose(),
  };
}
