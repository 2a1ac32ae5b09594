import { normalizeBaseKey, type Storage } from 'unstorage';
import type { KeyValueStorage } from './types.js';

/**
 * Drivers whose `clear(base)` removes exactly the keys under `base`. unstorage's own `fs`, `fs-lite` and
 * `memory` drivers ignore the base and empty the whole mount, so they are never handed one.
 */
const CLEARS_A_BASE = new Set(['weir-fs', 'weir-memory', 'weir-redis']);
const hasMounts = (storage: KeyValueStorage): storage is KeyValueStorage & Storage => typeof (storage as Partial<Storage>).getMounts === 'function';

/** Keys removed at once by the list-and-remove path. */
const BATCH = 100;

/**
 * Removes every key under `base` (whole segments: `kv:data:ns1` does not touch `kv:data:ns10`), on every
 * mount of `storage` that holds some. unstorage's own `clear(base)` only reaches mounts whose mount point
 * lies inside the base, so on a storage with a single mount at the root every `clear` with a base did
 * nothing. A driver that clears a base correctly does it in one call (a folder removed, a Redis range
 * unlinked); any other mount has its keys listed and removed in batches.
 * @example
 * await clearPrefix(storage.cloud, 'kv:data:kv_abc') // the namespace's values are gone from disk or Redis
 */
export async function clearPrefix(storage: KeyValueStorage, base = ''): Promise<void> {
  // A store that is not unstorage's has no mounts: its own clear(base) is the contract.
  if (!hasMounts(storage)) return storage.clear(base);
  const prefix = normalizeBaseKey(base);
  let listed = false;
  for (const mount of storage.getMounts(prefix, { parents: true })) {
    const point = normalizeBaseKey(mount.base);
    // unstorage matches mount points by plain string prefix: keep only whole-segment parents and children.
    const inside = point.startsWith(prefix);
    if (!inside && !prefix.startsWith(point)) continue;
    const relative = inside ? '' : prefix.slice(point.length);
    if (mount.driver.clear && (relative === '' || CLEARS_A_BASE.has(mount.driver.name ?? ''))) {
      await mount.driver.clear(relative, {});
    } else listed = true;
  }
  if (!listed) return;
  // Listed through the storage so each key is routed to its mount; the mounts cleared above list nothing.
  const keys = await storage.getKeys(prefix);
  for (let i = 0; i < keys.length; i += BATCH) {
    await Promise.all(keys.slice(i, i + BATCH).map((key) => storage.removeItem(key)));
  }
}

/**
 * The same storage, with a `clear(base)` that removes what is under the base ({@link clearPrefix}); views
 * taken of it with unstorage's `prefixStorage` pass their full prefix to it, so they clear correctly too.
 * @example
 * const cloud = withPrefixClear(createStorage({ driver: fsDriver({ base: '/srv/weir/cloud' }) }))
 * await prefixStorage(cloud, 'kv:data').clear('kv_abc')
 */
export function withPrefixClear(storage: KeyValueStorage): KeyValueStorage {
  if (!hasMounts(storage)) return storage;
  return { ...storage, clear: (base?: string) => clearPrefix(storage, base) };
}
