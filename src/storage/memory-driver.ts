import { defineDriver } from 'unstorage';

/** One segment level of the key index: the keys whose last segment lies here, and the folders below. */
interface Folder {
  keys: Set<string>;
  folders: Map<string, Folder>;
}

const newFolder = (): Folder => ({ keys: new Set(), folders: new Map() });

/** `a:b:` -> ['a', 'b']: the whole segments of a base (a trailing `:` or none). */
const segmentsOf = (base: string): string[] => (base ? base.replace(/:$/, '').split(':') : []);

/** Every key in a folder and the folders below it. */
function collect(folder: Folder, out: string[]): string[] {
  for (const key of folder.keys) out.push(key);
  for (const child of folder.folders.values()) collect(child, out);
  return out;
}

/**
 * The in-memory driver (`createWeir()` without a home): values in a map, plus an index of the keys by
 * `:`-separated segment, like the folders of the fs driver. Listing or clearing a base reads only the keys
 * under it, where unstorage's `memory` driver lists every key of the mount on every listing: execution
 * records pile up there, and the secrets are listed on every run, so each run got slower than the last.
 * `clear(base)` removes the keys under the whole segments of `base` (`kv:ns1` leaves `kv:ns10` alone).
 * @example
 * const storage = createStorage({ driver: memoryDriver() })
 * await storage.getKeys('secrets') // reads the `secrets` folder of the index, not every key
 */
export const memoryDriver = defineDriver<void>(() => {
  const data = new Map<string, unknown>();
  const root = newFolder();
  // The folders holding keys, by the part of their keys before the last `:`: a write or a removal finds its
  // folder with one lookup instead of splitting the key and walking down from the root (each run writes its
  // record, and retention removes as many). Only folders holding a key are here, which are never detached.
  const byDir = new Map<string, Folder>();
  const dirOf = (key: string): string => key.slice(0, Math.max(0, key.lastIndexOf(':')));

  /** The folders from the root down to the one for `segments` (shorter when a folder is missing, unless `make`). */
  const pathTo = (segments: string[], make: boolean): Folder[] => {
    const path = [root];
    for (const segment of segments) {
      let next = path[path.length - 1].folders.get(segment);
      if (!next) {
        if (!make) break;
        path[path.length - 1].folders.set(segment, (next = newFolder()));
      }
      path.push(next);
    }
    return path;
  };

  /** Drops the empty folders at the end of a path, so removed keys leave no trace in the index. */
  const prune = (path: Folder[], segments: string[]): void => {
    for (let i = path.length - 1; i > 0; i--) {
      const folder = path[i];
      if (folder.keys.size || folder.folders.size) return;
      path[i - 1].folders.delete(segments[i - 1]);
    }
  };

  const set = (key: string, value: unknown): void => {
    if (!data.has(key)) {
      const dir = dirOf(key);
      let folder = byDir.get(dir);
      if (!folder) byDir.set(dir, (folder = pathTo(key.split(':').slice(0, -1), true).at(-1)!));
      folder.keys.add(key);
    }
    data.set(key, value);
  };

  return {
    name: 'weir-memory',
    hasItem: (key) => data.has(key),
    getItem: (key) => data.get(key) ?? null,
    getItemRaw: (key) => data.get(key) ?? null,
    setItem: set,
    setItemRaw: set,
    setItemIfAbsent: (key: string, value: string): boolean => !data.has(key) && (set(key, value), true),
    removeItem(key) {
      if (!data.delete(key)) return;
      const dir = dirOf(key);
      const folder = byDir.get(dir)!;
      folder.keys.delete(key);
      if (folder.keys.size) return;
      byDir.delete(dir);
      const segments = key.split(':').slice(0, -1);
      prune(pathTo(segments, false), segments);
    },
    getKeys(base = '') {
      // unstorage passes whole segments (`a:b:`); a partial last segment (`a:b`) is filtered here.
      const whole = base.slice(0, base.lastIndexOf(':') + 1);
      const segments = segmentsOf(whole);
      const path = pathTo(segments, false);
      if (path.length <= segments.length) return [];
      const keys = collect(path.at(-1)!, []);
      return whole === base ? keys : keys.filter((key) => key.startsWith(base));
    },
    clear(base = '') {
      const segments = segmentsOf(base);
      const under = segments.join(':');
      for (const dir of byDir.keys()) if (!under || dir === under || dir.startsWith(`${under}:`)) byDir.delete(dir);
      const path = pathTo(segments, false);
      if (path.length <= segments.length) return;
      for (const key of collect(path.at(-1)!, [])) data.delete(key);
      if (!segments.length) {
        root.keys.clear();
        root.folders.clear();
        return;
      }
      path[path.length - 2].folders.delete(segments.at(-1)!);
      prune(path.slice(0, -1), segments);
    },
    dispose() {
      byDir.clear();
      data.clear();
      root.keys.clear();
      root.folders.clear();
    },
  };
});
