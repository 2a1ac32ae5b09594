import type { ErrorInfo, Outcome, TriggerKind } from '../types/trigger.js';
import type { WorkflowConfig } from '../resources/workflows/types.js';

/**
 * Masks secret values in data (made by `createMasker`); `record` masks the data fields of an execution
 * record and returns a record it made before as is; `finds` tells whether a text (a record's JSON) holds a
 * value it masks.
 */
export interface Masker {
  <T>(value: T): T;
  record(record: ExecutionRecord): ExecutionRecord;
  finds(text: string): boolean;
}

export type { ErrorInfo, Outcome, TriggerKind };

export type ExecutionStatus = 'queued' | 'running' | 'waiting' | 'success' | 'error' | 'cancelled' | 'debounced';

/**
 * What a `waiting` node waits for: a time, a call to the execution's resume URL (until `timeoutAt`, if set),
 * the end of child executions that wait themselves (a foreach's sub-flows; the node runs again, from its
 * progress, each time one of them ends), or someone's approval of a tool call (`tool` with `input`; the node
 * runs again, from its progress, with `ctx.approval`).
 */
export type WaitInfo =
  | { kind: 'time'; until: string }
  | { kind: 'webhook'; timeoutAt?: string }
  | { kind: 'children'; executionIds: string[] }
  | { kind: 'approval'; tool: string; input: unknown };

/** Someone's answer to an approval wait (`ctx.approval` of the node run again). */
export interface Approval {
  approved: boolean;
  reason?: string;
}

/** How a waiting node continues: with its data (the input passes on when absent), or failing with an error. */
export interface Wake {
  nodeId: string;
  data?: unknown;
  error?: ErrorInfo;
  /** A wait on children: the ones whose end woke it (absent: not known, the node reads them all). */
  ended?: string[];
  /** An approval wait: the decision, and when it was made (which kept decision this wake used up). */
  approval?: Approval & { at: number };
}

/** How loud a node's log line is; a Code node's `console.log` is `log`, `console.warn` is `warn`, and so on. */
export type NodeLogLevel = 'log' | 'info' | 'warn' | 'error';

/** One line a node logged while it ran (a Code node's `console.*`, a retry, a called flow). */
export interface NodeLogLine {
  level: NodeLogLevel;
  message: string;
  at: string;
}

/** The output record of one node (`$node.<id>`): `{data, status, startedAt, finishedAt}`. */
export interface NodeRecord {
  data: unknown;
  /** `running`: a node still at work that stored its `progress` (a foreach between items). */
  status: 'success' | 'error' | 'skipped' | 'waiting' | 'running';
  startedAt: string | null;
  finishedAt: string | null;
  error?: ErrorInfo;
  /** Attempts made, when the node was retried. */
  attempts?: number;
  /** What the node logged, when it logged anything (bounded: see `NODE_LOG_LIMITS`). */
  logs?: NodeLogLine[];
  /**
   * The edge handle a branching node took (`"true"`/`"false"`), or the handles when it fans out (a switch of
   * mode `all`), so a resumed run takes the same branches.
   */
  handle?: string | string[];
  /** Of a `waiting` node: what it waits for. */
  wait?: WaitInfo;
  /** Of a `running` (or `children`-waiting) node: how far it got (`ctx.saveProgress`), handed back to it when it runs again. */
  progress?: unknown;
  /** The language-model tokens the node reported (`ctx.recordUsage`), when it reported any. */
  usage?: UsageRecord;
}

/** Tokens a language model took: prompt (input), completion (output) and their sum. */
export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** The tokens a node or an execution took in all, and the same by model. */
export interface UsageRecord extends TokenCounts {
  byModel: Record<string, TokenCounts>;
}

