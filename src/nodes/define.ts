import type { Approval, ExecutionFacade, NodeLogLevel, TokenCounts } from '../flow/types.js';
import type { NodeServices } from '../types/node-services.js';
import type { JsonSchema } from '../util/json-schema.js';

import type { Problem } from '../types/problem.js';

export type { Problem };

/** What a node's `run` receives. `config` has its `{{ }}` expressions already resolved. */
export interface NodeContext<C = Record<string, unknown>> {
  config: C;
  /** Output data of the node's predecessors (the trigger input for the first node). */
  input: unknown;
  node: { id: string; type: string; label?: string };
  env: Record<string, string | undefined>;
  /** Adds a line to the node's `logs` in the execution record and emits it as `execution:log` (default level `info`). */
  log: (message: string, data?: unknown, level?: NodeLogLevel) => void;
  signal: AbortSignal;
  /**
   * Calls `fn` once the execution is cancelled or stopped (at once if it is) and returns a function that
   * forgets it: for a node that only needs to hear of it, cheaper than making `signal`.
   */
  onCancel(fn: () => void): () => void;
  /** What the node may use of the instance running the flow: resource managers, the sandbox, `run`. */
  services: NodeServices;
  /** The execution this node runs in: its ids, trigger input, node records so far, `respond`; filled in by the executor. */
  execution: ExecutionFacade;
  /**
   * What this node stored with {@link saveProgress} in an earlier run of this execution that did not see it
   * end (the process died): the part of its work that is done. Undefined on a first run.
   */
  progress: unknown;
  /**
   * Stores how far the node got as a checkpoint (its record `running` with `progress`), so a resume after a
   * crash hands it back as {@link progress} instead of starting the node's work over; settles once stored.
   */
  saveProgress(progress: unknown): Promise<void>;
  /**
   * A node run again because children it waited on ended: the ids of those children (the others still wait,
   * unread). Undefined on any other run, when the node must find out for itself.
   */
  woken?: readonly string[];
  /**
   * Adds the tokens one language-model call took to the node's `usage` and the execution's, by `model`, and
   * counts them in `weir_llm_tokens_total`. Stored with the record's next checkpoint (`saveProgress`
   * included), so tokens reported before a crash stay counted when the node resumes from its progress.
   * @example
   * ctx.recordUsage(turn.model, turn.usage)
   */
  recordUsage(model: string, usage: TokenCounts): void;
  /**
   * A node run again because the approval it waited for was decided (it returned `new Suspend({ kind:
   * 'approval', tool, input })` after storing its progress): `approved`, and the `reason` given, if any.
   * Undefined on any other run. Decided with `weir workflows approve <execution-id> [--deny] [--reason
   * <text>]`, `POST /api/v1/executions/<id>/approve`, the Studio, or a call to `$execution.approvalUrl`.
   * @example
   * run: async (ctx) => {
   *   if (ctx.approval) return ctx.approval.approved ? refund(ctx.progress) : { denied: ctx.approval.reason }
   *   await ctx.saveProgress({ asked: 'refund' })
   *   return new Suspend({ kind: 'approval', tool: 'refund', input: { order: 42 } })
   * }
   */
  approval?: Approval;
}

/** What a node type's documentation says: generated into docs/flows.md, `weir nodes` and the workflow schema. */
export interface NodeDocs<C = Record<string, unknown>> {
  /** One sentence: what the node does. */
  summary: string;
  /** What the node's output `data` holds. */
  output: string;
  /** A config that saves as is (a test saves every built-in node's example in a flow); not where `C` is inferred from. */
  example: NoInfer<C>;
}

/** A node's outgoing edge handles: a fixed list, or a function of its config (a switch's cases). */
export type NodeHandles<C> = readonly string[] | ((config: C) => readonly string[]);

/** A node type. Trigger nodes start a flow and output their input; other nodes get a `run` function. */
export interface NodeDefinition<C = Record<string, unknown>> {
  type: string;
  /** The name people see (the Studio's palette); default: the type in words (`http_request` -> `Http request`). */
  title?: string;
  /** A group the Studio's palette puts the type in (`data`, `flow control`); none by default. */
  category?: string;
  trigger?: boolean;
  /**
   * The outgoing edge handles of a branching node (`["true", "false"]`), or a function of its config that
   * names them; its `run` then returns `{ handle, data }` and only the edges with that handle (or none) deliver;
   * `handle` may be a list (a fan-out: the edges of each handle in it deliver). The function sees the config as
   * written, which at save may still fail its schema: it must not throw. Every edge leaving a node whose handles
   * come from its config must carry one of them (save refuses an edge without `sourceHandle`).
   */
  handles?: NodeHandles<C>;
  docs?: NodeDocs<C>;
  /** Config keys whose strings are not expressions (e.g. the `code` of a Code node). */
  rawKeys?: readonly string[];
  /**
   * Config keys whose expressions the node resolves itself as it runs, with names only it gives (a foreach
   * `map` over `$item`): left as written in `ctx.config`, checked at save like any other expression.
   */
  deferredKeys?: readonly string[];
  /** `run` applies the config's `timeoutMs` itself (the Code node as its CPU limit) instead of racing a timer. */
  ownsTimeout?: boolean;
  /**
   * Running it again changes nothing outside the execution (a computation, a read, a pause): it gets no
   * checkpoint of its own after it ends, its record joins the next one, and a resume may run it again.
   */
  pure?: boolean;
  /**
   * The node's own config keys as a JSON schema (`type: 'object'`, each key with a `description`,
   * `additionalProperties: false`). Save checks a config against it, with the options every node takes
   * (`retry`, `timeoutMs`, `onError`) added, so an unknown key is refused there; a `{{ }}` string passes for any type.
   */
  config?: JsonSchema;
  /** Save-time checks of the node's config a schema cannot say; an empty list means valid. */
  validate?(config: C): Problem[];
  run?(ctx: NodeContext<C>): unknown;
}

/**
 * Declares a node type (an identity function that keeps the config type).
 * @example
 * export default defineNode({
 *   type: 'pause',
 *   config: { type: 'object', properties: { ms: { type: 'number', minimum: 0, description: 'How long to wait' } }, additionalProperties: false },
 *   run: async (ctx) => ctx.input,
 * })
 */
export const defineNode = <C = Record<string, unknown>>(def: NodeDefinition<C>): NodeDefinition<C> => def;

/**
 * The handles edges may leave a node by, or null when it does not branch (its edges take no handle).
 * Called when a flow is saved and when its graph is built, never per execution.
 * @example
 * handlesOf(conditionNode, {}) // ['true', 'false']
 */
export function handlesOf<C>(def: NodeDefinition<C>, config: C): readonly string[] | null {
  if (!def.handles) return null;
  return typeof def.handles === 'function' ? def.handles(config) : def.handles;
}

/** Reusable config checks for `validate` functions. */
export const check = {
  required(config: Record<string, unknown>, key: string, problems: Problem[], kind = 'string'): boolean {
    const v = config[key];
    if (v === undefined || v === null || v === '') {
      problems.push({ path: key, message: `"${key}" is required` });
      return false;
    }
    if (kind !== 'any' && typeof v !== kind) {
      problems.push({ path: key, message: `"${key}" must be a ${kind}` });
      return false;
    }
    return true;
  },
  optional(config: Record<string, unknown>, key: string, kind: string, problems: Problem[]): void {
    const v = config[key];
    if (v !== undefined && typeof v !== kind) problems.push({ path: key, message: `"${key}" must be a ${kind}` });
  },
};
