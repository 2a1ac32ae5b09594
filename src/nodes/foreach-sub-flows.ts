import { WeirError } from '../errors.js';
import { Suspend } from '../flow/suspend.js';
import { childOf } from '../flow/children.js';
import type { ChildExecution, ErrorInfo, ExecutionRecord } from '../flow/types.js';
import { newExecutionId } from '../resources/executions/ids.js';
import { MAX_CALL_DEPTH } from './call-flow.js';
import type { NodeContext } from './define.js';
import { service } from './resources/common.js';

/** How a foreach runs its sub-flow: which, how many runs at once, items per run, and what a failed item does. */
export interface SubFlowOptions {
  flow: string;
  parallelism: number;
  batchSize: number;
  onItemError: 'stop' | 'continue';
}

/**
 * What a foreach stores as it goes (`ctx.saveProgress`), by the index of a run's first item: the execution id
 * each run is given before it starts, and the entries of the runs that ended (stored with the next
 * checkpoint). A resume reuses the entries and awaits the executions, so no item runs twice.
 */
interface Progress {
  started: Record<string, string>;
  done: Record<string, unknown[]>;
}

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? `an array of ${v.length}` : typeof v);

/**
 * Runs the published flow once per item (`{item, index}`) or per batch (`{items, index}`, index of its first
 * item), `parallelism` runs at a time, each its own execution listed in this one's `children`; resolves with
 * one entry per item in item order. A failed run fails the node under `stop` (the runs not started are not,
 * the running and waiting ones are cancelled) or puts `{error}` in its items' places under `continue`. Runs that
 * wait (a `wait` node) make the node wait once the other items are done: its progress is stored, and each of
 * them that ends wakes it (src/waits) to run again from there, so their final results land in their places.
 * @example
 * await runSubFlows(ctx, [{ id: 1 }, { id: 2 }], { flow: 'charge', parallelism: 8, batchSize: 1, onItemError: 'continue' })
 */
export async function runSubFlows(ctx: NodeContext<any>, items: unknown[], options: SubFlowOptions): Promise<unknown[] | Suspend> {
  const { flow, parallelism, batchSize, onItemError } = options;
  const depth = ctx.execution.depth + 1;
  if (depth > MAX_CALL_DEPTH) throw new WeirError('RULE', `foreach: flows nest more than ${MAX_CALL_DEPTH} deep (does a flow run itself?)`);
  const run = service(ctx, 'run');
  const prior = ctx.progress as Progress | undefined;
  const progress: Progress = { started: { ...prior?.started }, done: { ...prior?.done } };
  const results = new Array<unknown>(items.length);
  const todo: number[] = [];
  for (let first = 0; first < items.length; first += batchSize) {
    const entries = progress.done[first];
    if (entries) for (let j = 0; j < entries.length; j++) results[first + j] = entries[j];
    else todo.push(first);
  }
  // Under `stop`, a failed item cancels the runs still going; the parent's cancel reaches them through `signal` too.
  const stopping = new AbortController();
  const signal = AbortSignal.any([ctx.signal, stopping.signal]);
  const nodeId = ctx.node.id;
  // The runs' ids are stored beforehand (see `reserve`), so a child is listed without a checkpoint of its own.
  const parent = { ...childOf(ctx.execution, nodeId), adopt: (child: ChildExecution) => ctx.execution.adopt(child, false) };

  // Ids for the next runs, stored in one checkpoint before any of them starts: a crash then leaves, for each,
  // either its own record to await or nothing of it, and then it runs under the same id. One checkpoint per
  // chunk rather than per run keeps a long loop from writing its growing record once per item.
  const chunk = parallelism * 16;
  let reserved = 0;
  let reserving: Promise<void> | null = null;
  function reserve(upTo: number): Promise<void> | null {
    if (upTo < reserved) return reserving;
    const end = Math.min(todo.length, upTo + chunk);
    for (let k = reserved; k < end; k++) progress.started[todo[k]] ??= newExecutionId();
    reserved = end;
    return (reserving = ctx.saveProgress(progress));
  }

  // Woken by children that ended: the others still wait (each one's end wakes the node in turn), unread. A wake
  // then reads what woke it, not every child still waiting.
  const woken = ctx.woken && new Set(ctx.woken);

  /** The run of the batch at `first` (the k-th to do): the execution a run before a crash started, else a new one. */
  async function execution(k: number, first: number, input: unknown): Promise<ExecutionRecord | string> {
    const known = prior?.started[first];
    if (known && woken && !woken.has(known)) return known;
    if (known) {
      const found = await service(ctx, 'awaitExecution')(known, signal);
      if (found) {
        void ctx.execution.adopt({ executionId: found.id, workflowId: found.workflowId, nodeId }, false);
        return found;
      }
    }
    const saving = reserve(k);
    if (saving) await saving;
    signal.throwIfAborted();
    return run(flow, input, { published: true, trigger: 'foreach', signal, depth, parent, executionId: progress.started[first] });
  }

  /** One entry per item of the batch at `first`; throws under `stop` when its run failed. */
  function entriesOf(record: ExecutionRecord, first: number, count: number): unknown[] {
    const items = count === 1 && batchSize === 1 ? `item ${first}` : `items ${first}-${first + count - 1}`;
    let error: ErrorInfo | undefined;
    if (record.status !== 'success') error = record.error ?? { code: 'EXECUTION_FAILED', message: `the sub-flow ended ${record.status}` };
    else if (batchSize === 1) return [record.result];
    else if (Array.isArray(record.result) && record.result.length === count) return record.result;
    else error = { code: 'EXECUTION_FAILED', message: `the sub-flow's result must be an array of ${count} (one entry per item), got ${kindOf(record.result)}` };
    if (onItemError === 'stop') throw new WeirError(error.code === 'CANCELLED' ? 'CANCELLED' : 'EXECUTION_FAILED', `foreach: ${items} failed: ${error.message} (execution ${record.id})`);
    const entry = { error: { code: error.code, message: error.message, executionId: record.id } };
    return Array.from({ length: count }, () => entry);
  }

  let failure: { error: unknown } | undefined;
  /** The runs that wait, by the index of their first item (their ids stay in `progress.started`). */
  const waiting: string[] = [];
  let next = 0;
  async function worker(): Promise<void> {
    while (!failure && next < todo.length && !signal.aborted) {
      const k = next++;
      const first = todo[k];
      const count = Math.min(batchSize, items.length - first);
      const input = batchSize === 1 ? { item: items[first], index: first } : { items: items.slice(first, first + count), index: first };
      try {
        const record = await execution(k, first, input);
        if (typeof record === 'string') {
          waiting.push(record);
          continue;
        }
        if (record.status === 'waiting') {
          waiting.push(record.id);
          continue;
        }
        const entries = entriesOf(record, first, count);
        for (let j = 0; j < count; j++) results[first + j] = entries[j];
        // Kept with the next checkpoint (the run's own record holds its result already).
        progress.done[first] = entries;
        delete progress.started[first];
      } catch (error) {
        failure ??= { error };
        stopping.abort(error);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallelism, todo.length) }, worker));
  if (failure || ctx.signal.aborted) {
    // The waiting runs are this node's too: awaiting them with the aborted signal cancels them.
    const awaitExecution = service(ctx, 'awaitExecution');
    await Promise.all(waiting.map((id) => awaitExecution(id, signal).catch(() => {})));
    throw failure ? failure.error : ctx.signal.reason;
  }
  if (waiting.length) {
    await ctx.saveProgress(progress);
    return new Suspend({ kind: 'children', executionIds: waiting });
  }
  return results;
}
