import type { ExecutionRecord, Masker, RunOptions } from '../../flow/types.js';
import { newExecutionId, type Executions } from '../../resources/executions/index.js';
import { sealedOf, withSealed } from '../../resources/executions/stored.js';
import type { TriggerEvent } from '../../types/trigger.js';
import type { Lane, Waiter } from './lanes.js';
import type { RuleName } from './rules.js';

/** An event the dispatcher starts (its `DispatchEvent`), declared here so admission does not import the dispatcher. */
export type DispatchEvent = TriggerEvent &
  Pick<RunOptions, 'resume' | 'restartedBy' | 'background' | 'opened'> & {
    /** Runs on this process whatever the host (a run no dispatcher started): on the queue, it takes its places in the workers' lanes from here. */
    here?: boolean;
  };

const CANCELLED = { code: 'CANCELLED', message: 'execution cancelled before it started' } as const;

/** One execution held back by a rule: stored `queued` while it waits, started in its turn, or cancelled. */
export interface Hold {
  /** The event to start, under the execution id its queued record has. */
  readonly event: DispatchEvent;
  /** Waits in `lane` (for `rule`, key value `key`) until the lane takes a place for it; rejects when cancelled. */
  turn(lane: Lane, rule: RuleName, key: string | null): Promise<void>;
  /** Once its turn came: its final record if it was cancelled meanwhile (by another process), else null. */
  cancelledMeanwhile(): Promise<ExecutionRecord | null>;
  /** Follows its run: the queued record goes once the run has stored its own (unless it waits: that record stays). */
  started<T extends { status: string }>(run: Promise<T>): Promise<T>;
  /** Set once cancelled: resolves with its final `cancelled` record, once stored. */
  readonly cancelled?: Promise<ExecutionRecord>;
  /** Forgets it (its admission is over). */
  forget(): void;
}

/**
 * The executions held back in this process, by id. A new one (not a resume or a wake, whose open entry
 * already says where it stands) is stored as an open execution with status `queued` and `queuedFor`: shown
 * by listings and status URLs, cancelled from any process, started again by the next process if this one
 * dies ({@link recoverQueued}). A journal delivery's record says the journal restarts it. The record is stored
 * masked (`masker`: a secret in the input shows as `***`), its real input sealed beside it, as a checkpoint's;
 * the run here starts from the event it holds, one restarted elsewhere unseals it.
 * @example
 * const holds = createHolds(executions, masker)
 * const hold = holds.hold(event, release) // stored queued; release() gives the caller's limiter slot back
 * await hold.turn(lane, 'concurrency', 'tenant-a')
 */
export function createHolds(executions: Pick<Executions, 'open' | 'configs' | 'save'>, masker: () => Promise<Masker>) {
  const waiting = new Map<string, { cancel(): Promise<ExecutionRecord> }>();

  function hold(source: DispatchEvent, release?: () => void): Hold {
    // The caller's limiter slot goes back: executions waiting here must not keep others of the host waiting.
    release?.();
    const fresh = !source.resume;
    // Its run replaces the queued record it finds stored (see RunOptions.opened).
    const event = { ...source, executionId: source.executionId ?? newExecutionId(), opened: true };
    const id = event.executionId!;
    const { flow } = event;
    const record: ExecutionRecord = source.resume ?? {
      id,
      workflowId: flow.id,
      workflowName: flow.name,
      version: flow.version ?? null,
      status: 'queued',
      trigger: event.trigger,
      input: event.input,
      nodes: {},
      result: null,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      ...(flow.hash ? { hash: flow.hash } : {}),
    };
    // With the record, the config it runs: a restarted host starts it against that config.
    let stored: Promise<unknown> = fresh && flow.hash ? executions.configs.save(flow.id, flow.hash, flow.config) : Promise.resolve();
    const store = () => (stored = stored.then(async () => executions.open.put(record, event.restartedBy, await masker())));
    let current: { waiter: Waiter; reject(err: unknown): void } | null = null;
    let cancelled: Promise<ExecutionRecord> | undefined;

    async function finish(): Promise<ExecutionRecord> {
      await stored.catch(() => {});
      const base = (await executions.open.get(id))?.record ?? record;
      const { queuedFor: _q, ...rest } = base;
      const ended: ExecutionRecord = { ...rest, status: 'cancelled', error: { ...CANCELLED }, finishedAt: new Date().toISOString() };
      // The stored record is masked and carries its sealed input (for a retry); one never stored is masked here.
      const sealed = sealedOf(base);
      const final = sealed ? withSealed(ended, sealed) : executions.open.masked(ended, await masker());
      await executions.save(final);
      await executions.open.remove(id);
      return final;
    }

    const self: Hold = {
      event,
      turn(lane, rule, key) {
        if (fresh && (record.queuedFor?.rule !== rule || record.queuedFor.key !== key)) {
          record.queuedFor = { rule, key };
          store();
        }
        waiting.set(id, {
          cancel() {
            cancelled ??= finish();
            if (current) {
              current.waiter.gone = true;
              current.reject(new Error('cancelled'));
            }
            return cancelled;
          },
        });
        return new Promise<void>((resolve, reject) => {
          const waiter: Waiter = {
            id,
            enter: () => {
              current = null;
              waiting.delete(id);
              resolve();
            },
          };
          current = { waiter, reject };
          lane.wait(waiter);
        });
      },
      async cancelledMeanwhile() {
        if (!fresh) return null;
        await stored;
        const entry = await executions.open.get(id);
        if (entry?.record.status === 'queued') return null;
        const { queuedFor: _q, ...rest } = record;
        return (await masker()).record({ ...rest, status: 'cancelled', error: { ...CANCELLED }, finishedAt: entry?.record.finishedAt ?? new Date().toISOString() });
      },
      async started(run) {
        let status: string | null = null;
        try {
          const out = await run;
          status = out.status;
          return out;
        } finally {
          if (fresh && status !== 'waiting') await executions.open.remove(id).catch(() => {});
        }
      },
      get cancelled() {
        return cancelled;
      },
      forget() {
        waiting.delete(id);
      },
    };
    return self;
  }

  return {
    hold,
    cancel: (id: string) => waiting.get(id)?.cancel() ?? null,
    get size() {
      return waiting.size;
    },
  };
}
