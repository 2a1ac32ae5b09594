const MAX_TIMER_MS = 2 ** 31 - 1;

interface Entry {
  at: number;
  fire: () => void;
  prev: Entry | null;
  next: Entry | null;
  list: List | null;
}

interface List {
  head: Entry | null;
  tail: Entry | null;
}

/**
 * Many timeouts on one timer, for callers that arm one per request and nearly always cancel it (a webhook
 * waiting for its Respond node): entries of one duration sit in a linked list in deadline order, so adding
 * and cancelling are O(1) and allocate one small object, where a node timer costs several times that.
 * The timer is armed for the earliest deadline; a cancelled head only makes it fire early and re-arm.
 * @example
 * const deadlines = createDeadlines()
 * const cancel = deadlines.add(30_000, () => answer504())
 * cancel() // once the answer came
 */
export function createDeadlines(now: () => number = () => performance.now()) {
  const lists = new Map<number, List>();
  let timer: NodeJS.Timeout | null = null;
  let armedFor = Infinity;

  function unlink(e: Entry): void {
    const list = e.list;
    if (!list) return;
    if (e.prev) e.prev.next = e.next;
    else list.head = e.next;
    if (e.next) e.next.prev = e.prev;
    else list.tail = e.prev;
    e.prev = e.next = e.list = null;
  }

  function arm(): void {
    let earliest = Infinity;
    for (const list of lists.values()) if (list.head && list.head.at < earliest) earliest = list.head.at;
    if (earliest === armedFor) return;
    if (timer) clearTimeout(timer);
    timer = null;
    armedFor = earliest;
    if (earliest === Infinity) return;
    // Node fires a timer over 2^31-1 ms at once: a farther deadline is approached in steps.
    timer = setTimeout(expire, Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil(earliest - now()))));
    timer.unref();
  }

  function expire(): void {
    timer = null;
    armedFor = Infinity;
    const t = now();
    const due: Array<() => void> = [];
    for (const list of lists.values()) {
      while (list.head && list.head.at <= t) {
        const e = list.head;
        unlink(e);
        due.push(e.fire);
      }
    }
    arm();
    for (const fire of due) fire();
  }

  return {
    /** Calls `fire` after `ms` unless the returned function is called first. */
    add(ms: number, fire: () => void): () => void {
      let list = lists.get(ms);
      if (!list) lists.set(ms, (list = { head: null, tail: null }));
      const e: Entry = { at: now() + ms, fire, prev: list.tail, next: null, list };
      if (list.tail) list.tail.next = e;
      else list.head = e;
      list.tail = e;
      if (e.at < armedFor) arm();
      return () => unlink(e);
    },
  };
}
