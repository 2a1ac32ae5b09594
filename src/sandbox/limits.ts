import { WeirError } from '../errors.js';

/** The most characters one `$crypto` argument may have (1 MiB): a host call must not run long by itself. */
export const MAX_HOST_INPUT = 1024 * 1024;

/**
 * Why code holding a NUL character (U+0000) is refused: QuickJS receives code as C text, which would end at
 * the NUL. Inside a string the character can be written as an escape.
 */
export const NUL_IN_CODE = 'the code holds a NUL character (U+0000): write it as \\0 or \\u0000 inside a string';

/** The default bound of a Code node's return value, in bytes of JSON (`sandbox.maxOutputBytes`). */
export const DEFAULT_MAX_OUTPUT = 4 * 1024 * 1024;

export type Stop = 'cpu' | 'memory' | 'stack' | 'input' | 'output' | 'broken';

/** When a run counts as long: the jobs waiting behind it in its worker go back to the pool. */
export interface Overdue {
  afterMs: number;
  /** Called once, from the interrupt handler or a host function, when the run passes `afterMs`. */
  reached(): void;
}

/**
 * What stops one run, shared by the interrupt handler and every host function so both give the same
 * verdict: the first reason found sticks, and a stopped run fails however the code reacted. `overdue` hears
 * once that the run passed its time, from the same checks. A class, as every run makes one: its instances
 * share one shape, where an object literal with a getter would be a new dictionary each run.
 * @example
 * const limit = new Limit({ cpuMs: 1000, memoryMb: 32, maxOutputBytes: 4 << 20 })
 * if (limit.expired()) throw limit.error()
 */
export class Limit {
  #stopped: Stop | null = null;
  readonly #deadline: number;
  #late: number;

  constructor(
    private readonly options: { cpuMs: number; memoryMb: number; maxOutputBytes: number },
    private readonly overdue?: Overdue,
  ) {
    // The clock runs from the first line of the run: time spent in host functions counts like any other.
    const start = Date.now();
    this.#deadline = start + options.cpuMs;
    this.#late = overdue ? start + overdue.afterMs : Infinity;
  }

  /** Why the run was stopped, or null while it may go on. */
  get stopped(): Stop | null {
    return this.#stopped;
  }

  /** Records why the run must end (the first reason wins). */
  stop(reason: Stop): void {
    this.#stopped ??= reason;
  }

  /** Whether the run must end now: past its CPU deadline, or stopped for another reason. */
  expired(): boolean {
    const now = Date.now();
    if (now > this.#late) {
      this.#late = Infinity;
      this.overdue!.reached();
    }
    if (now > this.#deadline) this.#stopped ??= 'cpu';
    return this.#stopped !== null;
  }

  /** The error the run fails with once stopped. */
  error(): WeirError {
    return limitError(this.#stopped ?? 'broken', this.options);
  }
}


/** The error of a run stopped for `stop`. */
export function limitError(stop: Stop, { cpuMs, memoryMb, maxOutputBytes }: { cpuMs: number; memoryMb: number; maxOutputBytes: number }): WeirError {
  const limit = (message: string, hint: string) => new WeirError('SANDBOX_LIMIT', `code: ${message}`, { hints: [hint] });
  switch (stop) {
    case 'cpu':
      return limit(`CPU time limit of ${cpuMs} ms exceeded`, 'raise sandbox.cpuMs in weir.config.json, or do less work per run');
    case 'memory':
      return limit(`memory limit of ${memoryMb} MB exceeded`, 'raise sandbox.memoryMb in weir.config.json');
    case 'stack':
      return limit('call stack limit exceeded (recursion too deep)', 'recurse less deeply, or use a loop');
    case 'input':
      return limit(`a $crypto argument is longer than ${MAX_HOST_INPUT} characters`, 'hash or sign less data per call');
    case 'output':
      return limit(`the return value is larger than ${maxOutputBytes} bytes of JSON`, 'return less data, or raise sandbox.maxOutputBytes in weir.config.json');
    case 'broken':
      return limit('the run broke the sandbox limits and was stopped', 'do less work per run (deep recursion and endless promise chains are stopped)');
  }
}
