import { WeirError } from '../../errors.js';
import { decodeKeyPart, encodeKeyPart } from '../../storage/keys.js';
import type { KeyValueStorage, Storages } from '../../storage/index.js';
import { newId } from '../../util/ids.js';
import { isObject } from '../../util/json.js';
import { findByRef, mapLimit, readRecords } from '../../util/refs.js';
import type { Kv, KvNamespace } from '../../types/kv.js';

export type { Kv, KvNamespace } from '../../types/kv.js';

/** A stored value: `k` keeps the original key (hashed storage keys cannot be decoded), `v` the text. */
interface Entry {
  k: string;
  v: string;
}

export interface KvOptions {
  storage: Storages;
  /** How long a resolved namespace is trusted before it is read again (another process may delete it). */
  cacheMs?: number;
}

const LIST = 'weir data kv list';

/**
 * KV namespaces holding string values (JSON text is kept exactly as given), in the `cloud` mount:
 * `kv:namespaces:<id>` and `kv:data:<id>:<encoded key>`. Namespaces are addressed by id or name.
 * @example
 * await weir.kv.init('sessions')
 * await weir.kv.setValue('sessions', 'user:1', '{"cart":[]}')
 * await weir.kv.getValue('sessions', 'user:1') // '{"cart":[]}'
 */
export function createKv({ storage, cacheMs = 1000 }: KvOptions): Kv {
  const namespaces: KeyValueStorage = storage.view('cloud', 'kv:namespaces');
  const data: KeyValueStorage = storage.view('cloud', 'kv:data');
  // The per-operation path stays at one storage call: a resolved namespace is reused for `cacheMs`.
  const resolved = new Map<string, { ns: KvNamespace; at: number }>();

  const all = async () => (await readRecords<KvNamespace>(namespaces)).sort((a, b) => a.name.localeCompare(b.name));

  async function resolve(ref: string): Promise<KvNamespace> {
    const hit = resolved.get(ref);
    if (hit && Date.now() - hit.at < cacheMs) return hit.ns;
    const byId = /^kv_\w+$/.test(ref) ? await namespaces.getItem<KvNamespace>(ref) : null;
    const ns = byId && isObject(byId) ? byId : findByRef(await all(), ref, 'KV namespace', LIST);
    resolved.set(ref, { ns, at: Date.now() });
    return ns;
  }

  const checkKey = (key: string) => {
    if (typeof key !== 'string' || key === '') throw new WeirError('INVALID_INPUT', 'a KV key must be a non-empty string');
    return encodeKeyPart(key);
  };
  const itemKey = (ns: KvNamespace, key: string) => `${ns.id}:${checkKey(key)}`;

  async function keysOf(ns: KvNamespace): Promise<string[]> {
    const stored = (await data.getKeys(`${ns.id}:`)).map((k) => k.slice(ns.id.length + 1));
    const keys = await mapLimit(stored, 32, async (k) => decodeKeyPart(k) ?? (await data.getItem<Entry>(`${ns.id}:${k}`))?.k);
    return keys.filter((k): k is string => typeof k === 'string').sort();
  }

  const api = {
    /** Every namespace, by name. */
    list: all,

    /** Creates a namespace; names are unique. */
    async init(name: string, description?: string): Promise<KvNamespace> {
      if (typeof name !== 'string' || !name.trim()) throw new WeirError('INVALID_INPUT', 'a KV namespace name must not be empty');
      if (name.length > 128) throw new WeirError('INVALID_INPUT', 'a KV namespace name is at most 128 characters');
      if ((await all()).some((n) => n.name === name)) throw new WeirError('EXISTS', `a KV namespace named "${name}" already exists`);
      const ns: KvNamespace = { id: newId('kv'), name, ...(description ? { description } : {}), createdAt: new Date().toISOString() };
      await namespaces.setItem(ns.id, ns);
      return ns;
    },

    /** One namespace with its key count. */
    async get(ref: string): Promise<KvNamespace & { keys: number }> {
      const ns = await resolve(ref);
      return { ...ns, keys: (await data.getKeys(`${ns.id}:`)).length };
    },

    /** Deletes a namespace and every key in it. */
    async delete(ref: string): Promise<KvNamespace> {
      const ns = await resolve(ref);
      // Values first: a delete cut short leaves the namespace listed, so running it again finishes the job.
      await data.clear(ns.id);
      await namespaces.removeItem(ns.id);
      for (const [k, v] of resolved) if (v.ns.id === ns.id) resolved.delete(k);
      return ns;
    },

    /** The keys of a namespace, sorted. */
    async keys(ref: string): Promise<string[]> {
      return keysOf(await resolve(ref));
    },

    /** A value, or `null` when the key is absent. */
    async getValue(ref: string, key: string): Promise<string | null> {
      const entry = await data.getItem<Entry>(itemKey(await resolve(ref), key));
      return entry && typeof entry.v === 'string' ? entry.v : null;
    },

    /** Writes a value (a string; JSON text is kept as given). */
    async setValue(ref: string, key: string, value: string): Promise<void> {
      if (typeof value !== 'string') throw new WeirError('INVALID_INPUT', `KV values are strings; got ${typeof value}`, { hints: ['pass JSON text for structured values'] });
      const entry: Entry = { k: key, v: value };
      await data.setItem(itemKey(await resolve(ref), key), entry);
    },

    /** Removes a key; false when it was absent. */
    async deleteKey(ref: string, key: string): Promise<boolean> {
      const item = itemKey(await resolve(ref), key);
      if (!(await data.hasItem(item))) return false;
      await data.removeItem(item);
      return true;
    },

    /** Every key and value as one object (the `kv export` document). */
    async export(ref: string): Promise<Record<string, string>> {
      const ns = await resolve(ref);
      const stored = await data.getKeys(`${ns.id}:`);
      const entries = await mapLimit(stored, 32, (k) => data.getItem<Entry>(k));
      const out: Record<string, string> = {};
      for (const e of entries.filter((x): x is Entry => isObject(x) && typeof x.k === 'string').sort((a, b) => (a.k < b.k ? -1 : 1))) out[e.k] = e.v;
      return out;
    },

    /**
     * Writes every key of an object (the `kv export` document). Non-string values are stored as their JSON
     * text, so a hand-written file may hold numbers or objects.
     */
    async import(ref: string, obj: unknown): Promise<{ namespace: string; imported: number }> {
      if (!isObject(obj)) throw new WeirError('INVALID_INPUT', 'a KV import must be a JSON object of key -> value');
      const ns = await resolve(ref);
      const entries = Object.entries(obj);
      for (const [k] of entries) checkKey(k);
      await mapLimit(entries, 32, ([k, v]) => data.setItem(itemKey(ns, k), { k, v: typeof v === 'string' ? v : JSON.stringify(v) } satisfies Entry));
      return { namespace: ns.name, imported: entries.length };
    },
  };
  return api;
}
