/** What {@link createGroupCommit} returns. */
export interface GroupCommit<K, V> {
  /** Sets `key`'s entry of the next batch (`update` gets the entry already there); resolves once written. */
  put(key: K, update: (entry: V | undefined) => V, urgent?: boolean): Promise<void>;
  /** As `put`, for an entry nobody waits on (it settles through its own value, or not at all). */
  add(key: K, update: (entry: V | undefined) => V): void;
  /**
   * Sends a batch on the next turn, even an empty one, and resolves once it is written: everything added before
   * is then written too. A `write` that does more than writing its batch (a journal closing a segment) runs then.
   */
  flush(): Promise<void>;
}

/**
 * Group commit, the one of weir: what is added while a batch is being written goes out together as the next
 * batch, one write under way at a time, so a busy process writes once per batch rather than once per item.
 * Each `put` settles when the batch holding it is written. `linger` may hold a batch back a few milliseconds
 * when more items are known to be coming (it gets the number of items waiting; 0 writes on the next turn, where
 * the requests already read in this loop turn have joined the batch); an `urgent` item or a `flush` sends its
 * batch on the next turn whatever `linger` says.
 * @example
 * const commit = createGroupCommit<string, string>((batch) => Promise.all([...batch].map(([k, v]) => store.setItem(k, v))).then(() => {}))
 * await commit.put('open:exec_1', () => json) // a later put of the same key in the same batch replaces it
 */
export function createGroupCommit<K, V>(write: (batch: Map<K, V>) => Promise<void>, options: { linger?(items: number): number } = {}): GroupCommit<K, V> {
  let pending = new Map<K, V>();
  let waiters: Array<[() => void, (err: unknown) => void]> = [];
  let scheduled = false;
  let writing = false;
  let urgent = false;
  let lingering: ReturnType<typeof setTimeout> | undefined;

  function flush(): void {
    scheduled = false;
    urgent = false;
    lingering = undefined;
    const batch = pending;
    const told = waiters;
    pending = new Map();
    waiters = [];
    writing = true;
    write(batch)
      .then(
        () => told.forEach(([resolve]) => resolve()),
        (err) => told.forEach(([, reject]) => reject(err)),
      )
      .finally(() => {
        writing = false;
        if (pending.size || waiters.length) schedule();
      });
  }

  function schedule(): void {
    if (writing) return;
    if (scheduled) {
      if (!urgent || !lingering) return;
      clearTimeout(lingering);
      lingering = undefined;
      setImmediate(flush);
      return;
    }
    scheduled = true;
    const ms = urgent ? 0 : (options.linger?.(waiters.length) ?? 0);
    if (ms > 0) lingering = setTimeout(flush, ms);
    else setImmediate(flush);
  }

  const waitForBatch = () => new Promise<void>((resolve, reject) => waiters.push([resolve, reject]));

  return {
    put(key, update, isUrgent = false) {
      pending.set(key, update(pending.get(key)));
      if (isUrgent) urgent = true;
      const written = waitForBatch();
      schedule();
      return written;
    },
    add(key, update) {
      pending.set(key, update(pending.get(key)));
      schedule();
    },
    flush() {
      urgent = true;
      const written = waitForBatch();
      schedule();
      return written;
    },
  };
}
