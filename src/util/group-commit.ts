/**
 * Group commit: what is added while a batch is being written goes out together as the next batch, one write
 * under way at a time, so a busy process writes once per batch rather than once per item. Each item's
 * promise settles when the batch holding it is written. `linger` may hold a batch back a few milliseconds
 * when more items are known to be coming (it gets the number of items waiting; 0 writes on the next turn);
 * an `urgent` item sends its batch on the next turn whatever `linger` says.
 * @example
 * const commit = createGroupCommit<string, string>((batch) => Promise.all([...batch].map(([k, v]) => store.setItem(k, v))).then(() => {}))
 * await commit.put('open:exec_1', () => json) // a later put of the same key in the same batch replaces it
 */
export function createGroupCommit<K, V>(write: (batch: Map<K, V>) => Promise<void>, options: { linger?(items: number): number } = {}) {
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
        if (pending.size) schedule();
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

  return {
    /** Sets `key`'s entry of the next batch (`update` gets the entry already there); resolves once written. */
    put(key: K, update: (entry: V | undefined) => V, isUrgent = false): Promise<void> {
      pending.set(key, update(pending.get(key)));
      if (isUrgent) urgent = true;
      const written = new Promise<void>((resolve, reject) => waiters.push([resolve, reject]));
      schedule();
      return written;
    },
  };
}
