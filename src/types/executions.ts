import type { ErrorInfo, ExecutionRecord } from '../flow/types.js';

/**
 * Execution records (`weir.executions`, the `cloud:executions` mount), written in batches per workflow.
 * @example
 * const [last] = await weir.executions.list({ workflowId: 'wf_1', limit: 1 })
 * const record = await weir.executions.get(last.id)
 */
export interface Executions {
  /**
   * Stores a record (a copy taken now); resolves once the batch holding it is written. Saves made while a
   * batch is being written wait for the next one.
   */
  save(record: ExecutionRecord): Promise<void>;
  /** Marks a run in progress here: `get` and `list` show `view()` until {@link untrack}. */
  track(id: string, workflowId: string, view: () => ExecutionRecord): void;
  /** Forgets a run {@link track}ed (once its final record is stored). */
  untrack(id: string, view: () => ExecutionRecord): void;
  /** One execution with each node's output record. */
  get(id: string): Promise<ExecutionRecord>;
  /**
   * Which of `ids` have a finished record written at or after `since` (ms): one pass over those batches,
   * for a host that replays many deliveries at once and must skip the ones that ran before a crash.
   */
  endedAmong(ids: ReadonlySet<string>, since: number): Promise<Set<string>>;
  /** Executions newest first (by start), of one workflow or of all. */
  list(options?: {
    workflowId?: string;
    limit?: number;
  }): Promise<ExecutionRecord[]>;
  /**
   * Removes a workflow's batches beyond the retention limits (whole batches: the newest `maxPerWorkflow`
   * records are kept with the rest of the batch that holds the last of them); returns how many records went.
   */
  prune(workflowId: string, now?: number): Promise<number>;
  /** Prunes a workflow at most once a minute per instance: called after each execution. */
  pruneIfDue(workflowId: string): Promise<void>;
}

/**
 * What polling a status URL answers (`GET /executions/<token>`, `weir.intake.status(token)`): the execution's
 * status, its `result` once it succeeded, its `error` once it failed.
 * @example
 * const res = await fetch(statusUrl) // 404 once the record is pruned or for a token weir did not issue
 * const view: ExecutionStatusView = await res.json() // { executionId: 'exec_…', status: 'success', result: { ok: true } }
 */
export interface ExecutionStatusView {
  executionId: string;
  status: ExecutionRecord['status'];
  /** Only when `status` is `success`. */
  result?: unknown;
  /** Only when `status` is `error`. */
  error?: Pick<ErrorInfo, 'code' | 'message' | 'node'>;
}
