import type { Expressions } from '../../expr/index.js';
import type { ExecutionRecord, Masker, RunOptions } from '../../flow/types.js';
import type { Executions } from '../../resources/executions/index.js';
import { newExecutionId } from '../../resources/executions/ids.js';
import type { FlowRef } from '../../types/trigger.js';
import { concurrencyLane, rateLane, type Lane } from './lanes.js';
import { createHolds, type DispatchEvent } from './holds.js';
import { createRules, keyValue, type Rule, type RuleName, type Rules } from './rules.js';

export { recoverQueued } from './recover.js';

/** Options of {@link createAdmission}. */
export interface AdmissionOptions {
  executions: Pick<Executions, 'open' | 'configs' | 'save'>;
  expressions: Pick<Expressions, 'template'>;
  /** Masks the secrets in a queued record (its input): stored masked, with the real input sealed beside it. */
  masker(): Promise<Masker>;
  /**
   * The host sends its executions to the execution queue (section 13): there the workers enforce the rules,
   * with lanes in Redis (src/queue/gate.ts), so this process lets them through.
   */
  onQueue: boolean;
  /**
   * The queue's own admission (src/queue/index.ts `admit`), for an execution woken on this host: it takes
   * places in the workers' lanes in Redis again, as it did when it first started.
   */
  queue?: { admit<T>(job: { executionId: string; workflow: RunOptions['workflow']; input: unknown }, run: () => Promise<T>, onPark?: () => void): Promise<T> } | null;
}

/** What {@link createAdmission} returns: the one gate before an execution of a flow with rules starts. */
export interface Admission {
  /** Whether executions of this flow pass through {@link Admission.admit} (it has `concurrency` or `rateLimit`). */
  applies(flow: FlowRef): boolean;
  /**
   * Starts the event with `start` once its flow's rules let it (at once when they do not bind). One that must
   * wait is stored `queued` (with `queuedFor`), gives the caller's limiter slot back (`release`), and starts in
   * arrival order per key; one cancelled meanwhile resolves with its `cancelled` record and never starts.
   */
  admit<T extends { status: string }>(event: DispatchEvent, start: (event: DispatchEvent, release?: () => void) => Promise<T>, release?: () => void): Promise<T | ExecutionRecord>;
  /** Cancels an execution waiting here; resolves with its final record, or null when none waits here by that id. */
  cancel(id: string): Promise<ExecutionRecord> | null;
  /** Executions waiting here for their turn. */
  readonly waiting: number;
}

/** Lanes kept before idle ones are swept (keys come and go: a lane per tenant, say). */
const SWEEP_AT = 1024;

/**
 * Per-flow concurrency and rate limits (CONTRACT 15, 20): `settings.concurrency` bounds the executions of a
 * flow running at once, `settings.rateLimit` its starts per period, each per value of its `key`. An
 * execution passes its concurrency lane, then its rate lane; where one is full it waits there, first in,
 * first out, stored as a `queued` execution so a restart starts it (see {@link recoverQueued}). Places are
 * held by this process while it runs the execution (released when the run ends or begins waiting), so a
 * process that dies holds none. A flow without rules costs one property read.
 * @example
 * const admission = createAdmission({ executions, expressions, masker, onQueue: false })
 * const record = admission.applies(event.flow) ? await admission.admit(event, (e) => run(e)) : await run(event)
 */
