import { setTimeout as sleep } from 'node:timers/promises';
import type { WeirBus } from '../events.js';
import type { ExecutionRecord, RunOptions, Wake } from '../flow/types.js';
import type { ExecutionLimiter } from '../runtime/execution-limiter.js';
import type { ExecutionConfigs, OpenExecutions } from '../resources/executions/index.js';
import type { WorkflowConfig } from '../resources/workflows/types.js';
import { dueAtOf, dueKey, parseDueKey, type Due, type WaitStore } from './store.js';
import type { WakeTimer } from '../util/wake-timer.js';

/**
 * Keys are released this long before their time, so reading the execution and claiming its wake happen
 * before it rather than making every wake that late; the run itself never starts before the time.
 */
export const LEAD_MS = 50;
/** A wake claimed by another host, or whose run failed to start, is looked at again after this long. */
export const RETRY_MS = 30_000;
const CONFIG_CACHE = 200;

/** Options of {@link createWaker}. */
export interface WakerOptions {
  store: WaitStore;
  open: Pick<OpenExecutions, 'get' | 'real'>;
  /** The configs executions ran (a wake resumes against the one of its record's hash). */
  configs: Pick<ExecutionConfigs, 'get'>;
  /** Runs an execution on this process (the executor's `run`). */
  execute(request: RunOptions): Promise<ExecutionRecord>;
  /** The host's limiter: a shutdown waits for the woken runs. */
  limiter: Pick<ExecutionLimiter, 'run'>;
  bus: WeirBus;
  timer: () => WakeTimer | null;
  /** True for exactly one of the hosts sharing storage (per wait and attempt); absent: this host alone. */
  claim?(name: string, at: number): Promise<boolean>;
  now(): number;
}

/** The wake keys of a waiting node: its time, or its webhook timeout (a wait on children has none: their ends wake it). */
export function dueOf(record: ExecutionRecord, nodeId: string): Due | null {
  const wait = record.nodes[nodeId]?.wait;
  const at = wait?.kind === 'time' ? Date.parse(wait.until) : wait?.kind === 'webhook' && wait.timeoutAt ? Date.parse(wait.timeoutAt) : NaN;
  return Number.isNaN(at) ? null : { at, executionId: record.id, nodeId };
}

/**
 * Ends waits: `wake(key)` reads the execution's open entry and, when that node still waits (and the
 * execution is not already running here), claims the wait and runs the execution on through the limiter
 * with the wake (its input for a time wait, the call's data or a TIMEOUT for a webhook wait, the decision for an
 * approval wait, which goes once the run is stored). The index entry
 * goes only once that run stored its next state, so a crash in between wakes it again; an entry whose
 * execution no longer waits there (finished, cancelled, woken by another host) is just dropped.
 * @example
 * const waker = createWaker({ store, open: executions.open, configs: executions.configs, execute, limiter, bus, timer: () => timer, now: Date.now })
 * await waker.wake('1767225600000.exec_1.wait-1')
 */
