import type { NodeContext } from '../nodes/define.js';
import type { NodeServices } from '../types/node-services.js';
import type { Approval, ExecutionFacade, RunState, TokenCounts, Wake } from './types.js';
import type { NodeUsages } from './usage.js';

/** What a node's context takes from its walk. */
export interface NodeContextDeps {
  services: NodeServices;
  facade: ExecutionFacade;
  /**
   * Stores the run's records so far (a checkpoint); the walk waits for it after an asynchronous node that is
   * not pure before starting the nodes that follow, so a node whose side effects are done is not run again
   * after a crash.
   */
  checkpoint?(): Promise<void> | void;
}

/** The decision a node run again after its approval wait sees (without the time that told kept decisions apart). */
export const approvalOf = ({ approved, reason }: NonNullable<Wake['approval']>): Approval => (reason === undefined ? { approved } : { approved, reason });

/**
 * A node's context: a class so `signal` is a getter on the prototype (see `Run` in run-state.ts for why).
 * @example
 * const ctx = new Context(config, input, node.info, log, run, deps, progress, startedAt, undefined, node.index, tokens, undefined)
 * await node.def.run(ctx)
 */
export class Context implements NodeContext {
  env: NodeContext['env'];
  services: NodeContext['services'];
  execution: NodeContext['execution'];
  #run: RunState;
  #deps: NodeContextDeps;

  constructor(
    public config: Record<string, unknown>,
    public input: unknown,
    public node: NodeContext['node'],
    public log: NodeContext['log'],
    run: RunState,
    deps: NodeContextDeps,
    public progress: unknown,
    readonly startedAt: string,
    readonly woken: readonly string[] | undefined,
    readonly index: number,
    readonly tokens: NodeUsages,
    readonly approval: NodeContext['approval'],
  ) {
    this.env = run.env;
    this.services = deps.services;
    this.execution = deps.facade;
    this.#run = run;
    this.#deps = deps;
  }

  saveProgress(progress: unknown): Promise<void> {
    const usage = this.tokens.of(this.index);
    this.#run.record.nodes[this.node.id] = { data: null, status: 'running', startedAt: this.startedAt, finishedAt: null, progress, ...(usage ? { usage } : {}) };
    // A store that fails is left to the next one, as the walk's own checkpoints are.
    return Promise.resolve(this.#deps.checkpoint?.()).catch(() => {});
  }

  get signal(): AbortSignal {
    return this.#run.signal;
  }

  onCancel(fn: () => void): () => void {
    return this.#run.onCancel(fn);
  }

  recordUsage(model: string, usage: TokenCounts): void {
    this.tokens.add(this.index, String(model), usage);
  }
}
