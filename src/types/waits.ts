/** The request that resumes a webhook wait, as the wait node's data: `{body, headers, query, method}`. */
export interface ResumeCall {
  body: unknown;
  headers: Record<string, string>;
  query: Record<string, string | string[]>;
  method: string;
}

/**
 * Waiting executions (`wait` nodes): stored, indexed by wake time, and woken by one timer in a host.
 * Every weir instance records its waits; only a started host (`weir serve`) wakes them.
 * @example
 * weir.waits.start()                                   // a host: load the index in the background
 * await weir.waits.resume(token, { body: { ok: true }, headers: {}, query: {}, method: 'POST' }) // { executionId }
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
  resume(token: string, call: ResumeCall): Promise<{ executionId: string } | null>;
  /** Drops every wake of an execution (one that was cancelled or otherwise ended). */
  forget(executionId: string): Promise<void>;
  /** Wakes held by this host's timer. */
  readonly size: number;
  /** Timers armed right now: at most one, whatever the number of waits. */
  readonly timers: number;
}
