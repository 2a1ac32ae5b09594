/** A KV namespace. */
export interface KvNamespace {
  id: string;
  name: string;
  description?: string;
  createdAt: string;
}

/**
 * KV namespaces of string values (`weir.kv`).
 * @example
 * await weir.kv.init('sessions')
 * await weir.kv.setValue('sessions', 'u1', JSON.stringify({ cart: 2 }))
 * await weir.kv.getValue('sessions', 'u1') // '{"cart":2}'
 */
export interface Kv {
  /** Every namespace, by name. */
  list(): Promise<KvNamespace[]>;
  /** Creates a namespace; names are unique. */
  init(name: string, description?: string): Promise<KvNamespace>;
  /** One namespace with its key count. */
  get(ref: string): Promise<KvNamespace & {
    keys: number;
  }>;
  /** Deletes a namespace and every key in it. */
  delete(ref: string): Promise<KvNamespace>;
  /** The keys of a namespace, sorted. */
  keys(ref: string): Promise<string[]>;
  /** A value, or `null` when the key is absent. */
  getValue(ref: string, key: string): Promise<string | null>;
  /** Writes a value (a string; JSON text is kept as given). */
  setValue(ref: string, key: string, value: string): Promise<void>;
  /** Removes a key; false when it was absent. */
  deleteKey(ref: string, key: string): Promise<boolean>;
  /** Every key and value as one object (the `kv export` document). */
  export(ref: string): Promise<Record<string, string>>;
  /**
   * Writes every key of an object (the `kv export` document). Non-string values are stored as their JSON
   * text, so a hand-written file may hold numbers or objects.
   */
  import(ref: string, obj: unknown): Promise<{
    namespace: string;
    imported: number;
  }>;
}
