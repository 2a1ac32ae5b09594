import type { ScheduleConfig } from './node.js';
import type { PublishedWorkflow } from '../../resources/workflows/index.js';
import { createWakeTimer, type Clock } from '../../util/wake-timer.js';
import type { WeirBus } from '../../events.js';
import type { Workflows } from '../../resources/workflows/index.js';
import type { Storages } from '../../storage/index.js';
import { compileTiming, type Timing } from './time.js';

export type { Clock } from '../../util/wake-timer.js';

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
   * Several hosts compute the same fire times; each runs only on the host whose claim succeeds (a Redis lock
   * per flow and fire time with a cluster). Default: every fire time runs here.
   */
  claim?(flowId: string, at: number): Promise<boolean>;
}

export type Scheduler = ReturnType<typeof createScheduler>;

/**
 * Runs published flows with a schedule trigger, inside `weir serve`. One timer serves every flow: the wake
 * timer holds each flow's next due time and is armed for the earliest. A flow does not overlap
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
  const state = options.storage.view('cloud', 'schedule-state');
  const entries = new Map<string, Entry>();
  const running = new Map<string, number>();
  // The wake timer the waits use: one heap of `<fire time> <flow id>` keys, one timer armed for the earliest.
  const timer = createWakeTimer({ clock: options.clock, ready: () => true, due: (key, at) => due(key.slice(key.indexOf(' ') + 1), at) });
  const now = () => (options.clock ?? Date).now();

  function due(id: string, at: number): void {
    const entry = entries.get(id);
    if (!entry || entry.at !== at) return;
    run(id, entry, at);
    // The next fire time after the one that ran (a long stall skips the fire times it missed).
    const next = entry.timing.next(Math.max(at, now()));
    if (next === null) forget(id);
    else schedule(id, entry, next);
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
    bus.emit('schedule:fired', { workflowId: id, at: triggeredAt, late: now() - at });
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

  /** Drops a flow's schedule and its key in the timer. */
  function forget(id: string): void {
    const old = entries.get(id);
    if (old) timer.remove(`${old.at} ${id}`);
    entries.delete(id);
  }

  function schedule(id: string, entry: Entry, at: number): void {
    forget(id);
    entry.at = at;
    entries.set(id, entry);
    timer.add(`${at} ${id}`, at);
  }

  /** Adds or replaces one flow's schedule; a missed fire time since its last run runs now with `catchUp`. */
  async function add(flow: PublishedWorkflow, lastRunAt: number | null): Promise<void> {
    const node = flow.config.nodes.find((n) => n.type === 'schedule_trigger')!;
    const config = (node.config ?? {}) as Partial<ScheduleConfig>;
    const published = Date.parse(flow.publishedAt) || 0;
    const timing = await compileTiming(config, published);
    const at = now();
    const entry: Entry = { flow, config, timing, name: node.label || flow.name, at: 0 };
    const missed = timing.previous(at);
    if (config.catchUp && missed !== null && missed > Math.max(lastRunAt ?? -Infinity, published)) run(flow.id, entry, missed);
    const next = timing.next(at);
    if (next !== null) schedule(flow.id, entry, next);
  }

  return {
    /** Brings the schedules in line with the published flows: new and changed ones (re)armed, gone ones dropped. */
    async sync(): Promise<void> {
      const flows = (await options.workflows.listPublished()).filter((f) => f.config.nodes.some((n) => n.type === 'schedule_trigger'));
      const ids = new Set(flows.map((f) => f.id));
      for (const id of [...entries.keys()]) if (!ids.has(id)) forget(id);
      const changed = flows.filter((f) => entries.get(f.id)?.flow.hash !== f.hash || entries.get(f.id)?.flow.version !== f.version);
      const last = changed.length ? await state.getItems(changed.map((f) => f.id)) : [];
      const lastRun = new Map(last.map((i) => [i.key, Date.parse((i.value as { lastRunAt?: string } | null)?.lastRunAt ?? '') || null]));
      for (const flow of changed) {
        try {
          await add(flow, lastRun.get(flow.id) ?? null);
        } catch (error) {
          forget(flow.id);
          bus.emit('schedule:error', { workflowId: flow.id, error });
        }
      }
    },
    /** Flows with a schedule, and when each runs next. */
    list: () => [...entries.entries()].map(([id, e]) => ({ id, name: e.flow.name, nextRunAt: new Date(e.at).toISOString() })),
    /** Timers armed right now: at most one. */
    get timers(): number {
      return timer.timers;
    },
    /** Stops the timer; runs already started finish through the dispatcher. */
    stop: () => timer.stop(),
  };
}
