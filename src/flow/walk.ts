import { WeirError } from '../errors.js';
import type { Scope } from '../expr/index.js';
import type { WeirBus } from '../events.js';
import type { ExecutionTrace } from '../observe/traces.js';
import { onAbort } from '../util/abort.js';
import { emitSafely, hasListeners } from './bus-emit.js';
import { errorInfo } from './error-info.js';
import type { Graph, GraphNode } from './graph.js';
import { approvalOf, Context, type NodeContextDeps } from './node-context.js';
import { NodeLogs } from './node-logs.js';
import { runWithPolicy } from './policy.js';
import { Suspend } from './suspend.js';
import type { NodeLogLevel, NodeRecord, RunState } from './types.js';
import { addUsageRecord, NodeUsages } from './usage.js';

/** What a walk needs besides the graph and the run. */
export interface WalkDeps extends NodeContextDeps {
  bus: WeirBus;
  /** Stops the run: aborts the signal every running node holds. */
  stop(reason: WeirError): void;
  /** Emits a node's log line (already kept in its record). */
  log(nodeId: string, level: NodeLogLevel, message: string, data?: unknown): void;
  /** The executor's clock (ISO timestamps). */
  now(): string;
  /** The execution's spans, when something records or propagates them: a span per node that runs. */
  trace?: ExecutionTrace;
}

/** What a walk ends with: the last node that finished, and how many nodes wait. */
export interface WalkResult {
  last: string | null;
  waiting: number;
}

/** Whether a branching node that left by `handle` (one, or several in a fan-out) takes an edge of `edgeHandle`. */
const takes = (handle: NodeRecord['handle'], edgeHandle: string) => (typeof handle === 'string' ? handle === edgeHandle : handle !== undefined && handle.includes(edgeHandle));

const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof (v as PromiseLike<unknown>)?.then === 'function';

/**
 * Runs the nodes of a graph in dependency order and resolves when nothing is left to run. A node runs once
 * each incoming edge has delivered or been cut, and at least one delivered; when all were cut it is skipped,
 * which cuts its own outgoing edges. Nodes whose `run` returns a value (not a promise) run inline, so a chain
 * of synchronous nodes costs no promise per node; asynchronous nodes run concurrently.
 */