/** One execution, as stored in `cloud:executions` and returned by `weir.run`. */
export interface ExecutionRecord {
  id: string;
  workflowId: string;
  workflowName: string;
  version: number | null;
  status: ExecutionStatus;
  trigger: TriggerKind;
  input: unknown;
  nodes: Record<string, NodeRecord>;
  result: unknown;
  error?: ErrorInfo;
  startedAt: string;
  finishedAt: string | null;
  /** Times the execution was started: more than 1 after a crash made it resume from its checkpoints. */
  attempts?: number;
  /** When it last resumed (after a crash, or from a wait). */
  resumedAt?: string;
  /** Of a `debounced` delivery (`settings.debounce`): the execution its burst ran as, with the burst's last input. */
  debouncedInto?: string;
  /** The execution this one retries (from its failed node on). */
  retryOf?: string;
  /** The execution whose input this one ran again. */
  rerunOf?: string;
  /** The hash of the config it runs (published copies and drafts alike), to resume or retry against it. */
  hash?: string;
  /** Set when it runs the local draft rather than the published copy. */
  draft?: true;
  /** The execution that started this one (a `call_flow` node's), with {@link parentNodeId}. */
  parentExecutionId?: string;
  /** The node of the parent execution that started this one. */
  parentNodeId?: string;
  /** The executions this one started, in the order they started (each lists this one as its parent). */
  children?: ChildExecution[];
  /**
   * Of a failed execution whose flow names an error flow (`settings.errorFlow`): the error flow's execution
   * started for it, or the problem that kept it from running.
   */
  errorFlow?: { flow: string; executionId?: string; problem?: string };
  /**
   * The error flow execution this one is, or was started by (directly or through `call_flow` and `foreach`
   * children, whatever the depth): its failure fires no error flow, so an error flow calling a flow that
   * names it as its error flow cannot loop.
   */
  underErrorFlow?: string;
  /**
   * The language-model tokens its nodes took, when any reported some: the sum of the nodes' `usage` in
   * {@link nodes} (a resumed or retried run counts the records it took over, as they stand in it).
   */
  usage?: UsageRecord;
  /** Of a `queued` execution: the setting it waits for (`concurrency` or `rateLimit`) and its key's value (null without a key). */
  queuedFor?: { rule: 'concurrency' | 'rateLimit' | 'debounce'; key: string | null };
}

/** An execution another one started (the sub-flow of a `call_flow` node), as the parent lists it in `children`. */
export interface ChildExecution {
  executionId: string;
  workflowId: string;
  /** The parent's node that started it. */
  nodeId: string;
}

/**
 * What a run started by another execution is given (`RunOptions.parent`, made by `childOf`): the parent's ids,
 * recorded on the child, and `adopt`, which the child calls with its own ids before its first node runs.
 */
export interface ParentLink {
  executionId: string;
  nodeId: string;
  /** The parent's {@link ExecutionRecord.underErrorFlow}: the child inherits it. */
  underErrorFlow?: string;
  /** Lists the child in the parent's record; the child's first node waits for a promise it returns. */
  adopt(child: ChildExecution): void | Promise<void>;
}

/** Options of `weir.executor.run`. */
export interface RunOptions {
  workflow: { id: string; name: string; version?: number | null; config: WorkflowConfig; hash?: string; draft?: boolean };
  input: unknown;
  trigger: TriggerKind;
  /** Reuse an id chosen beforehand (a durable delivery replayed after a restart keeps its id). */
  executionId?: string;
  /** Aborting cancels the execution: running nodes see their signal abort, no new node starts. */
  signal?: AbortSignal;
  /** Called once, when the first Respond node runs. */
  onRespond?(answer: Outcome): void;
  /**
   * Called once no node runs any more and only the record is left to store (the run's promise settles after
   * that): a caller bounding executions at once may count it as done.
   */
  onEnded?(): void;
  /**
   * No caller waits for the outcome (a delivery, schedule, resume or wake run in the background): the final
   * record may wait a few milliseconds to be written in one file with other runs' records. So may the record
   * of a run whose caller a Respond node answered.
   */
  background?: boolean;
  /** Nesting depth of `call_flow` (0 for a top-level run). */
  depth?: number;
  /** The execution (and its node) that starts this one as its child; ignored when resuming. */
  parent?: ParentLink;
  /**
   * Ends the execution with this error before any node runs, recorded and reported like any failed run
   * (a delivery that crashed the host too often is refused this way).
   */
  refuse?: ErrorInfo;
  /**
   * Continues this stored record (same id): its finished nodes keep their records and are not run again;
   * the rest runs. `attempts` counts one more start unless `wake` is given (a wait ending is no new attempt).
   */
  resume?: ExecutionRecord;
  /** Ends the wait of a `waiting` node of the resumed record. */
  wake?: Wake;
  /** Who starts the execution again if this process dies: the intake journal or the execution queue (else the host's own scan). */
  restartedBy?: RestartedBy;
  /**
   * An open entry holds this execution already (it waited `queued`): its end puts the final record there and
   * removes it before the run stops being shown, so no read in between finds the `queued` record.
   */
  opened?: boolean;
  /**
   * With `resume`: runs a new execution (`executionId` or a new id, first attempt) that retries the resumed
   * record, whose id this is: its finished nodes are reused, the rest runs; the retried record is untouched.
   */
  retryOf?: string;
  /** Recorded on the new execution: the one whose trigger input it runs again. */
  rerunOf?: string;
}

