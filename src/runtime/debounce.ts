import type { WeirError } from '../errors.js';
import type { WeirBus } from '../events.js';
import { createExpressions } from '../expr/index.js';
import { RUNNING_RECORD_AFTER_MS } from '../flow/hooks.js';
import type { ExecutionRecord, Masker, RunOptions } from '../flow/types.js';
import { newExecutionId } from '../resources/executions/ids.js';
import type { Executions } from '../resources/executions/index.js';
import { sealedOf, withSealed } from '../resources/executions/stored.js';
import type { WorkflowConfig } from '../resources/workflows/types.js';
import type { FlowRef, TriggerEvent } from '../types/trigger.js';
import { sha256 } from '../util/ids.js';
import { createWakeTimer, type WakeTimer } from '../util/wake-timer.js';
import { createBurstLog, type Burst } from './debounce-log.js';
import { createDebounceRule, debounceOf, isDebounced, queuedRecord, slotOf } from './debounce-rule.js';
import type { ExecutionLimiter } from './execution-limiter.js';

/** A burst whose run failed to start (storage down, config gone) is tried again after this long. */
const RETRY_MS = 30_000;

/** A burst held here: `written` settles once its last write did, `next` is a write not started yet. */
interface Held {
  burst: Burst;
  written: Promise<unknown>;
  next: Promise<unknown> | null;
  /** The config of the last delivery (a burst found at a start reads its snapshot instead). */
  config?: WorkflowConfig;
  /**
   * Stored `queued` among the open executions (every process sees it, may cancel it): a burst due
   * {@link RUNNING_RECORD_AFTER_MS} or more after its first delivery (a short one, like a short run, is seen
   * here only), or one found in the log at a start (its run may have started before the process died).
   */
  opened: boolean;
  /** What reads of the run's id in this process see until it starts. */
  view: () => ExecutionRecord;
  /** The `queued` record as last stored (masked): what {@link Held.view} shows once there is one. */
  shown?: ExecutionRecord;
}

/** Options of {@link createDebouncer}. */
export interface DebouncerOptions {
  /** Where pending bursts are logged (`<home>/debounce`); without one (a memory-only weir), in memory only. */
  dir?: string;
  executions: Pick<Executions, 'open' | 'configs' | 'save' | 'get' | 'track' | 'untrack'>;
  /** Masks the secrets in what a burst stores (the run's input, the debounced deliveries' records). */
  masker(): Promise<Masker>;
  /** Runs an execution on this process (the executor's `run`). */
  execute(request: RunOptions): Promise<ExecutionRecord>;
  limiter: Pick<ExecutionLimiter, 'run'>;
  bus: WeirBus;
}

/** What {@link createDebouncer} returns. */
export interface Debouncer {
  /** Whether the event's flow is debounced (a resumed or refused run never is: it is past its delivery). */
  applies(event: TriggerEvent & { resume?: unknown }): boolean;
  /**
   * Takes a delivery of a debounced flow: the first of a burst is recorded `queued` and runs `period` after the
   * burst's last delivery (or `maxWait` after its first); a later one is recorded `debounced` into it at once.
   * Resolves once that is stored, with the delivery's record.
   */
  deliver(event: TriggerEvent): Promise<Pick<ExecutionRecord, 'id' | 'status' | 'debouncedInto'>>;
  /** Takes over the bursts stopped processes left pending, arms their times (overdue ones run at once); no log yet: none. */
  start(): Promise<number>;
  /** Stops the timer, waits for the bursts being run or stored and closes the log. */
  stop(): Promise<void>;
}

/**
 * `settings.debounce` (CONTRACT 20): deliveries within `period` of the last one for a key collapse into one
 * execution with the last input. A burst is a line in a log (src/runtime/debounce-log.ts, written again by
 * each delivery, group-committed) and one key in a timer heap, like a `wait` node's wake: it survives a
 * kill -9, and a host started after its time runs it at once. Its run goes the way of any run (the final
 * record among the others' batches). The run's id is the burst's first delivery's; a burst is done only once
 * its run's record is stored, and a burst found again whose run already started is left to that run (its
 * checkpoints resume it): never twice.
 * @example
 * const debouncer = createDebouncer({ dir: join(home, 'debounce'), executions, execute, limiter, bus })
 * await debouncer.start()
 * await debouncer.deliver({ flow, trigger: 'webhook', input }) // { id: 'exec_…', status: 'queued' }
 */