export function createAdmission(options: AdmissionOptions): Admission {
  const rulesOf = createRules(options.expressions);
  // By flow id (not config: a flow published again keeps its lanes), then by rule and key value.
  const lanes = new Map<string, Record<RuleName, Map<string, Lane>>>();
  let count = 0;
  let sweepAt = SWEEP_AT;
  const holds = createHolds(options.executions, options.masker);

  function laneOf(flowId: string, rule: Rule, key: string | null): Lane {
    let ofFlow = lanes.get(flowId);
    if (!ofFlow) lanes.set(flowId, (ofFlow = { concurrency: new Map(), rateLimit: new Map() }));
    const ofRule = ofFlow[rule.name];
    let lane = ofRule.get(key ?? '');
    if (!lane) {
      if (++count >= sweepAt) sweep();
      lane = rule.name === 'concurrency' ? concurrencyLane(rule.limit) : rateLane(rule.limit, rule.periodMs);
      ofRule.set(key ?? '', lane);
    }
    lane.limit = rule.limit;
    return lane;
  }

  function sweep(): void {
    const now = Date.now();
    count = 0;
    for (const [flowId, ofFlow] of lanes) {
      for (const ofRule of [ofFlow.concurrency, ofFlow.rateLimit]) {
        for (const [key, lane] of ofRule) if (lane.idle(now)) ofRule.delete(key);
        count += ofRule.size;
      }
      if (!ofFlow.concurrency.size && !ofFlow.rateLimit.size) lanes.delete(flowId);
    }
    sweepAt = Math.max(SWEEP_AT, count * 2);
  }

  /** The way of an execution that must wait: in line at `rules[from]`, holding the places of `taken`. */
  async function queued<T extends { status: string }>(event: DispatchEvent, start: (e: DispatchEvent, release?: () => void) => Promise<T>, release: (() => void) | undefined, rules: Rules, from: number, taken: Lane[]): Promise<T | ExecutionRecord> {
    const hold = holds.hold(event, release);
    try {
      for (let i = from; i < rules.length; i++) {
        const key = keyValue(rules[i], event.input);
        const lane = laneOf(event.flow.id, rules[i], key);
        // The first lane was full when tried; the others are tried first. The lane takes the place before the turn is told.
        if (i > from && lane.take()) taken.push(lane);
        else {
          await hold.turn(lane, rules[i].name, key);
          taken.push(lane);
        }
      }
      return (await hold.cancelledMeanwhile()) ?? (await hold.started(start(hold.event)));
    } catch (err) {
      if (hold.cancelled) return hold.cancelled;
      throw err;
    } finally {
      for (const lane of taken) lane.free();
      hold.forget();
    }
  }

  return {
    applies: (flow) => rulesOf(flow.config).length > 0,
    admit(event, start, release) {
      if (options.onQueue) {
        const { queue } = options;
        // A delivery goes to the queue, whose workers take its places; a run of this process takes them here.
        if (!event.here || !queue) return start(event, release);
        const { flow } = event;
        const workflow = { id: flow.id, name: flow.name, version: flow.version, config: flow.config, hash: flow.hash };
        // Parked in a lane, it gives the caller's limiter slot back, as one queued here does (see `holds`).
        let holding = release;
        const park = () => {
          holding?.();
          holding = undefined;
        };
        return queue.admit({ executionId: event.executionId ?? event.resume?.id ?? newExecutionId(), workflow, input: event.input }, () => start(event, holding), park);
      }
      const rules = rulesOf(event.flow.config);
      // Where every lane has room (the usual case) the run starts here, with no promise of admission's own.
      const taken: Lane[] = [];
      for (let i = 0; i < rules.length; i++) {
        const lane = laneOf(event.flow.id, rules[i], keyValue(rules[i], event.input));
        if (!lane.take()) return queued(event, start, release, rules, i, taken);
        taken.push(lane);
      }
      const run = start(event, release);
      const free = () => {
        for (const lane of taken) lane.free();
      };
      run.then(free, free);
      return run;
    },
    cancel: (id) => holds.cancel(id),
    get waiting() {
      return holds.size;
    },
  };
}

/**
 * `execute` behind admission, for the runs no dispatcher starts: `weir.run`, the run route, `call_flow` and
 * `foreach` children, retries, reruns, a woken `wait`. The rules protect what a flow calls, whatever
 * started it, so such a run waits `queued` like a delivery (and is cancelled the same way, or through its
 * `signal`: a cancelled parent's queued child). `onEnded` is the caller's limiter slot, given back while it
 * waits. A retry waits as a new execution (its own queued record), then continues the retried record.
 * @example
 * const run = admitted(runtime.admission, (r) => executor.run(r))
 * await run({ workflow, input, trigger: 'manual' }) // queued behind the flow's running executions, if it must
 */
export function admitted(admission: Pick<Admission, 'applies' | 'admit' | 'cancel'>, execute: (request: RunOptions) => Promise<ExecutionRecord>) {
  return (request: RunOptions): Promise<ExecutionRecord> => {
    if (!admission.applies(request.workflow)) return execute(request);
    const resume = request.retryOf ? undefined : request.resume;
    // Known now, so an abort can name it while it waits (a resume keeps its id, a retry is a new execution).
    const executionId = request.executionId ?? resume?.id ?? newExecutionId();
    const event: DispatchEvent = { flow: request.workflow, trigger: request.trigger, input: resume?.input ?? request.input, executionId, resume, background: request.background, here: true };
    const { signal } = request;
    const onAbort = () => void admission.cancel(executionId);
    signal?.addEventListener('abort', onAbort, { once: true });
    // Queued, the caller's slot went back (`release` is undefined then): `onEnded` must not give it back twice.
    const run = admission.admit(event, (e, release) => execute({ ...request, executionId, refuse: e.refuse ?? request.refuse, opened: e.opened, onEnded: release }), request.onEnded);
    if (!signal) return run;
    return run.finally(() => signal.removeEventListener('abort', onAbort));
  };
}
