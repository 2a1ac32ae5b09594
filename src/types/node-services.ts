import type { ExecutionRecord, WeirRunOptions } from '../flow/types.js';
import type { Knowledge } from './knowledge.js';
import type { Kv } from './kv.js';
import type { Objects } from './objects.js';
import type { Tables } from './tables.js';
import type { Sandbox } from '../sandbox/index.js';
import type { NetworkPolicy } from '../util/network.js';
import type { Expressions } from '../expr/index.js';
import type { AwaitExecution } from '../runtime/await-execution.js';
import type { ChatModel } from '../agent/model.js';
import type { Agents } from './agents.js';
import type { PublishedWorkflow } from '../resources/workflows/types.js';

/** Runs a workflow by id or name: the local draft, or the published copy with `{ published: true }`. */
export type RunWorkflow = (ref: string, input?: unknown, options?: WeirRunOptions) => Promise<ExecutionRecord>;

/**
 * What a node's `run` may use of the instance running its flow (`ctx.services`): the resource managers a
 * flow reads and writes, the sandbox, the network policy and `run` for nested flows, never the instance's
 * lifecycle. A weir instance gives all of them; an executor built on its own (`createExecutor`) may leave
 * any out, and a node that needs a missing one fails with UNAVAILABLE.
 * @example
 * defineNode({ type: 'count_keys', run: async (ctx) => (await ctx.services.kv!.keys('orders')).length })
 */
export interface NodeServices {
  /** Runs another workflow (`call_flow`), recorded as its own execution. */
  readonly run?: RunWorkflow;
  /** Waits for an execution started before a crash to end (a foreach item's sub-flow): its final record, or null when none was stored. */
  readonly awaitExecution?: AwaitExecution;
  /** The `{{ }}` engine, for a node resolving its `deferredKeys` itself (a foreach `map`). */
  readonly expressions?: Pick<Expressions, 'compileValue'>;
  /** The JavaScript sandbox of Code nodes. */
  readonly sandbox?: Sandbox;
  /** Which addresses outgoing requests (`http_request`) may reach. */
  readonly network?: NetworkPolicy;
  readonly kv?: Kv;
  readonly tables?: Tables;
  readonly objects?: Objects;
  readonly knowledge?: Knowledge;
  /** The agents, whose system prompt an `agent` node sends. */
  readonly agents?: Pick<Agents, 'get'>;
  /** The published flows (`findPublished` by id or name, or null): what an `agent` node offers as tools. */
  readonly published?: { find(ref: string): Promise<PublishedWorkflow | null>; list(): Promise<PublishedWorkflow[]> };
  /** The configured language model (`providers.llm`); throws saying what to configure when there is none. */
  readonly chatModel?: () => Promise<ChatModel>;
}
