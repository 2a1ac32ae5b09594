/** The request that resumes a webhook wait, as the wait node's data: `{body, headers, query, method}`. */
export interface ResumeCall {
  body: unknown;
  headers: Record<string, string>;
  query: Record<string, string | string[]>;
  method: string;
}

/** What deciding an approval wait answers: whose, which tool, the decision, and whether it applied at once. */
export interface ApprovalAnswer {
  executionId: string;
  approved: boolean;
  reason?: string;
  /** The tool whose call waited (absent: a decision kept for a wait the execution has yet to reach). */
  tool?: string;
  /** False: the execution did not wait for an approval yet; the decision is kept for its first one. */
  applied: boolean;
}

/**
 * Waiting executions (`wait` nodes, nodes waiting for an approval): stored, indexed by wake time, and woken by one timer in a host.
 * Every weir instance records its waits; only a started host (`weir serve`) wakes them.
 * @example
 * weir.waits.start()                                   // a host: load the index in the background
 * await weir.waits.resume(token, { body: { ok: true }, headers: {}, query: {}, method: 'POST' }) // { executionId }
 * await weir.waits.approve('exec_1kf3q8v2ma8g4gt2zaqe', { approve: true })
 * await weir.waits.forget('exec_1kf3q8v2ma8g4gt2zaqe') // a cancelled execution: nothing left to wake
 */
export interface Waits {
  /** Loads the wake index in the background and arms the timer; resolves when the index is loaded. */
  start(): Promise<number>;
  /** Stops the timer and waits for the wakes under way, their runs included. */
  stop(): Promise<void>;
  /**
   * Uses a resume token: resumes its execution's webhook wait with `call` (or keeps the call for the wait the
   * execution has yet to reach). Null for an unknown, used or expired token.
   */
  resume(token: string, call: ResumeCall): Promise<{ executionId: string } | ApprovalAnswer | null>;
  /**
   * Decides the approval an execution waits for (its node runs again with `ctx.approval`): approved unless
   * `approve` is false. NOT_FOUND for an unknown id; CONFLICT when it waits for no approval, or its decision
   * is already being applied. Woken by a started host (this one, or the `weir serve` told of it).
   * @example
   * await weir.waits.approve('exec_1kf3q8v2ma8g4gt2zaqe', { approve: false, reason: 'too large a refund' })
   */
  approve(executionId: string, decision: { approve?: boolean; reason?: string }): Promise<ApprovalAnswer>;
  /** Drops every wake of an execution (one that was cancelled or otherwise ended). */
  forget(executionId: string): Promise<void>;
  /** Wakes held by this host's timer. */
  readonly size: number;
  /** Timers armed right now: at most one, whatever the number of waits. */
  readonly timers: number;
}
