import { join } from 'node:path';
import type { Cluster } from '../cluster/index.js';
import type { WeirError } from '../errors.js';
import type { WeirBus } from '../events.js';
import type { ExecutionRecord, RunOptions, RunState } from '../flow/types.js';
import { fsProbe } from '../runtime/changes.js';
import type { ExecutionLimiter } from '../runtime/execution-limiter.js';
import type { Clock } from '../triggers/schedule/scheduler.js';
import type { Executions } from '../resources/executions/index.js';
import type { Storages } from '../storage/index.js';
import type { ResumeCall, Waits } from '../types/waits.js';
import { sha256 } from '../util/ids.js';
import { announcer } from './announce.js';
import { createApprovals } from './approvals.js';
import { indexLegacyWaits } from './legacy.js';
import { dueAtOf, dueKey, parseDueKey, type Due, type WaitStore } from './store.js';
import { createWakeTimer, type WakeTimer } from '../util/wake-timer.js';
import type { ResumeTokens } from './tokens.js';
import { createWaker, dueOf, LEAD_MS } from './wake.js';

export { createWaitStore, type WaitStore } from './store.js';
export { createResumeTokens, type ResumeTokens } from './tokens.js';
export { parseDuration } from './duration.js';
export type { Waits, ResumeCall, ApprovalAnswer } from '../types/waits.js';

/** Wakes started at once; more wait in the heap (a restart after a long stop wakes its backlog in steps). */
const WAKES_AT_ONCE = 64;
/** Wake keys added to the heap per event-loop turn while the index loads. */
const LOAD_SLICE = 5000;
/** How often a host reads the whole index again. */
const RESCAN_MS = 5 * 60_000;
const ACTIVE = new Set(['queued', 'running', 'waiting']);
const ENDED = new Set(['success', 'error', 'cancelled']);
/** The triggers of child runs whose parent node waits on them (a foreach item's sub-flow, an agent's tool flow). */
const AWAITED_BY_PARENT = new Set(['foreach', 'agent']);

/** Options of {@link createWaits}. */
export interface WaitsOptions {
  storage: Pick<Storages, 'dir'>;
  store: WaitStore;
  tokens: ResumeTokens;
  executions: Pick<Executions, 'get' | 'open' | 'configs' | 'retainedAmong'>;
  execute(request: RunOptions): Promise<ExecutionRecord>;
  limiter: Pick<ExecutionLimiter, 'run'>;
  bus: WeirBus;
  cluster: Pick<Cluster, 'publish' | 'subscribe'> | null;
  /** Several hosts on one storage: one of them wins each wake and each resume call. */
  claim?(name: string, at: number): Promise<boolean>;
  clock?: Clock;
}

/**
 * Waiting executions. Every run that ends `waiting` gets its wakes stored (`due:` keys holding the time) and
 * its flow config kept per config hash, by the two executor hooks (`prepare` before the record is stored,
 * `register` after). A started host loads the keys into one timer heap (in the background: listening does
 * not wait for it) and wakes each wait when due, or at once after a restart that came after its time.
 * Resume URLs (`$execution.resumeUrl`) end webhook waits; a call that comes before its wait is kept and ends
 * the wait as soon as it is reached. Tokens, kept calls and ended times go when the execution's record is
 * pruned (the executions are given the store for that); a start indexes those an earlier version stored.
 * @example
 * const waits = createWaits({ storage, store, tokens, executions, execute: executor.run, limiter, bus, cluster })
 * executor.hooks['execution:end'].unshift(waits.hooks.prepare)
 * executor.hooks['execution:end'].push(waits.hooks.register)
 * void waits.start()
 */
