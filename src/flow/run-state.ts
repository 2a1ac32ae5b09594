import { WeirError } from '../errors.js';
import { noMask, type Masker } from './masking.js';
import type { ExecutionRecord, RunOptions, RunState } from './types.js';

/**
 * One run's state. A class, not an object literal with a `signal` getter: such a literal gets a hidden class
 * of its own, kept in old space, whose getter holds the run's closure, so every run stayed reachable to the
 * young-generation GC and was copied and promoted (measured: about 1 MB promoted per scavenge under load).
 * @example
 * const state = new Run(record, options, env)
 * state.cancel() // the running nodes' signal aborts with CANCELLED
 */
export class Run implements RunState {
  mask: Masker = noMask;
  answer?: RunState['answer'];
  failure?: RunState['failure'];
  #controller?: AbortController;
  #reason?: WeirError;
  #onCancel?: Set<() => void>;

  constructor(
    public record: ExecutionRecord,
    public options: RunOptions,
    public env: RunState['env'],
  ) {}

  /** Made on first use: most runs have no node that reads a signal, and a signal is costly to make. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#reason) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#reason !== undefined;
  }

  onCancel(fn: () => void): () => void {
    if (this.#reason) {
      fn();
      return () => {};
    }
    const fns = (this.#onCancel ??= new Set());
    fns.add(fn);
    return () => void fns.delete(fn);
  }

  /** Stops the running nodes with `reason` (the first reason stays). */
  abort(reason: WeirError): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#onCancel?.forEach((fn) => fn());
  }

  cancel(): void {
    this.failure ??= { code: 'CANCELLED', message: 'execution cancelled' };
    this.abort(new WeirError('CANCELLED', 'execution cancelled'));
  }
}
