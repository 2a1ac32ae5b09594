/**
 * A binary min-heap ordered by `key` (push and pop in O(log n)).
 * @example
 * const heap = createHeap<{ at: number }>((x) => x.at)
 * heap.push({ at: 5 }); heap.push({ at: 1 }); heap.pop() // { at: 1 }
 */
export function createHeap<T>(key: (item: T) => number) {
  const items: T[] = [];
  const less = (i: number, j: number) => key(items[i]) < key(items[j]);
  const swap = (i: number, j: number) => ([items[i], items[j]] = [items[j], items[i]]);
  return {
    get size() {
      return items.length;
    },
    peek: (): T | undefined => items[0],
    push(item: T): void {
      items.push(item);
      let i = items.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!less(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop(): T | undefined {
      if (!items.length) return undefined;
      const top = items[0];
      const last = items.pop()!;
      if (items.length) {
        items[0] = last;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          const r = l + 1;
          let m = i;
          if (l < items.length && less(l, m)) m = l;
          if (r < items.length && less(r, m)) m = r;
          if (m === i) break;
          swap(i, m);
          i = m;
        }
      }
      return top;
    },
    clear(): void {
      items.length = 0;
    },
  };
}
