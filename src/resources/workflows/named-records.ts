import type { KeyValueStorage } from '../../storage/index.js';
import { sha256 } from '../../util/ids.js';

/** Workflow records (the drafts, or the published copies) found by id or by their unique name. */
export interface NamedRecords<T extends { id: string; name: string }> {
  /** The record whose id or name is `ref`, or null. */
  find(ref: string): Promise<T | null>;
  all(): Promise<T[]>;
  /** Points `name` at `id` (before the record is written: a reader that follows it to nothing finds nothing). */
  index(name: string, id: string): Promise<void>;
  unindex(name: string): Promise<void>;
}

/**
 * Records by id in `records`, with a name -> id index in `names`: one key per name (hashed: names are free
 * text), so lookups by name and the uniqueness check stay O(1) however many workflows there are, and
 * concurrent writers never share a key. A name whose record was renamed since is not that record's.
 * @example
 * const drafts = namedRecords<LocalWorkflow>(storage.view('local', 'workflows'), storage.view('local', 'workflow-names'))
 * await drafts.find('orders') // by name, or by id
 */
export function namedRecords<T extends { id: string; name: string }>(records: KeyValueStorage, names: KeyValueStorage): NamedRecords<T> {
  const nameKey = (name: string) => sha256(name).slice(0, 40);
  return {
    async find(ref) {
      if (!ref) return null;
      const byId = /^[\w-]+$/.test(ref) ? await records.getItem<T>(ref) : null;
      if (byId) return byId;
      const id = (await names.getItem<{ id: string }>(nameKey(ref)))?.id;
      const byName = id ? await records.getItem<T>(id) : null;
      return byName?.name === ref ? byName : null;
    },
    async all() {
      const items = await records.getItems(await records.getKeys());
      return items.map((i) => i.value).filter((v) => v !== null && typeof v === 'object') as T[];
    },
    index: (name, id) => names.setItem(nameKey(name), { id }),
    unindex: (name) => names.removeItem(nameKey(name)),
  };
}
