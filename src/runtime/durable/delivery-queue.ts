import { arrayFifo, type Fifo } from '../fifo.js';
import type { Delivery } from './deliveries.js';

/** Numbers kept per spilled delivery: segment index, offset, length, replayed flag. */
const FIELDS = 4;

/**
 * The queue of accepted deliveries waiting to run. The first `keep` are held as objects (input included);
 * past that a durable delivery is kept as four numbers (where its journal record lies, 32 bytes) and comes
 * back as a stub (`id` empty) that `deliveries.load` fills from the journal when its turn comes. A burst of
 * a hundred thousand deliveries thus costs a few megabytes, not their bodies. Order is kept: once spilling,
 * every later delivery spills until the spill is drained.
 * @example
 * const backlog = createPacedBacklog({ start: run, limiter, queue: createDeliveryQueue() })
 */
export function createDeliveryQueue(keep = 1000): Fifo<Delivery> {
  const held = arrayFifo<Delivery>();
  const segments: string[] = [];
  const segmentIndex = new Map<string, number>();
  let nums = new Float64Array(FIELDS * 1024);
  let head = 0; // first spilled entry
  let tail = 0; // one past the last

  const spilled = () => tail - head;

  function spill(d: Delivery): void {
    const pos = d.pos!;
    let index = segmentIndex.get(pos.segment);
    if (index === undefined) {
      index = segments.push(pos.segment) - 1;
      segmentIndex.set(pos.segment, index);
    }
    if ((tail + 1) * FIELDS > nums.length) {
      // Move the live range to the front, growing only when it fills most of the array.
      const live = nums.subarray(head * FIELDS, tail * FIELDS);
      const next = spilled() * FIELDS * 2 > nums.length ? new Float64Array(nums.length * 2) : nums;
      next.set(live);
      nums = next;
      tail -= head;
      head = 0;
    }
    const at = tail * FIELDS;
    nums[at] = index;
    nums[at + 1] = pos.offset;
    nums[at + 2] = pos.length;
    nums[at + 3] = d.replayed ? 1 : 0;
    tail++;
  }

  return {
    push(d) {
      if (d.pos && (spilled() || held.length >= keep)) spill(d);
      else held.push(d);
    },
    shift() {
      if (held.length) return held.shift();
      if (!spilled()) return undefined;
      const at = head * FIELDS;
      head++;
      if (head === tail) head = tail = 0;
      const pos = { segment: segments[nums[at]], offset: nums[at + 1], length: nums[at + 2] };
      return { id: '', workflowId: '', at: 0, pos, replayed: nums[at + 3] === 1 };
    },
    get length() {
      return held.length + spilled();
    },
  };
}
