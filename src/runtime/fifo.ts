/** A first-in first-out store of waiting items. */
export interface Fifo<T> {
  push(item: T): void;
  shift(): T | undefined;
  readonly length: number;
}

/**
 * A FIFO over an array that drops its consumed front now and then instead of shifting on every item.
 * @example
 * const queue = arrayFifo<string>()
 * queue.push('a')
 * queue.shift() // 'a'
 */
export function arrayFifo<T>(): Fifo<T> {
  let items: T[] = [];
  let head = 0;
  return {
    push: (item) => void items.push(item),
    shift() {
      if (head >= items.length) return undefined;
      const item = items[head++];
      if (head > 1024 && head * 2 > items.length) {
        items = items.slice(head);
        head = 0;
      }
      return item;
    },
    get length() {
      return items.length - head;
    },
  };
}