export function createWaits(options: WaitsOptions): Waits & { hooks: { prepare(run: RunState): Promise<void> | void; register(run: RunState): Promise<void> | void } } {
  const { store, tokens, bus } = options;
  const now = options.clock?.now ?? Date.now;
  const using = new Set<string>();
  const starting = new Set<Promise<unknown>>();
  let timer: WakeTimer | null = null;
  let started: Promise<number> | null = null;
  let inflight = 0;
  let rescan: ReturnType<typeof setInterval> | null = null;
  const waker = createWaker({ store, open: options.executions.open, configs: options.executions.configs, execute: options.execute, limiter: options.limiter, bus, timer: () => timer, claim: options.claim, now });
  const announce = announcer({ store, cluster: options.cluster, probeDir: options.storage.dir('cloud') ? join(options.storage.dir('cloud')!, 'waits', 'new') : undefined, probe: fsProbe, add: (key) => timer?.add(key, dueAtOf(key)) });

  const track = <T>(p: Promise<T>): Promise<T> => {
    starting.add(p);
    void p.finally(() => starting.delete(p)).catch(() => {});
    return p;
  };

  /** Adds every stored wake key to the timer (those it holds stay as they are); resolves with how many. */
  async function load(t: WakeTimer): Promise<number> {
    const keys = await store.dueKeys();
    for (let i = 0; i < keys.length; i += LOAD_SLICE) {
      for (const key of keys.slice(i, i + LOAD_SLICE)) t.add(key, dueAtOf(key));
      if (i + LOAD_SLICE < keys.length) await new Promise((resolve) => setImmediate(resolve));
    }
    return keys.length;
  }

  async function addDues(dues: Due[]): Promise<void> {
    if (!dues.length) return;
    await Promise.all(dues.map((d) => store.addDue(d)));
    const keys = dues.map(dueKey);
    for (const key of keys) timer?.add(key, dueAtOf(key));
    announce.send(keys);
  }

  /** Wakes a node at once (a resume call reached it): the key is stored first, so a crash still wakes it. */
  async function wakeNow(executionId: string, nodeId: string): Promise<void> {
    const due = { at: now(), executionId, nodeId };
    await store.addDue(due);
    if (timer) timer.add(dueKey(due), due.at);
    else void track(waker.wake(dueKey(due)));
  }
  // A decision wakes its node through the index like a new wait: this host's timer, else a host told of it
  // (the CLI's decision is run by the `weir serve` on its home, which has the flow's node types).
  const approvals = createApprovals({ store, executions: options.executions, wake: (executionId, nodeId) => addDues([{ at: now(), executionId, nodeId }]), now });

  const waitingWebhook = (record: ExecutionRecord | null | undefined): string | undefined =>
    record?.status === 'waiting' ? Object.keys(record.nodes).find((id) => record.nodes[id].status === 'waiting' && record.nodes[id].wait?.kind === 'webhook') : undefined;

  async function prepareWaiting(run: RunState): Promise<void> {
    await tokens.stored(run.record.id);
    const { workflow } = run.options;
    const hash = run.record.hash ?? workflow.hash ?? sha256(JSON.stringify(workflow.config)).slice(0, 32);
    run.record.hash = hash;
    await options.executions.configs.save(workflow.id, hash, workflow.config);
  }

  async function registerWaiting(run: RunState): Promise<void> {
    const record = run.record;
    const dues: Due[] = [];
    for (const nodeId of Object.keys(record.nodes)) {
      if (record.nodes[nodeId].status !== 'waiting') continue;
      const own = dueOf(record, nodeId);
      if (own) dues.push(own);
    }
    const webhook = waitingWebhook(record);
    if (webhook && (await store.early(record.id))) dues.push({ at: now(), executionId: record.id, nodeId: webhook });
    dues.push(...(await childrenEnded(run)));
    const approval = await approvals.pending(run);
    if (approval) dues.push(approval);
    await addDues(dues);
  }

  /**
   * Wakes for the children, newly waited on, that ended already. Read after this record is stored: a child that
   * ended before it could not wake it (see `wakeParent`), one that ends after it will. The children the node
   * waited on before this run are not read again (a key of theirs that came while it ran is deferred or tried
   * again, see the waker), so a wake costs reads of the children it started, not of all that still wait.
   */
  async function childrenEnded(run: RunState): Promise<Due[]> {
    const { record } = run;
    const dues: Due[] = [];
    for (const [nodeId, node] of Object.entries(record.nodes)) {
      if (node.status !== 'waiting' || node.wait?.kind !== 'children') continue;
      const before = run.options.resume?.nodes[nodeId]?.wait;
      const known = new Set(before?.kind === 'children' ? before.executionIds : []);
      const fresh = node.wait.executionIds.filter((id) => !known.has(id));
      const children = await Promise.all(fresh.map((id) => options.executions.get(id).catch(() => null)));
      children.forEach((child, i) => {
        if (!child || ENDED.has(child.status)) dues.push({ at: now(), executionId: record.id, nodeId, childId: fresh[i] });
      });
    }
    return dues;
  }

  /**
   * A foreach's sub-flow ended: its parent's node, if it waits on it, is woken for it (stored as a wake key
   * naming the child, so another host or a restart wakes it too; a parent that does not wait then drops it).
   * Only a resumed run can have been waited on: one that ended in its first run handed its result to the
   * foreach that started it, and costs no key.
   */
  function wakeParent(run: RunState): Promise<void> | undefined {
    const { record } = run;
    if (!run.options.resume || !record.parentExecutionId || !record.parentNodeId || !AWAITED_BY_PARENT.has(record.trigger) || !ENDED.has(record.status)) return undefined;
    return addDues([{ at: now(), executionId: record.parentExecutionId, nodeId: record.parentNodeId, childId: record.id }]);
  }

  return {
    hooks: {
      /** Before the waiting record is stored: its tokens are stored, its config kept, its hash set. */
      prepare(run) {
        // Synchronous for every other run: an async hook would cost each execution's end a promise.
        return run.record.status === 'waiting' ? prepareWaiting(run) : undefined;
      },
      /** After the record is stored: a waiting one's wakes go into the index (a kept call wakes it at once); an ended sub-flow wakes its parent. */
      register(run) {
        return run.record.status === 'waiting' ? registerWaiting(run) : wakeParent(run);
      },
    },

    start() {
      if (started) return started;
      timer = createWakeTimer({
        clock: options.clock,
        ready: () => inflight < WAKES_AT_ONCE,
        leadMs: LEAD_MS,
        due(key) {
          inflight++;
          void track(waker.wake(key)).finally(() => {
            inflight--;
            timer?.resume();
          });
        },
      });
      const t = timer;
      started = (async () => {
        // After the host's own start (it opens its port meanwhile), in slices that leave the loop free.
        await new Promise((resolve) => setImmediate(resolve));
        const from = performance.now();
        const count = await load(t);
        await announce.listen();
        // A wait whose announcement was lost (its host died at that moment) is found by the next full read.
        rescan = setInterval(() => void load(t).catch((error) => bus.emit('wait:error', { error })), RESCAN_MS);
        rescan.unref();
        bus.emit('waits:loaded', { count, ms: Math.round(performance.now() - from) });
        // Tokens stored by an earlier version get the entries that let pruning find them (once per storage).
        void track(indexLegacyWaits({ store, executions: options.executions, now })).catch((error) => bus.emit('wait:error', { error }));
        return count;
      })();
      started.catch((error) => bus.emit('wait:error', { error }));
      return started;
    },

    async stop() {
      timer?.stop();
      if (rescan) clearInterval(rescan);
      await announce.stop();
      await Promise.all(starting);
    },

    async resume(token: string, call: ResumeCall) {
      if (using.has(token)) return null;
      using.add(token);
      try {
        const record = await tokens.lookup(token);
        if (!record || record.used) return null;
        if (options.claim && !(await options.claim(`resume.${token}`, Math.floor(now() / 60_000) * 60_000))) return null;
        // A webhook wait that ended spent the resume URLs issued before it; approval URLs are spent by their own use.
        if (record.kind !== 'approval' && record.issuedAt < (await store.ended(record.executionId))) return null;
        const execution = await options.executions.get(record.executionId).catch((err) => {
          if ((err as WeirError).code === 'NOT_FOUND') return null;
          throw err;
        });
        // Not found anywhere yet: it runs in another process that has not stored it so far.
        if (execution && !ACTIVE.has(execution.status)) return null;
        if (record.kind === 'approval') return await approvals.byUrl(record.executionId, call, () => tokens.markUsed(token, record));
        await store.putEarly(record.executionId, { data: call, at: now() });
        await tokens.markUsed(token, record);
        // Read again after the call is kept: an execution that reached its wait meanwhile finds it either way.
        const entry = await options.executions.open.get(record.executionId);
        const nodeId = waitingWebhook(entry?.record);
        if (nodeId) await wakeNow(record.executionId, nodeId);
        return { executionId: record.executionId };
      } finally {
        using.delete(token);
      }
    },

    approve: (executionId, decision) => approvals.approve(executionId, decision),

    async forget(executionId) {
      const keys = timer?.keys((key) => parseDueKey(key)?.executionId === executionId) ?? [];
      for (const key of keys) timer!.remove(key);
      await Promise.all(keys.map((key) => store.removeDue(key)));
    },

    get size() {
      return timer?.size ?? 0;
    },
    get timers() {
      return timer?.timers ?? 0;
    },
  };
}
