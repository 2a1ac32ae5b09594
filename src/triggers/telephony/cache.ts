import type { Storages } from '../../storage/index.js';
import { cloudProbe, createFreshness } from '../../runtime/changes.js';

/**
 * Memoizes `load` while the given prefixes of the cloud mount are unchanged (a cheap storage probe; a
 * driver that cannot tell is read through every time), so a webhook reads its flows and secrets once, yet
 * sees a `publish` or `secrets set` by another process on the very next request.
 * @example
 * const flows = storageCached(weir.storage, ['workflows'], () => weir.workflows.listPublished())
 * await flows()
 */
export function storageCached<T>(storage: Storages, prefixes: string[], load: () => Promise<T>): () => Promise<T> {
  const fresh = createFreshness(cloudProbe(storage, prefixes));
  let cached: { generation: number; value: Promise<T> } | null = null;
  return () => {
    const generation = fresh.check();
    if (generation === null) return load();
    if (cached?.generation !== generation) {
      const value = load();
      cached = { generation, value };
      value.catch(() => (cached = null));
    }
    return cached.value;
  };
}
