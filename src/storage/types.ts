/**
 * The key-value store weir keeps its state in: the methods weir calls, written out here so weir's public
 * types do not pull in a storage library's declarations. An unstorage instance (`createStorage()`) fits it,
 * and so does any object with these methods. Keys are `:`-separated (`workflows:wf_1`).
 * @example
 * import { createStorage } from 'unstorage'
 * const local: KeyValueStorage = createStorage()
 * await local.setItem('greeting', { text: 'hi' })
 */
export interface KeyValueStorage {
  hasItem(key: string): Promise<boolean>;
  /** The stored value, or null when the key is absent. */
  getItem<T = unknown>(key: string): Promise<T | null>;
  /** Several values at once, in the order of `keys`. */
  getItems(keys: string[]): Promise<Array<{ key: string; value: unknown }>>;
  /**
   * `ttl`: seconds until the item expires, on drivers that support it (Redis). `inPlace`: a driver that can
   * overwrite a value where it is, cheaper than replacing it but torn if the writer dies mid-write (weir's
   * fs driver), does so; others replace it as usual.
   */
  setItem(key: string, value: unknown, options?: { ttl?: number; inPlace?: boolean }): Promise<void>;
  /** Bytes stored as they are (object bodies kept in the store rather than in files). */
  getItemRaw<T = unknown>(key: string): Promise<T | null>;
  setItemRaw(key: string, value: unknown): Promise<void>;
  /**
   * Optional: writes `value` only where `key` is absent, atomically across every process sharing the store,
   * and says whether it did (weir's fs, redis and memory drivers have it; see `setItemIfAbsent` in
   * src/storage/create-once.ts for stores without it).
   */
  setItemIfAbsent?(key: string, value: string): Promise<boolean>;
  removeItem(key: string): Promise<void>;
  /** Every key under `base` (all keys without it). */
  getKeys(base?: string): Promise<string[]>;
  /** Removes every key under `base`. */
  clear(base?: string): Promise<void>;
  /** Closes the driver (connections, handles). */
  dispose(): Promise<void>;
}
