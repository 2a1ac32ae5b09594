import type { WeirError } from '../errors.js';
import type { WeirBus } from '../events.js';
import type { Expressions } from '../expr/index.js';
import type { NodeRegistry } from '../nodes/index.js';
import type { WorkflowConfig } from '../resources/workflows/types.js';
import type { ConfigCheck } from '../resources/workflows/validate.js';
import { buildGraph, type Graph } from './graph.js';
import { callHooks, createHooks } from './hooks.js';
import type { ExecutionFacade, ExecutionRecord, ExecutionVariables, ExecutorHooks, NodeLogLevel, RunOptions } from './types.js';
import { emitSafely } from './bus-emit.js';
import { Run } from './run-state.js';
import { walk } from './walk.js';
import { onAbort } from '../util/abort.js';
import { createClock } from '../util/clock.js';
import { newExecutionId } from '../resources/executions/ids.js';
import type { Executor } from '../types/executor.js';
import type { NodeServices } from '../types/node-services.js';
import { createTracing, type ExecutionTrace } from '../observe/traces.js';
import { addChild, joinParent, recordParent } from './children.js';

export interface ExecutorOptions {
  nodes: NodeRegistry;
  expressions: Expressions;
  bus: WeirBus;
  /** What nodes see as `ctx.services`: resource managers, `run`, the sandbox. */
  services: NodeServices;
  /** `$env` before secrets are added (already filtered by `env.allow`). */
  env: Record<string, string | undefined>;
  /** Save-time checks, also applied before a config runs. */
  checks?: ConfigCheck[];
  hooks?: ExecutorHooks;
  /**
   * The URL that ends an execution's webhook wait (`$execution.resumeUrl`), or with `kind: 'approval'` decides
   * its approval wait (`$execution.approvalUrl`), made when a node first reads it; without it `$execution` has
   * only `id`.
   */
  resumeUrl?(execution: { id: string; workflowId: string }, kind?: 'approval'): string;
}

const GRAPH_CACHE_SIZE = 500;

/**
 * The flow executor: validates and indexes a config once (cached by config object, or by workflow id and
 * hash), then walks it. Persistence, secrets and Respond are lifecycle hooks (`executor.hooks`).
 * @example
 * const record = await weir.executor.run({ workflow: { id, name, config }, input: { a: 1 }, trigger: 'manual' })
 * record.status // 'success'
 */
export function createExecutor({ nodes, expressions, bus, services, env, checks = [], hooks = createHooks(), resumeUrl }: ExecutorOptions): Executor {
  const byConfig = new WeakMap<WorkflowConfig, Graph>();
  const byHash = new Map<string, Graph>();
  const baseEnv = Object.freeze({ ...env });
  const now = createClock();
  const traceRun = createTracing();

  function graphFor(workflow: RunOptions['workflow']): Graph {
    let graph = byConfig.get(workflow.config);
    if (graph) return graph;
    const hashKey = workflow.hash ? `${workflow.id}@${workflow.hash}` : '';
    graph = (hashKey && byHash.get(hashKey)) || buildGraph(workflow.config, nodes, expressions, checks);
    byConfig.set(workflow.config, graph);
    if (hashKey && !byHash.has(hashKey)) {
      if (byHash.size >= GRAPH_CACHE_SIZE) byHash.delete(byHash.keys().next().value!);
      byHash.set(hashKey, graph);
    }
    return graph;
  }

  /** What a run goes on: its graph, and its state with a new record or the stored one it resumes. */
  function prepare(options: RunOptions): { graph: Graph; state: Run } {
    const { workflow } = options;
    const graph = graphFor(workflow);
    const record: ExecutionRecord = options.resume
      ? resumedRecord(options.resume, options, now())
      : {
          id: options.executionId ?? newExecutionId(),
          workflowId: workflow.id,
          workflowName: workflow.name,
          version: workflow.version ?? null,
          status: 'running',
          trigger: options.trigger,
          input: options.input ?? {},
          nodes: {},
          result: null,
          startedAt: now(),
          finishedAt: null,
        };
    // Set after the literal: spreads there would copy through a slow path on every run.
    if (!options.resume) {
      if (workflow.hash) record.hash = workflow.hash;
      if (workflow.draft) record.draft = true;
      if (options.rerunOf) record.rerunOf = options.rerunOf;
      if (options.parent) recordParent(record, options.parent);
    }
    return { graph, state: new Run(record, options, baseEnv) };
  }

  // Not async: an untraced run's promise is the execution's own, with no frame around it.
  function run(options: RunOptions): Promise<ExecutionRecord> {
    let prepared: ReturnType<typeof prepare>;
    try {
      prepared = prepare(options);
    } catch (err) {
      return Promise.reject(err);
    }
    const { graph, state } = prepared;
    const trace = traceRun(state);
    return trace ? traced(graph, state, trace) : execute(graph, state);
  }

  /** A traced run: its span ends however the run ends (a hook that throws included). */
  async function traced(graph: Graph, state: Run, trace: ExecutionTrace): Promise<ExecutionRecord> {
    try {
      return await execute(graph, state, trace);
    } finally {
      trace.end(state.record);
    }
  }

  async function execute(graph: Graph, state: Run, trace?: ExecutionTrace): Promise<ExecutionRecord> {
    const { record, options } = state;
    const { workflow } = options;
    const stop = (reason: WeirError) => state.abort(reason);
    let forgetCancel: (() => void) | undefined;
    const starting = callHooks(hooks['execution:start'], state);
    if (starting) await starting;
    // A child is listed by its parent once it can be read (its start hooks track it), before its first node.
    if (options.parent && !options.resume) {
      const joining = joinParent(record, options.parent);
      if (joining) await joining;
    }
    emitSafely(bus, 'execution:start', { executionId: record.id, workflowId: workflow.id, workflowName: workflow.name, trigger: options.trigger, startedAt: record.startedAt });
    if (options.refuse) state.failure = options.refuse;
    else if (options.signal) forgetCancel = onAbort(options.signal, () => state.cancel());

    const checkpoint = hooks.checkpoint.length ? () => callHooks(hooks.checkpoint, state) : undefined;
    const facade: ExecutionFacade = {
      id: record.id,
      workflowId: workflow.id,
      workflowName: workflow.name,
      trigger: options.trigger,
      depth: options.depth ?? 0,
      // Read when a child starts: an error flow's start hook sets it.
      get underErrorFlow() {
        return record.underErrorFlow;
      },
      input: record.input,
      nodes: record.nodes,
      variables: executionVariables(record, resumeUrl),
      respond(answer) {
        if (state.answer) return;
        state.answer = answer;
        for (const hook of hooks.respond) hook(state, answer);
      },
      adopt(child, store = true) {
        if (!addChild(record, child) || !checkpoint || !store) return;
        // Stored before the child runs, so a crash of this run leaves the link in the record it resumes from.
        // A store that fails is ignored as the walk's checkpoints are: the next one stores the link too.
        return Promise.resolve(checkpoint()).catch(() => {});
      },
    };
    const log = (nodeId: string, level: NodeLogLevel, message: string, data?: unknown) =>
      emitSafely(bus, 'execution:log', { executionId: record.id, workflowId: workflow.id, nodeId, level, message: state.mask(message), ...(data === undefined ? {} : { data: state.mask(data) }) });
    try {
      const { last, waiting } = state.failure ? { last: null, waiting: 0 } : await walk(graph, state, { bus, services, facade, stop, log, now, checkpoint, trace });
      const failure = state.failure;
      record.status = failure ? (failure.code === 'CANCELLED' && !failure.node ? 'cancelled' : 'error') : waiting ? 'waiting' : 'success';
      if (failure) record.error = failure;
      else if (!waiting) record.result = state.answer ? state.answer.body : last ? record.nodes[last].data : null;
    } finally {
      forgetCancel?.();
      if (record.status !== 'waiting') record.finishedAt = now();
    }
    options.onEnded?.();
    const ending = callHooks(hooks['execution:end'], state);
    if (ending) await ending;
    const { status, error, finishedAt } = state.record;
    emitSafely(bus, 'execution:end', { executionId: record.id, workflowId: workflow.id, workflowName: workflow.name, trigger: options.trigger, status, startedAt: record.startedAt, finishedAt, ...(error ? { error } : {}) });
    return state.record;
  }

  return { run, hooks };
}