export function createWaker(options: WakerOptions) {
  const { store, bus, now } = options;
  const running = new Set<string>();
  const deferred = new Map<string, string[]>();
  const configs = new Map<string, WorkflowConfig>();

  async function configOf(record: ExecutionRecord): Promise<WorkflowConfig | null> {
    const id = `${record.workflowId}@${record.hash}`;
    let config = configs.get(id);
    if (config) return config;
    config = (record.hash && (await options.configs.get(record.workflowId, record.hash))) || undefined;
    if (!config) return null;
    if (configs.size >= CONFIG_CACHE) configs.delete(configs.keys().next().value!);
    configs.set(id, config);
    return config;
  }

  const drop = async (key: string) => {
    options.timer()?.remove(key);
    await store.removeDue(key);
  };
  const retryLater = (key: string) => options.timer()?.add(key, now() + RETRY_MS);

  /** The wake of a waiting node: a time wait's input, an early call's data, a timeout, a decision, or null (not yet). */
  async function wakeOf(record: ExecutionRecord, nodeId: string, childId?: string): Promise<{ wake: Wake; early: boolean } | null> {
    const wait = record.nodes[nodeId].wait!;
    if (wait.kind === 'time') return Date.parse(wait.until) <= now() ? { wake: { nodeId }, early: false } : null;
    // One of its children ended (or may have): the node runs again and reads that one (all, for a key naming
    // none), waiting on again for the others.
    if (wait.kind === 'children') return { wake: childId ? { nodeId, ended: [childId] } : { nodeId }, early: false };
    // Decided (a wake key comes only with a decision): the node runs again with it.
    if (wait.kind === 'approval') {
      const decision = await store.decision(record.id);
      return decision ? { wake: { nodeId, approval: decision }, early: false } : null;
    }
    const call = await store.early(record.id);
    if (call) return { wake: { nodeId, data: call.data }, early: true };
    if (wait.timeoutAt && Date.parse(wait.timeoutAt) <= now()) {
      return { wake: { nodeId, error: { code: 'TIMEOUT', message: `no call to the resume URL before ${wait.timeoutAt}` } }, early: false };
    }
    return null;
  }

  async function wake(key: string): Promise<void> {
    const due = parseDueKey(key);
    if (!due) return drop(key);
    if (running.has(due.executionId)) {
      // It is being woken here (its run may have just reached another wait): look again once that is done.
      deferred.set(due.executionId, [...(deferred.get(due.executionId) ?? []), key]);
      return;
    }
    running.add(due.executionId);
    try {
      const entry = await options.open.get(due.executionId);
      const node = entry?.record.status === 'waiting' ? entry.record.nodes[due.nodeId] : undefined;
      if (!entry || node?.status !== 'waiting' || !node.wait) {
        // A child's end while its parent's node runs elsewhere (a wake of another host): the parent reads only
        // the children that woke it, so this end is kept for when it waits again rather than lost.
        if (due.childId && entry?.record.nodes[due.nodeId]?.status === 'running') return void retryLater(key);
        return await drop(key);
      }
      // The resumed run continues from the real data (sealed where a secret was).
      const record = await options.open.real(entry.record);
      if (options.claim) {
        const attempt = Math.floor(now() / RETRY_MS) * RETRY_MS;
        if (!(await options.claim(`${record.id}.${due.nodeId}.${node.startedAt}`, attempt))) return void retryLater(key);
      }
      const config = await configOf(record);
      // Released a little ahead of time (see LEAD_MS): the reads above are done, the run starts on the dot.
      // A timer may fire a millisecond before the clock reads its time: sleep until it does.
      for (let ahead = due.at - now(); ahead > 0; ahead = due.at - now()) await sleep(ahead);
      const found = await wakeOf(record, due.nodeId, due.childId);
      if (!found) {
        // An approval wait has no time of its own: a key without its decision (used up meanwhile) goes.
        if (node.wait.kind === 'approval') return await drop(key);
        // Woken before its time (a call's wake that another one took): its own time is in the index.
        const own = dueOf(record, due.nodeId);
        if (own && dueKey(own) !== key) return await drop(key);
        return void options.timer()?.add(key, own?.at ?? now() + RETRY_MS);
      }
      if (!config) {
        bus.emit('wait:error', { executionId: record.id, nodeId: due.nodeId, error: new Error(`the config of workflow ${record.workflowId} (hash ${record.hash}) is not stored`) });
        return await drop(key);
      }
      const wokenAt = now();
      if (node.wait.kind === 'webhook') await store.putEnded(record.workflowId, record.id, wokenAt);
      bus.emit('wait:woken', { executionId: record.id, nodeId: due.nodeId, late: wokenAt - due.at });
      await options.limiter.run((release) =>
        options.execute({
          workflow: { id: record.workflowId, name: record.workflowName, version: record.version, config, hash: record.hash, draft: record.draft },
          input: record.input,
          trigger: record.trigger,
          executionId: record.id,
          resume: record,
          wake: found.wake,
          onEnded: release,
          background: true,
        }),
      );
      // The run stored its next state: this wait is over, and so are its other keys.
      const own = dueOf(record, due.nodeId);
      const decided = found.wake.approval;
      await Promise.all([
        drop(key),
        own && dueKey(own) !== key ? drop(dueKey(own)) : undefined,
        found.early ? store.removeEarly(record.id) : undefined,
        decided ? store.removeDecision(record.id, decided.at) : undefined,
      ]);
    } catch (error) {
      bus.emit('wait:error', { executionId: due.executionId, nodeId: due.nodeId, error });
      retryLater(key);
    } finally {
      running.delete(due.executionId);
      const later = deferred.get(due.executionId);
      deferred.delete(due.executionId);
      for (const k of later ?? []) options.timer()?.add(k, dueAtOf(k));
    }
  }

  return {
    wake,
    /** Whether an execution is being woken here right now. */
    isRunning: (executionId: string) => running.has(executionId),
  };
}