export function walk(graph: Graph, run: RunState, deps: WalkDeps): Promise<WalkResult> {
  const { nodes } = graph;
  const records = run.record.nodes;
  const { now } = deps;
  const remaining = graph.inCounts.slice();
  const live = new Uint8Array(nodes.length);
  const inbox: unknown[] = new Array(nodes.length);
  const inboxFrom: Array<string | undefined> = new Array(nodes.length);
  const attempts = new Int32Array(nodes.length);
  const logs: Array<NodeLogs | undefined> = [];
  const queue: number[] = [];
  const scope: Scope = { input: run.record.input, node: records, env: run.env, execution: deps.facade.variables };
  // A resumed run: the records of the nodes that finished before are reused, not run again.
  const prior = run.options.resume?.nodes;
  const wake = run.options.wake;
  const emitStart = hasListeners(deps.bus, 'node:start');
  const emitEnd = hasListeners(deps.bus, 'node:end');
  const { id: executionId, workflowId } = run.record;
  const { trace } = deps;
  let inflight = 0;
  let last: string | null = null;
  let waiting = 0;
  let finish!: (v: WalkResult) => void;
  const done = new Promise<WalkResult>((resolve) => (finish = resolve));
  const tokens = new NodeUsages(nodes.length, run, (index, model, c) => {
    if (hasListeners(deps.bus, 'llm:usage')) emitSafely(deps.bus, 'llm:usage', { executionId, workflowId, workflowName: run.record.workflowName, nodeId: nodes[index].info.id, model, ...c });
  });

  // Several predecessors: the input is an object of their data by node id; one: its data as is, also when it
  // delivers over two edges into the node.
  const deliver = (target: number, from: GraphNode, data: unknown) => {
    const prev = inboxFrom[target];
    if (prev === from.info.id) return;
    if (prev === undefined) {
      inbox[target] = data;
      inboxFrom[target] = from.info.id;
    } else if (prev !== '') {
      inbox[target] = { [prev]: inbox[target], [from.info.id]: data };
      inboxFrom[target] = '';
    } else (inbox[target] as Record<string, unknown>)[from.info.id] = data;
  };

  const settle = (target: number, taken: boolean, from: GraphNode, data: unknown) => {
    if (taken) {
      live[target] = 1;
      deliver(target, from, data);
    }
    if (--remaining[target] > 0) return;
    if (live[target]) queue.push(target);
    else skip(nodes[target]);
  };

  // A line goes into the node's record and out on the bus; past the record's limits it goes nowhere.
  function log(node: GraphNode, level: NodeLogLevel, message: string, data?: unknown) {
    if ((logs[node.index] ??= new NodeLogs()).add(level, message, now())) deps.log(node.info.id, level, message, data);
  }

  function skip(node: GraphNode) {
    records[node.info.id] = { data: null, status: 'skipped', startedAt: null, finishedAt: null };
    for (const e of node.out) settle(e.target, false, node, null);
  }

  function record(node: GraphNode, rec: NodeRecord, handle: NodeRecord['handle']) {
    if (attempts[node.index] > 0) rec.attempts = attempts[node.index] + 1;
    const used = tokens.of(node.index);
    if (used) rec.usage = used;
    if (handle !== undefined) rec.handle = handle;
    const lines = logs[node.index];
    if (lines) rec.logs = lines.lines();
    records[node.info.id] = rec;
    last = node.info.id;
    trace?.endNode(node.index, rec);
    if (emitEnd) emitSafely(deps.bus, 'node:end', { executionId, workflowId, nodeId: node.info.id, type: node.info.type, status: rec.status, startedAt: rec.startedAt, finishedAt: rec.finishedAt, ...(rec.error ? { error: { ...rec.error, message: run.mask(rec.error.message) } } : {}) });
    if (run.failure) return;
    for (const e of node.out) settle(e.target, e.handle === undefined || takes(handle, e.handle), node, rec.data);
  }

  /** A node that finished in an earlier run of this execution: its record stands, its edges deliver again. */
  function replay(node: GraphNode, rec: NodeRecord) {
    records[node.info.id] = rec;
    if (rec.usage) run.record.usage = addUsageRecord(run.record.usage, rec.usage);
    last = node.info.id;
    for (const e of node.out) settle(e.target, e.handle === undefined || takes(rec.handle, e.handle), node, rec.data);
  }

  function suspend(node: GraphNode, wait: Suspend['wait'], startedAt: string, progress = savedProgress(node)) {
    waiting++;
    const rec: NodeRecord = { data: null, status: 'waiting', startedAt, finishedAt: null, wait, ...(progress === undefined ? {} : { progress }) };
    const used = tokens.of(node.index);
    if (used) rec.usage = used;
    records[node.info.id] = rec;
    trace?.endNode(node.index, rec);
    if (emitEnd) emitSafely(deps.bus, 'node:end', { executionId, workflowId, nodeId: node.info.id, type: node.info.type, status: 'waiting', startedAt, finishedAt: null });
  }

  /** The progress a node saved in this run (a waiting node keeps it: it runs again from there when woken). */
  function savedProgress(node: GraphNode): unknown {
    const saved = records[node.info.id];
    return saved?.status === 'running' ? saved.progress : undefined;
  }

  function succeed(node: GraphNode, result: unknown, startedAt: string) {
    if (result instanceof Suspend) return suspend(node, result.wait, startedAt);
    let data = result;
    let handle: NodeRecord['handle'];
    if (node.handles) {
      // A branching node returns { handle, data }: only edges with that handle, one of those handles (a
      // fan-out), or none deliver.
      const branch = result as { handle?: unknown; data?: unknown } | null;
      const taken = branch?.handle;
      handle = taken === undefined ? undefined : Array.isArray(taken) ? taken.map(String) : String(taken);
      data = branch?.data;
    }
    record(node, { data: data === undefined ? null : data, status: 'success', startedAt, finishedAt: now() }, handle);
  }

  function fail(node: GraphNode, err: unknown, startedAt: string, error = errorInfo(err)) {
    const rec: NodeRecord = { data: null, status: 'error', startedAt, finishedAt: now(), error };
    if (node.continueOnError && !run.aborted) {
      rec.data = { error };
      return record(node, rec, undefined);
    }
    if (!run.failure) {
      run.failure = { ...error, node: node.info.id };
      deps.stop(new WeirError('CANCELLED', `stopped: node ${node.info.id} failed`));
    }
    record(node, rec, undefined);
  }

  function start(node: GraphNode) {
    const id = node.info.id;
    const before = prior?.[id];
    if (before) {
      if (before.usage && (before.status === 'running' || before.status === 'waiting') && !run.options.retryOf) tokens.carry(node.index, before.usage);
      if (before.status === 'waiting') {
        // Another node's wait ended: this one keeps waiting for what it waited for (a time is not moved on).
        if (wake?.nodeId !== id) return suspend(node, before.wait!, before.startedAt!, before.progress);
        // A node waiting on its children or for an approval runs again from its progress (below); a wait node ends with the wake.
        if (before.wait?.kind !== 'children' && before.wait?.kind !== 'approval') {
          trace?.startNode(node.index, node.info);
          if (wake.error) return fail(node, null, before.startedAt!, wake.error);
          return succeed(node, wake.data === undefined ? inbox[node.index] : wake.data, before.startedAt!);
        }
      }
      if (before.status === 'success' || (before.status === 'error' && node.continueOnError)) return replay(node, before);
    }
    const startedAt = now();
    if (emitStart) emitSafely(deps.bus, 'node:start', { executionId, workflowId, nodeId: id, type: node.info.type, startedAt });
    trace?.startNode(node.index, node.info);
    let out: unknown;
    try {
      const ctx = new Context(
        (node.render ? node.render(scope) : node.config) as Record<string, unknown>,
        inbox[node.index],
        node.info,
        (message, data, level = 'info') => log(node, level, message, data),
        run,
        deps,
        (before?.status === 'running' || before?.status === 'waiting') && !run.options.retryOf ? before.progress : undefined,
        startedAt,
        before?.status === 'waiting' && wake?.nodeId === id ? wake.ended : undefined,
        node.index,
        tokens,
        before?.status === 'waiting' && wake?.nodeId === id && wake.approval ? approvalOf(wake.approval) : undefined,
      );
      out = trace ? invokeTraced(trace, node, ctx) : invoke(node, ctx);
    } catch (err) {
      return fail(node, err, startedAt);
    }
    if (!isThenable(out)) return succeed(node, out, startedAt);
    inflight++;
    out.then(
      (value) => {
        inflight--;
        succeed(node, value, startedAt);
        afterAsync(node);
      },
      (err) => {
        inflight--;
        fail(node, err, startedAt);
        afterAsync(node);
      },
    );
  }

  // The closures of a traced or retried run live in functions of their own: a variable a closure captures
  // is allocated on the heap each time its scope is entered, so captured in `start` or `invoke` it would
  // cost every node of every run an allocation, traced or not, retried or not.

  /** Runs a node's `run` (its retry policy around it, if any); a node without `run` passes its input on. */
  function invoke(node: GraphNode, ctx: Context): unknown {
    const exec = node.def.run;
    if (!exec) return ctx.input;
    if (!node.policy) return exec(ctx);
    return invokeWithPolicy(node, node.policy, exec, ctx);
  }

  function invokeWithPolicy(node: GraphNode, policy: NonNullable<GraphNode['policy']>, exec: NonNullable<GraphNode['def']['run']>, ctx: Context): unknown {
    // Each attempt starts from the progress the ones before it stored.
    const attempt = (signal: AbortSignal) => {
      const saved = run.record.nodes[node.info.id];
      const progress = saved?.status === 'running' ? saved.progress : ctx.progress;
      return exec({ ...ctx, signal, onCancel: (fn) => onAbort(signal, fn), progress, saveProgress: (p) => ctx.saveProgress(p), recordUsage: (m, u) => ctx.recordUsage(m, u) });
    };
    return runWithPolicy(policy, node.info.id, run.signal, attempt, (n, err) => {
      attempts[node.index] = n;
      log(node, 'warn', `attempt ${n} failed, retrying: ${errorInfo(err).message}`);
    });
  }

  /** Runs a node with its span active (see ExecutionTrace.within). */
  function invokeTraced(trace: ExecutionTrace, node: GraphNode, ctx: Context): unknown {
    return trace.within(node.index, () => invoke(node, ctx));
  }

  // After an asynchronous node with effects outside the execution: what follows starts once the checkpoint
  // holding its record is stored. A pure node (a Code node, a read) needs none, its rerun being harmless;
  // when nothing follows or runs, the final record comes next anyway.
  function afterAsync(node: GraphNode) {
    const saving = !run.failure && !node.def.pure && deps.checkpoint && (queue.length || inflight) ? deps.checkpoint() : undefined;
    if (!saving) return pump();
    inflight++;
    const go = () => {
      inflight--;
      pump();
    };
    saving.then(go, go);
  }

  function pump() {
    while (queue.length && !run.failure) start(nodes[queue.shift()!]);
    if (inflight === 0) finish({ last, waiting });
  }

  const trigger = nodes[graph.trigger];
  const resumedTrigger = prior?.[trigger.info.id];
  if (resumedTrigger) replay(trigger, resumedTrigger);
  else {
    const at = now();
    if (emitStart) emitSafely(deps.bus, 'node:start', { executionId, workflowId, nodeId: trigger.info.id, type: trigger.info.type, startedAt: at });
    trace?.startNode(trigger.index, trigger.info);
    record(trigger, { data: run.record.input, status: 'success', startedAt: at, finishedAt: at }, undefined);
  }
  for (const i of graph.orphans) skip(nodes[i]);
  pump();
  return done;
}