export function createDebouncer(options: DebouncerOptions): Debouncer {
  const { executions, bus } = options;
  const rule = createDebounceRule(createExpressions({ cacheSize: 100 }));
  /** The open burst of each slot; a burst leaves it when its time comes. */
  const open = new Map<string, Burst>();
  /** Every burst not yet run here, by run id. */
  const pending = new Map<string, Held>();
  const savedConfigs = new Set<string>();
  const working = new Set<Promise<unknown>>();
  // Arms nothing until a burst is added: created at once, so deliveries before `start` are timed too.
  const timer: WakeTimer = createWakeTimer({ ready: () => true, due });
  const log = createBurstLog(options.dir, (bursts) => void adoptAll(bursts).catch((err) => bus.emit('debounce:error', { error: err })));
  let opened: Promise<number> | null = null;
  /** Opens the log once (at `start`, or at the first delivery; after a failure, again), taking over dead processes' bursts. */
  const openLog = (): Promise<number> => (opened ??= log.open().then(adoptAll, (err) => ((opened = null), Promise.reject(err))));

  /** Arms the bursts found in the log, their runs' real input unsealed (a line holds it masked); resolves with how many. */
  async function adoptAll(bursts: Burst[]): Promise<number> {
    let count = 0;
    for (const found of bursts) {
      const { sealed, ...burst } = found;
      const shown = queuedRecord(burst);
      if (sealed) burst.input = (await executions.open.real(withSealed(shown, sealed))).input;
      if (adopt(burst, shown)) count++;
    }
    return count;
  }

  const track = <T>(p: Promise<T>): Promise<T> => {
    working.add(p);
    void p.finally(() => working.delete(p)).catch(() => {});
    return p;
  };

  function hold(burst: Burst, found: boolean, config?: WorkflowConfig, shown?: ExecutionRecord): Held {
    const held: Held = { burst, written: Promise.resolve(), next: null, config, opened: found, shown, view: () => held.shown ?? queuedRecord(held.burst) };
    pending.set(burst.runId, held);
    executions.track(burst.runId, burst.flow.id, held.view);
    return held;
  }

  /** Arms a burst found in the log; false when one of that id is held already. */
  function adopt(burst: Burst, shown?: ExecutionRecord): boolean {
    if (pending.has(burst.runId)) return false;
    hold(burst, true, undefined, shown);
    const held = open.get(burst.slot);
    if (!held || held.firstAt < burst.firstAt) open.set(burst.slot, burst);
    timer.add(burst.runId, burst.dueAt);
    return true;
  }

  /**
   * Stores the burst as it is when the write starts (and, once it is due long enough after its first
   * delivery, its run's `queued` record, which shows the input it will run with). Writes of one burst go one
   * after the other, and one not started yet covers any later change: 50 deliveries in a burst make a few
   * writes, not 50. Both are stored masked, the real input sealed beside them (as a checkpoint's), so no
   * secret in the input is written in plain text.
   */
  function persist(held: Held): Promise<unknown> {
    if (held.next) return held.next;
    const { burst } = held;
    const next = held.written.then(async () => {
      held.next = null;
      burst.writes++;
      const queued = executions.open.masked(queuedRecord(burst), await options.masker());
      const sealed = sealedOf(queued);
      held.shown = queued;
      // The log first: a record seen (from any process) means the burst is on disk with that input.
      await log.write({ ...burst, input: queued.input, ...(sealed ? { sealed } : {}) });
      if (held.opened) await executions.open.put(queued);
    });
    held.next = next;
    held.written = next.catch(() => {});
    return next;
  }

  /** The config snapshot a run after a restart reads (kept per hash, like a waiting execution's). */
  async function keepConfig(flow: FlowRef): Promise<string> {
    const hash = flow.hash ?? sha256(JSON.stringify(flow.config)).slice(0, 32);
    const id = `${flow.id}@${hash}`;
    if (!savedConfigs.has(id)) {
      await executions.configs.save(flow.id, hash, flow.config);
      savedConfigs.add(id);
    }
    return hash;
  }

  /**
   * Whether the burst's run must not start: cancelled while stored `queued` (from any process), or, found at
   * a start, started (or ended) before the process died. A short burst of this process is in no other's hands.
   */
  async function settled(held: Held): Promise<boolean> {
    if (!held.opened) return false;
    const { runId, flow } = held.burst;
    const entry = await executions.open.get(runId);
    if (entry) return entry.record.status !== 'queued';
    // Looked up in storage, not in this process's own `queued` view of it.
    executions.untrack(runId, held.view);
    const ran = await executions.get(runId).then(
      (record) => record.status !== 'queued',
      (err) => ((err as WeirError).code === 'NOT_FOUND' ? false : Promise.reject(err)),
    );
    if (!ran) executions.track(runId, flow.id, held.view);
    return ran;
  }

  async function run(held: Held): Promise<void> {
    const { burst } = held;
    await held.written;
    if (!(await settled(held))) {
      const config = held.config ?? (await executions.configs.get(burst.flow.id, burst.flow.hash));
      if (!config) throw new Error(`the config of workflow ${burst.flow.id} (hash ${burst.flow.hash}) is not stored`);
      // Should this process die during the run, the burst is found again: a run that stored a checkpoint is
      // the host's scan's to resume; one that stored none starts again under its id, as a resume would.
      // Its stored `queued` entry speaks for it from here: the flow's other rules may hold it back and say so there.
      if (held.opened) executions.untrack(burst.runId, held.view);
      const ended = await options.limiter.run((release) =>
        options.execute({
          workflow: { ...burst.flow, config },
          input: burst.input,
          trigger: burst.trigger,
          executionId: burst.runId,
          onEnded: release,
          background: true,
        }),
      );
      // The run stored its final record: the entry that stood for it goes (a waiting run's entry is its own).
      if (held.opened && ended.status !== 'waiting') await executions.open.remove(burst.runId);
    }
    executions.untrack(burst.runId, held.view);
    log.done(burst.runId);
    pending.delete(burst.runId);
  }

  function due(runId: string): void {
    const held = pending.get(runId);
    if (!held) return;
    const { burst } = held;
    // A later delivery moved its time: one heap key per burst, looked at again then.
    if (burst.dueAt > Date.now()) return void timer.add(runId, burst.dueAt);
    if (open.get(burst.slot) === burst) open.delete(burst.slot);
    void track(run(held)).catch((error) => {
      bus.emit('debounce:error', { executionId: runId, workflowId: burst.flow.id, error });
      burst.dueAt = Date.now() + RETRY_MS;
      timer.add(runId, burst.dueAt);
    });
  }

  /** A burst due this long after its first delivery is stored `queued` for every process to see. */
  const openIfLong = (held: Held) => (held.opened ||= held.burst.dueAt - held.burst.firstAt >= RUNNING_RECORD_AFTER_MS);

  return {
    applies: isDebounced,

    async deliver(event) {
      const now = Date.now();
      const { periodMs: period, maxWaitMs: maxWait, key } = rule.of(debounceOf(event.flow)!, event.input);
      const slot = slotOf(event.flow.id, key);
      const id = event.executionId ?? newExecutionId();
      // The bursts a dead process left are held before a delivery looks for its slot's.
      await openLog();
      // A delivery replayed after a crash (the webhook intake's journal) whose burst was found in the log.
      if (event.executionId && pending.has(event.executionId)) return { id: event.executionId, status: 'queued' };
      const hash = keepConfig(event.flow);
      const burst = open.get(slot);
      const joined = burst && pending.get(burst.runId);
      if (burst && joined) {
        // Joins the burst: its run takes this input (and this flow version) and waits `period` more, up to maxWait.
        burst.input = event.input;
        burst.trigger = event.trigger;
        burst.dueAt = Math.min(now + period, burst.firstAt + maxWait);
        const flow = { id: event.flow.id, name: event.flow.name, version: event.flow.version ?? null, hash: await hash };
        burst.flow = flow;
        joined.config = event.flow.config;
        openIfLong(joined);
        const at = new Date(now).toISOString();
        const record: ExecutionRecord = {
          id, workflowId: flow.id, workflowName: flow.name, version: flow.version, status: 'debounced', trigger: event.trigger,
          input: event.input, nodes: {}, result: null, startedAt: at, finishedAt: at, hash: flow.hash, debouncedInto: burst.runId,
        };
        await persist(joined);
        await executions.save(executions.open.masked(record, await options.masker()), { linger: true });
        return { id, status: 'debounced', debouncedInto: burst.runId };
      }
      const fresh: Burst = {
        runId: id, slot, flow: { id: event.flow.id, name: event.flow.name, version: event.flow.version ?? null, hash: '' }, trigger: event.trigger,
        input: event.input, startedAt: new Date(now).toISOString(), firstAt: now, dueAt: Math.min(now + period, now + maxWait), writes: 0,
      };
      // In memory first: a delivery arriving while this one is stored joins it.
      const held = hold(fresh, false, event.flow.config);
      held.written = hash.then((h) => (fresh.flow.hash = h));
      openIfLong(held);
      open.set(slot, fresh);
      try {
        await track(persist(held));
      } catch (err) {
        if (open.get(slot) === fresh) open.delete(slot);
        pending.delete(id);
        executions.untrack(id, held.view);
        throw err;
      }
      timer.add(id, fresh.dueAt);
      return { id, status: 'queued' };
    },

    start: () => (log.present() ? openLog() : Promise.resolve(0)),

    async stop() {
      timer.stop();
      await Promise.all(working);
      await log.close();
    },
  };
}
