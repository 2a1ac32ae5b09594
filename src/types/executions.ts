import type { ApprovalAnswer } from './waits.js';
import type { ErrorInfo, ExecutionRecord, ExecutionStatus } from '../flow/types.js';
import type { OpenExecutions } from '../resources/executions/open.js';
import type { ExecutionConfigs } from '../resources/executions/configs.js';

/**
 * Records kept elsewhere for some executions (a webhook wait's resume tokens, a kept call, when its wait
 * ended): they live as long as the execution's record, and a prune that removes the record removes them.
 * @example
 * createExecutions({ storage, linked: createWaitStore(storage.view('cloud', 'waits')) })
 */
export interface LinkedRecords {
  /** The ids of a workflow's executions that have such records. */
  executionsOf(workflowId: string): Promise<string[]>;
  /** Removes the records of these executions of a workflow (their own records are going). */
  removeOf(workflowId: string, executionIds: string[]): Promise<void>;
}

/** What {@link Executions.page} reads: `limit` defaults to 20 (at most 500). */
export interface ExecutionPageOptions {
  workflowId?: string;
  status?: ExecutionStatus;
  /** The `nextCursor` of the page before. */
  cursor?: string;
  limit?: number;
}

/** One page of executions and the cursor of the next (null: this is the last). */
export interface ExecutionPage {
  items: ExecutionRecord[];
  nextCursor: string | null;
}

/**
 * Execution records (`weir.executions`, the `cloud:executions` mount), written in batches per workflow.
 * @example
 * const [last] = await weir.executions.list({ workflowId: 'wf_1', limit: 1 })
 * const record = await weir.executions.get(last.id)
 */
export interface Executions {
  /** Unfinished executions (past a checkpoint, or waiting): their latest record, to resume from. */
  readonly open: OpenExecutions;
  /** The configs unfinished and failed executions ran, to resume or retry them against. */
  readonly configs: ExecutionConfigs;
  /**
   * Stores a record (a copy taken now); resolves once the batch holding it is written. Saves made while a
   * batch is being written wait for the next one. With `linger` (nobody waits for it) it may also wait a few
   * milliseconds for the records of other runs still going, to share their file.
   */
  save(record: ExecutionRecord, options?: { linger?: boolean }): Promise<void>;
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
  /**
   * Which of `ids`, executions of one workflow, still have a record (open, running here or in a batch): one
   * pass over the workflow's batches.
   */
  retainedAmong(workflowId: string, ids: ReadonlySet<string>): Promise<Set<string>>;
  /** Executions newest first (by start), of one workflow or of all: the first {@link page}s, up to `limit`. */
  list(options?: {
    workflowId?: string;
    limit?: number;
  }): Promise<ExecutionRecord[]>;
  /**
   * One page of executions, newest first (by start; ties by id, the later first), of one workflow or of
   * all, of one status or of any. `nextCursor` (null on the last page) fetches the page after this one; a
   * cursor stays valid while new executions start (they are newer than every page already read). A page
   * reads the keys of the workflow's batches and only the batches (and unfinished entries) it needs; one
   * workflow's page reads nothing of another's. A cursor weir did not hand out, or an unknown status, is
   * INVALID_INPUT.
   * @example
   * const first = await weir.executions.page({ workflowId: 'wf_1', status: 'error', limit: 50 })
   * const second = first.nextCursor ? await weir.executions.page({ workflowId: 'wf_1', status: 'error', cursor: first.nextCursor }) : null
   */
  page(options?: ExecutionPageOptions): Promise<ExecutionPage>;
  /**
   * A workflow's newest execution, and how many of its executions that started at or after `since` (ms)
   * ended in `error`: counted from the status tallies in its batch keys, so only the batches with an error
   * that straddle `since` are read (besides the few the newest execution may be in).
   * @example
   * const { last, errorsSince } = await weir.executions.activity('wf_1', Date.now() - 86_400_000)
   */
  activity(workflowId: string, since: number): Promise<{ last: ExecutionRecord | null; errorsSince: number }>;
  /**
   * Removes a workflow's batches beyond the retention limits (whole batches: the newest `maxPerWorkflow`
   * records are kept with the rest of the batch that holds the last of them), and the linked records of the
   * executions whose final record went with them; returns how many records went.
   */
  prune(workflowId: string, now?: number): Promise<number>;
  /**
   * Prunes a workflow once a minute per instance, or sooner once `maxPerWorkflow` (at least 256) of its
   * records were stored here since its last prune; never two prunes of one workflow at once. Called after
   * each execution.
   */
  pruneIfDue(workflowId: string): Promise<void>;
}

/**
 * Control of executions (`weir.executions`): cancel one, retry a failed one, run one's input again. Each
 * resolves with a record: the cancelled execution's, or the new execution's once it ended.
 * @example
 * await weir.executions.cancel('exec_123')
 * const retried = await weir.executions.retry('exec_456') // retried.retryOf === 'exec_456'
 * const again = await weir.executions.rerun('exec_456', { draft: true })
 */
export interface ExecutionControl {
  /**
   * Cancels a queued, running or waiting execution and resolves with its `cancelled` record. One running in
   * another process (`weir serve`) is asked to stop and waited for, up to 10 s (TIMEOUT after). An ended
   * execution is a CONFLICT; an unknown id NOT_FOUND.
   * @example
   * const record = await weir.executions.cancel('exec_123') // record.status === 'cancelled'
   */
  cancel(id: string): Promise<ExecutionRecord>;
  /**
   * Retries an execution that ended in `error` or was `cancelled`: a new execution (`retryOf` set) that
   * reuses the records of the nodes that succeeded and runs from the failed node on, against the config
   * the execution ran unless `latest` (the current published copy, or the local draft for a draft run).
   * Any other status is a CONFLICT.
   * @example
   * const record = await weir.executions.retry('exec_123', { latest: true })
   */
  retry(id: string, options?: { latest?: boolean }): Promise<ExecutionRecord>;
  /**
   * Runs an execution's trigger input again as a fresh execution (`rerunOf` set), against the published
   * copy of its workflow, or the local draft with `draft`.
   * @example
   * const record = await weir.executions.rerun('exec_123', { draft: true })
   */
  rerun(id: string, options?: { draft?: boolean }): Promise<ExecutionRecord>;
  /**
   * Decides the approval a waiting execution waits for (a node's `Suspend` of kind `approval`, such as an
   * agent's tool call): approved unless `approve` is false, with an optional `reason`; the node runs again with
   * `ctx.approval`. An execution that waits for no approval is a CONFLICT; an unknown id NOT_FOUND.
   * @example
   * await weir.executions.approve('exec_123', { approve: false, reason: 'refunds over 500 need a manager' })
   */
  approve(id: string, decision?: { approve?: boolean; reason?: string }): Promise<ApprovalAnswer>;
}

/** `weir.executions`: the records and their control. */
export type WeirExecutions = Executions & ExecutionControl;

/**
 * What polling a status URL answers (`GET /executions/<token>`, `weir.runtime.status(token)`): the execution's
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
  /** Only when `status` is `debounced`: the execution its burst ran as (whose status URL is not this one's). */
  debouncedInto?: string;
}