/**
 * The record a resumed run continues: same id and input, its nodes replayed by the walk, one more attempt.
 * A retry is a new execution instead: its own id, start and first attempt, against the config it is given.
 */
function resumedRecord(stored: ExecutionRecord, options: RunOptions, at: string): ExecutionRecord {
  // The error flow a failure started is that failure's, not the new run's; the usage is summed again by the
  // walk from the node records it takes over and the nodes that run.
  const { error: _error, errorFlow: _errorFlow, usage: _usage, ...rest } = stored;
  if (options.retryOf) {
    // A retry is started by hand: no one's child, and the children of the run it retries stay that run's.
    const { attempts: _a, resumedAt: _r, rerunOf: _o, hash: _h, draft: _d, parentExecutionId: _p, parentNodeId: _n, children: _c, underErrorFlow: _u, ...kept } = rest;
    const { workflow } = options;
    return {
      ...kept,
      id: options.executionId ?? newExecutionId(),
      workflowName: workflow.name,
      version: workflow.version ?? null,
      status: 'running',
      nodes: {},
      result: null,
      startedAt: at,
      finishedAt: null,
      retryOf: options.retryOf,
      ...(workflow.hash ? { hash: workflow.hash } : {}),
      ...(workflow.draft ? { draft: true as const } : {}),
    };
  }
  const attempts = options.wake ? stored.attempts : (stored.attempts ?? 1) + 1;
  // Its children stay listed (their nodes are replayed, not run again); the list is its own to add to.
  const children = rest.children ? { children: [...rest.children] } : {};
  return { ...rest, ...children, status: 'running', nodes: {}, result: null, finishedAt: null, resumedAt: at, ...(attempts && attempts > 1 ? { attempts } : {}) };
}

/**
 * `$execution` of a run: `resumeUrl` and `approvalUrl` are made on first read, so runs that never read it cost nothing. A class
 * for the same reason as `Run`: a literal with a getter would keep every run reachable to the young GC.
 * Expressions read only own properties, and `resumeUrl` and `approvalUrl` by name (src/expr/compile.ts).
 */
class Variables implements ExecutionVariables {
  readonly id: string;
  readonly #record: ExecutionRecord;
  readonly #make: NonNullable<ExecutorOptions['resumeUrl']>;
  #url?: string;
  #approvalUrl?: string;

  constructor(record: ExecutionRecord, make: NonNullable<ExecutorOptions['resumeUrl']>) {
    this.id = record.id;
    this.#record = record;
    this.#make = make;
  }

  get resumeUrl(): string {
    return (this.#url ??= this.#make(this.#record));
  }

  get approvalUrl(): string {
    return (this.#approvalUrl ??= this.#make(this.#record, 'approval'));
  }

  /** Written out (`{{ $execution }}`), it is its id: a resume URL is made only when asked for by name. */
  toJSON(): ExecutionVariables {
    return { id: this.id };
  }
}

function executionVariables(record: ExecutionRecord, resumeUrl: ExecutorOptions['resumeUrl']): ExecutionFacade['variables'] {
  return resumeUrl ? new Variables(record, resumeUrl) : { id: record.id };
}