/** What starts an execution again after a crash, when not the host's scan of unfinished executions. */
export type RestartedBy = 'journal' | 'queue';

/** Options of `weir.run`: everything of `executor.run` but the workflow, which is looked up. */
export interface WeirRunOptions extends Partial<Omit<RunOptions, 'workflow' | 'input'>> {
  /** Run the published copy (else the local draft). */
  published?: boolean;
}

/** What the execution gives each node as `ctx.execution`: who runs it, what came in, what ran, and `respond`. */
export interface ExecutionFacade {
  /** The execution's id (`exec_...`), the same across a resume or a retry of a node. */
  id: string;
  workflowId: string;
  workflowName: string;
  /** What started it: `webhook`, `schedule`, `manual`, `call_flow`... */
  trigger: TriggerKind;
  /** How deep `call_flow` nests this execution (0 for a top-level run). */
  depth: number;
  /** The error flow execution this one is or runs under ({@link ExecutionRecord.underErrorFlow}), passed on to its children. */
  readonly underErrorFlow?: string;
  /** The trigger input (`$input`). */
  input: unknown;
  /** Output records of the nodes so far (`$node`). */
  nodes: Record<string, NodeRecord>;
  /** Answers the waiting caller; only the first call counts. */
  respond(answer: Outcome): void;
  /**
   * Lists an execution this one started in its record's `children` (once, however often it is called); the
   * record is checkpointed before the returned promise settles, so a resumed run keeps the link, unless
   * `store` is false (a node that made the link durable itself: a foreach stores its runs' ids beforehand).
   */
  adopt(child: ChildExecution, store?: boolean): void | Promise<void>;
  /** `$execution` in expressions and Code nodes. */
  variables: ExecutionVariables;
}

/** `$execution`: the execution's id, and the URLs that end its webhook wait and decide its approval wait (made on first read). */
export interface ExecutionVariables {
  id: string;
  readonly resumeUrl?: string;
  readonly approvalUrl?: string;
}

/** The state of one run that lifecycle hooks see and may change. */
export interface RunState {
  record: ExecutionRecord;
  options: RunOptions;
  /** `$env` of this run (allowed environment variables, then secrets). */
  env: Record<string, string | undefined>;
  /** Masks secret values in data and in the record's data fields (identity until a hook sets it). */
  mask: Masker;
  /** The first Respond node's answer. */
  answer?: Outcome;
  /** Set when the execution stops on an error or is cancelled. */
  failure?: ErrorInfo;
  signal: AbortSignal;
  /** Whether the run was cancelled or stopped (reading it makes no signal). */
  readonly aborted: boolean;
  /** Calls `fn` once the run is cancelled or stopped (at once if it is); returns a function that forgets it. */
  onCancel(fn: () => void): () => void;
  /** Stops the run as `cancelled`: running nodes see their signal abort and no node starts after them. */
  cancel(): void;
}

/** Lifecycle hooks: persistence, secrets and Respond plug in here rather than living inside the executor. */
export interface ExecutorHooks {
  'execution:start': Array<(run: RunState) => void | Promise<void>>;
  /** Stores the run's records so far; the run waits for it before going on after an asynchronous node that is not pure. */
  checkpoint: Array<(run: RunState) => void | Promise<void>>;
  respond: Array<(run: RunState, answer: Outcome) => void>;
  'execution:end': Array<(run: RunState) => void | Promise<void>>;
}
