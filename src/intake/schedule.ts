import type { ScheduleConfig } from '../nodes/triggers/schedule.js';
import type { PublishedWorkflow } from '../resources/workflows/index.js';
import { createHeap } from '../util/heap.js';
import type { WeirBus } from '../events.js';
import type { Workflows } from '../resources/workflows/index.js';
import type { Storages } from '../storage/index.js';
import { compileTiming, type Timing } from './schedule-time.js';

/** A clock the scheduler reads and arms; tests pass a fake one. */
export interface Clock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

const realClock: Clock = {
  now: Date.now,
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** setTimeout holds at most ~24.8 days; longer waits re-arm on the way. */
const MAX_DELAY = 2 ** 31 - 1;

interface Entry {
  flow: PublishedWorkflow;
  config: Partial<ScheduleConfig>;
  timing: Timing;
  name: string;
  at: number;
}

/** Options of {@link createScheduler}. */
export interface SchedulerOptions {
  storage: Storages;
  bus: WeirBus;
  workflows: Pick<Workflows, 'listPublished'>;
  clock?: Clock;
  /** Starts one run (the host: the dispatcher; tests and benchmarks: their own). */
  fire(flow: PublishedWorkflow, input: { triggeredAt: string; scheduleName: string }): Promise<unknown>;
  /**
   * Several hosts compute the same slots; a slot runs only on the host whose claim succeeds (a Redis lock
   * per flow and slot with a cluster). Default: every slot runs here.
   */
  claim?(flowId: string, at: number): Promise<boolean>;
}

export type Scheduler = ReturnType<typeof createScheduler>;

/**
 * Runs published flows with a schedule trigger, inside `weir serve`. One timer serves every flow: a
 * min-heap holds each flow's next due time and the timer is armed for the earliest. A flow does not overlap
 * itself unless `allowOverlap`; runs missed while no host ran are skipped, or with `catchUp` the last one
 * runs at start. Last-run times live in cloud storage (`schedule-state`). `sync()` re-reads the published
 * flows (the host calls it on publish/unpublish events and storage changes).
 * @example
 * const scheduler = createScheduler({ storage, bus, workflows, fire: (flow, input) => dispatcher.run({ flow, input, trigger: 'schedule' }) })
 * await scheduler.sync()
 * scheduler.stop()
 */
export function createScheduler(options: SchedulerOptions) {
  const { bus, fire } = options;
  const clock = options.clock ?? realClock;
  const state = options.storage.view('cloud', 'schedule-state');
  const entries = new Map<string, Entry>();
  const heap = createHeap<{ id: string; at: number }>((x) => x.at);
  const running = new Map<string, number>();
  let timer: unknown = null;
  let armedAt = Infinity;
  let stopped = false;

  function arm(): void {
    // Entries replaced or removed stay in the heap until they surface; skip them here.
    while (heap.size && entries.get(heap.peek()!.id)?.at !== heap.peek()!.at) heap.pop();
    const top = heap.peek();
    if (stopped || !top) return;
    if (timer !== null && armedAt <= top.at) return;
    if (timer !== null) clock.clearTimer(timer);
    armedAt = top.at;
    timer = clock.setTimer(tick, Math.min(MAX_DELAY, Math.max(0, top.at - clock.now())));
  }

  function tick(): void {
    timer = null;
    armedAt = Infinity;
    const now = clock.now();
    while (heap.size && heap.peek()!.at <= now) {
      const { id, at } = heap.pop()!;
      const entry = entries.get(id);
      if (!entry || entry.at !== at) continue;
      run(id, entry, at);
      // The next slot after the one that ran (a long stall skips the slots it missed).
      const next = entry.timing.next(Math.max(at, now));
      if (next === null) entries.delete(id);
      else schedule(id, entry, next);
    }
    arm();
  }

  function run(id: string, entry: Entry, at: number): void {
    if (!options.claim) return start(id, entry, at);
    options.claim(id, at).then(
      (mine) => mine && start(id, entry, at),
      (error) => bus.emit('schedule:error', { workflowId: id, error }),
    );
  }

  function start(id: string, entry: Entry, at: number): void {
    if (running.get(id) && !entry.config.allowOverlap) {
      bus.emit('schedule:skipped', { workflowId: id, at: new Date(at).toISOString(), reason: 'previous run still running' });
      return;
    }
    running.set(id, (running.get(id) ?? 0) + 1);
    const triggeredAt = new Date(at).toISOString();
    bus.emit('schedule:fired', { workflowId: id, at: triggeredAt, late: clock.now() - at });
    void state.setItem(id, { lastRunAt: triggeredAt }).catch(() => {});
    Promise.resolve()
      .then(() => fire(entry.flow, { triggeredAt, scheduleName: entry.name }))
      .catch((error) => bus.emit('schedule:error', { workflowId: id, error }))
      .finally(() => {
        const n = (running.get(id) ?? 1) - 1;
        if (n) running.set(id, n);
        else running.delete(id);
      });
  }

  function schedule(id: string, entry: Entry, at: number): void {
    entry.at = at;
    entries.set(id, entry);
    heap.push({ id, at });
  }

  /** Adds or replaces one flow's schedule; a missed slot since its last run runs now with `catchUp`. */
  async function add(flow: PublishedWorkflow, lastRunAt: number | null): Promise<void> {
    const node = flow.config.nodes.find((n) => n.type === 'schedule_trigger')!;
    const config = (node.config ?? {}) as Partial<ScheduleConfig>;
    const published = Date.parse(flow.publishedAt) || 0;
    const timing = await compileTiming(config, published);
    const now = clock.now();
    const entry: Entry = { flow, config, timing, name: node.label || flow.name, at: 0 };
    const missed = timing.previous(now);
    if (config.catchUp && missed !== null && missed > Math.max(lastRunAt ?? -Infinity, published)) run(flow.id, entry, missed);
    const next = timing.next(now);
    if (next !== null) schedule(flow.id, entry, next);
  }

  return {
    /** Brings the schedules in line with the published flows: new and changed ones (re)armed, gone ones dropped. */
    async sync(): Promise<void> {
      const flows = (await options.workflows.listPublished()).filter((f) => f.config.nodes.some((n) => n.type === 'schedule_trigger'));
      const ids = new Set(flows.map((f) => f.id));
      for (const id of entries.keys()) if (!ids.has(id)) entries.delete(id);
      const changed = flows.filter((f) => entries.get(f.id)?.flow.hash !== f.hash || entries.get(f.id)?.flow.version !== f.version);
      const last = changed.length ? await state.getItems(changed.map((f) => f.id)) : [];
      const lastRun = new Map(last.map((i) => [i.key, Date.parse((i.value as { lastRunAt?: string } | null)?.lastRunAt ?? '') || null]));
      for (const flow of changed) {
        try {
          await add(flow, lastRun.get(flow.id) ?? null);
        } catch (error) {
          entries.delete(flow.id);
          bus.emit('schedule:error', { workflowId: flow.id, error });
        }
      }
      arm();
    },
    /** Flows with a schedule, and when each runs next. */
    list: () => [...entries.entries()].map(([id, e]) => ({ id, name: e.flow.name, nextRunAt: new Date(e.at).toISOString() })),
    /** Timers armed right now: at most one. */
    get timers(): number {
      return timer === null ? 0 : 1;
    },
    /** Stops the timer; runs already started finish through the dispatcher. */
    stop(): void {
      stopped = true;
      if (timer !== null) clock.clearTimer(timer);
      timer = null;
    },
  };
}
